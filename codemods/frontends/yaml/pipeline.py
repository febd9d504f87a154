"""YAML front end: ``trainer:`` sections, Hydra ``_target_``/LightningCLI ``class_path`` strings, interpolations.

A config is never re-serialised. The file is composed with ruamel.yaml (for the node marks), the flag rules
run on each Trainer section's :class:`~codemods.plan.model.Plan`, and the changes become text edits
(``codemods.frontends.yaml.section``) that are checked for overlap and spliced into the original text once: every
byte outside the keys and values that migrate stays as it was. A section that cannot be edited safely
(anchors, aliases, merge keys, tags) is left alone with a TODO finding. The result must load again, and
everything the edits did not touch must read back equal; otherwise the input comes back with ``error`` set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode

from codemods.frontends.yaml.flow import Unsafe
from codemods.frontends.yaml.nodes import (
    Document,
    Entry,
    Section,
    Style,
    compose,
    composed,
    read,
    sections,
    style,
    unsafe,
)
from codemods.frontends.yaml.section import SectionWriter, Written
from codemods.frontends.yaml.strings import interpolation_edits, rename_edits
from codemods.frontends.yaml.text import Edit, apply_edits
from codemods.frontends.yaml.todos import TodoPlacer
from codemods.frontends.yaml.verify import Touched, verify
from codemods.frontends.yaml.writer_view import Slot
from codemods.model import Finding, FindingKind, Options, Outcome, todo_comment
from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import Plan, Value
from codemods.project.decisions import guard_section
from codemods.project.keys import never_tunes
from codemods.project.prefilter import yaml_triggered
from codemods.project.section_plans import composed_into, composed_strategy_todo, strategy_beside
from legacy_api.target_aliases import same_on_target

_INTERPOLATION = re.compile(r"\$\{trainer\.(\w+)\}")
#: 1.5 device flags a script's argparse options may take from a config's top level.
_PARSER_FLAGS = ("gpus", "tpu_cores", "num_processes")
#: Where a rule's TODO goes when its message names no key of the section.
_RULE_KEYS = {
    "strategy_names": ("strategy",),
    "legacy_fallbacks": ("strategy", "accelerator", "devices"),
    "amp_flags": ("amp_backend", "amp_level", "precision"),
    "plugins_strategy": ("plugins", "strategy"),
    "accelerator_strategy": ("strategy", "accelerator"),
    "auto_select_gpus": ("auto_select_gpus", "devices"),
    "trainer_defaults": ("devices",),
    "ddp_cpu": ("accelerator",),
}


class _HeldClash(Exception):
    """Migrating the rest of a section around its kept keys would write one of them again."""


@dataclass
class FilePass:
    """The edits and findings for one YAML stream."""

    text: str
    options: Options
    path: str
    docs: list[Document]
    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    touched: list[Touched] = field(default_factory=list)
    #: Original Trainer key -> the key that carries its value now (None: gone or changed).
    moved: dict[str, str | None] = field(default_factory=dict)
    #: id of a string edit -> the value it changes (for the safety check, once the edit is kept).
    paths: dict[int, Touched] = field(default_factory=dict)

    def run(self) -> None:
        layout = style(self.docs)
        project = self.options.project
        paths = project.section_paths() if project is not None else frozenset()
        renames = [edit for doc_index, doc in enumerate(self.docs) for edit in self._renames(doc_index, doc)]
        consumed: set[int] = set()
        for doc_index, doc in enumerate(self.docs):
            found = sections(doc, PurePath(self.path), paths)
            for section in found:
                written = self._section(doc_index, doc, section, layout, renames)
                if written is not None:
                    consumed |= written.consumed
            if not any(section.node is doc.node for section in found):
                self._parser_defaults(doc)
        spans = [(e.start, e.end) for e in self.edits if e.end > e.start]
        for edit in renames:
            if id(edit) not in consumed and not any(a <= edit.start and edit.end <= b for a, b in spans):
                self.edits.append(edit)
                self.touched.append(self.paths[id(edit)])
        for doc_index, doc in enumerate(self.docs):
            self._interpolations(doc_index, doc)

    # --- Trainer sections ----------------------------------------------------------------------------------
    def _section(
        self,
        doc_index: int,
        doc: Document,
        section: Section,
        layout: Style,
        renames: list[Edit],
        held: dict[str, str] | None = None,
        as_written: frozenset[str] = frozenset(),
    ) -> Written | None:
        """Plan and write one Trainer section. ``held``: keys kept as they are (used elsewhere in the project),
        each with the reason; the rules then see the rest of the section as incomplete (``opaque_rest``)."""
        held = held or {}
        entries = [entry for entry in section.entries if entry.key != "_target_" and entry.key not in held]
        original = [(entry, read(doc, entry.value)) for entry in entries]
        items = [(entry.key, value) for entry, value in original]
        target = self.options.target_tuple
        plan = Plan(
            list(items),
            target,
            section.root,
            self.options.enabled,
            opaque_rest=bool(held),
            held=frozenset(held),
            composed=composed(doc) or composed_into(self.options.project, self.path, (key for key, _ in items)),
            origin={k: "explicit" for k, _ in items},
            written_in="yaml",
            untuned=never_tunes(self.options.project),
            strategy_beside=strategy_beside(self.options, section.name, self.path),
        )
        snapshot = {id(v): list(v.items) for _, v in items if v.items is not None}
        run_flag_rules(plan)
        composed_strategy_todo(plan, self.options.project, self.path)
        if held and any(key in held for key, _ in plan.items):
            raise _HeldClash  # the rest would write a key kept as it is (gpus -> accelerator next to a kept one)
        changed = [(k, id(v)) for k, v in items] != [(k, id(v)) for k, v in plan.items] or any(
            snapshot.get(id(v)) not in (None, v.items) for _, v in plan.items
        )
        if not changed and not plan.notes and not held:
            return None
        lines = {entry.key: doc.lines.line(entry.start) + 1 for entry in entries}
        home = doc.lines.line(int((section.owner or section.node).start_mark.index)) + 1
        reason = unsafe(doc, section)
        if reason is not None:
            self._by_hand(plan, reason, lines, home)
            return None
        if changed:
            present = [entry.key for entry in section.entries]
            reasons = guard_section(self.options, self.path, section.name, items, list(plan.items), present)
            used = _used_keys(reasons, section.name)
            if reasons and not held and used and len(used) == len(reasons) and len(used) < len(items):
                # Keep only the keys used elsewhere; the rest of the section may still migrate around them.
                # a kept key the target takes as written (precision: 16) is a report, not a TODO
                after = dict(plan.items)
                as_written = frozenset(
                    key
                    for key, value in items
                    if key in used and key in after and _same_on_target(key, value, after[key], target)
                )
                try:
                    return self._section(doc_index, doc, section, layout, renames, used, as_written)
                except _HeldClash:
                    pass
            if reasons:
                # the TODO goes on a key the reasons name where each reason is such a use
                named = used if len(used) == len(reasons) else {}
                self._guarded(doc, section, original, plan, snapshot, reasons, named, layout)
                return None
        todos = [
            (self._todo_key(n.message, n.rule, plan, lines), _todo(n.message, n.rule)) for n in plan.notes if n.todo
        ]
        fresh = [(key, text) for key, text in todos if text not in self.text]
        writer = SectionWriter(doc, section, style([doc], section.node, layout), renames)
        try:
            written = writer.match(plan, original, snapshot, fresh)
            if held:
                self._hold(doc, section, writer, written, held, as_written)
        except Unsafe as exc:
            self._by_hand(plan, str(exc), lines, home)
            return None
        self.edits.extend(written.edits)
        now = {
            slot.key: doc.lines.line(slot.entry.start if slot.entry is not None else max(slot.at, 0)) + 1
            for slot in written.slots
        }
        placed = dict(zip((text for _, text in fresh), written.todo_lines, strict=True))
        for note in plan.notes:
            text = _todo(note.message, note.rule)
            line = placed.get(text) or self._note_line(note.message, note.rule, lines, home, now)
            self._find(note.rule, note.message, line, note.kind)
        self._record(doc_index, section, written, items, plan)
        return written

    def _by_hand(self, plan: Plan, reason: str, lines: dict[str, int], home: int) -> None:
        """The section stays as it is: each planned change becomes a todo finding (reports stay reports)."""
        for note in plan.notes:
            line = self._note_line(note.message, note.rule, lines, home, {})
            if note.kind == "report":
                self._find(note.rule, note.message, line, "report")
            else:
                self._find(note.rule, f"{note.message} (left as it is: {reason}; change it by hand)", line, "todo")

    def _hold(
        self,
        doc: Document,
        section: Section,
        writer: SectionWriter,
        written: Written,
        held: dict[str, str],
        as_written: frozenset[str],
    ) -> None:
        """A TODO on the line of each key kept because something elsewhere uses it (a report for one in
        ``as_written``, which the target takes as written)."""
        entries = {entry.key: entry for entry in section.entries}
        slots = [Slot(key, read(doc, entries[key].value), "keep", entries[key]) for key in sorted(held)]
        placer = TodoPlacer(writer, slots, [])
        for key, reason in sorted(held.items()):
            if key in as_written:
                # (precision: 16 kept for a read of it: the target reads it as the "16-mixed" it would have become)
                kept = f"{reason.split(': migrate', 1)[0]}: kept as written, which Lightning reads as the same choice"
                self._find("project_guard", kept, doc.lines.line(entries[key].start) + 1, "report")
                continue
            text = _todo(reason, "project_guard")
            line = doc.lines.line(entries[key].start) + 1
            if text not in self.text:
                line = doc.lines.line(placer.place(key, text)) + 1
            self._find("project_guard", reason, line, "todo")
        busy = [(edit.start, edit.end) for edit in written.edits]
        if any((a < edit.end and edit.start < b) or edit.start == a for edit in placer.edits for a, b in busy):
            raise Unsafe("a kept key's TODO would touch the section's edits")
        written.edits.extend(placer.edits)

    def _guarded(
        self,
        doc: Document,
        section: Section,
        original: list[tuple[Entry, Value]],
        plan: Plan,
        snapshot: dict[int, list[Value]],
        reasons: list[str],
        named: dict[str, str],
        layout: Style,
    ) -> None:
        """The project guard refused the rewrite: the section stays, with one TODO on the first key its reasons say is
        used elsewhere (``named``: where each reason is such a use; ``accelerator: ddp`` that code reads), else on its
        first changed key."""
        after = {key: value for key, value in plan.items}
        changed = [
            entry
            for entry, value in original
            if after.get(entry.key) is not value or snapshot.get(id(value), value.items) != value.items
        ]
        used = [entry for entry, _ in original if entry.key in named]
        first = used[0] if used else changed[0] if changed else original[0][0] if original else None
        reason = "; ".join(reasons)
        text = _todo(reason, "project_guard")
        writer = SectionWriter(doc, section, layout, [])
        placer = TodoPlacer(writer, [Slot(e.key, v, "keep", e) for e, v in original], [])
        line = placer.place(first.key if first else None, text)
        if text not in self.text:
            self.edits.extend(placer.edits)
        self._find("project_guard", reason, doc.lines.line(line) + 1, "todo")

    def _record(
        self, doc_index: int, section: Section, written: Written, items: list[tuple[str, Value]], plan: Plan
    ) -> None:
        carriers = {id(value): key for key, value in plan.items}
        for key, value in items:
            # ``${trainer.x}`` names the config's own trainer section, not a nested one (``eval.trainer``)
            if section.name == "trainer" and dict(plan.items).get(key) is not value:
                self.moved[key] = carriers.get(id(value))
        before = {e.key for e in written.deleted} | {
            s.entry.key for s in written.slots if s.entry is not None and (s.kind != "keep" or s.items_changed)
        }
        after = {s.key for s in written.slots if s.kind != "keep" or s.items_changed}
        self.touched.append(Touched(doc_index, section.path, frozenset(before), frozenset(after)))

    def _note_line(self, message: str, rule: str, lines: dict[str, int], home: int, now: dict[str, int]) -> int:
        """The line a finding is about: a key its message names, else the rule's usual key, else the section's."""
        named: list[str] = re.findall(r"\b(\w+)=", message)
        for name in named:
            if name in lines:
                return lines[name]
        for name in _RULE_KEYS.get(rule, ()):
            if name in lines or name in now:
                return lines.get(name) or now[name]
        return next((now[name] for name in named if name in now), home)

    def _todo_key(self, message: str, rule: str, plan: Plan, lines: dict[str, int]) -> str | None:
        keys = set(plan.keys())
        named: list[str] = re.findall(r"\b(\w+)=", message)
        for name in [*named, *_RULE_KEYS.get(rule, ())]:
            if name in keys:
                return name
        for name in named:
            if name in lines:
                successor = plan.successor.get(name)
                if successor is not None and successor in keys:
                    return successor
        return None

    def _parser_defaults(self, doc: Document) -> None:
        """A 1.5 device flag at the top of a config that is no Trainer section, in a project whose scripts build
        their parser with ``Trainer.add_argparse_args`` or their Trainer with ``Trainer.from_argparse_args``
        (SimCLR loads such a file as its options' defaults, which ``from_argparse_args`` hands on): reported
        (rule ``legacy_keys``), never rewritten, since the script's own options read it under that name."""
        from codemods.rules._flag_dicts import BECAME, ID

        project = self.options.project
        facts = getattr(project, "facts", ()) if project is not None else ()
        parsed = "argparse_trainer" in facts or "argparse_namespace" in facts
        if not parsed or not self.options.enabled(ID) or self.options.target_tuple < (1, 7):
            return
        if not isinstance(doc.node, MappingNode):
            return
        for key, _ in doc.node.value:
            if isinstance(key, ScalarNode) and key.value in _PARSER_FLAGS:
                message = (
                    f"{key.value} at the top of a config: where a script's parser takes it as a default and "
                    f"Trainer.from_argparse_args passes it on, it is {BECAME[key.value]}"
                )
                self._find(ID, message, int(key.start_mark.line) + 1, "report")

    def _find(self, rule: str, message: str, line: int, kind: FindingKind = "fix") -> None:
        self.findings.append(Finding(rule, message, line, 1, kind))

    # --- strings anywhere in the file ----------------------------------------------------------------------
    def _renames(self, doc_index: int, doc: Document) -> list[Edit]:
        out = []
        for edit, path in rename_edits(doc, self.options, self._find):
            self.paths[id(edit)] = Touched(doc_index, path, whole=True)
            out.append(edit)
        return out

    def _interpolations(self, doc_index: int, doc: Document) -> None:
        busy = [(e.start, e.end) for e in self.edits]
        for edit, path in interpolation_edits(doc, self.moved, self.options, self._find, busy):
            self.edits.append(edit)
            self.touched.append(Touched(doc_index, path, whole=True))


def _same_on_target(key: str, old: Value, new: Value, target: tuple[int, ...]) -> bool:
    return old.known and new.known and same_on_target(key, old.lit, new.lit, target)


def _used_keys(reasons: list[str], section: str) -> dict[str, str]:
    """Section keys the guard's reasons say are used elsewhere, each with its reason."""
    from codemods.project.decisions import blocked_keys

    name = section.rpartition(".")[2] or "trainer"
    out: dict[str, str] = {}
    for reason in reasons:
        for key in blocked_keys(reason):
            if key.startswith(f"{name}."):
                out[key[len(name) + 1 :]] = reason
    return out


def _todo(message: str, rule: str) -> str:
    return todo_comment(message, rule)


def plan_file(text: str, options: Options, path: str = "config.yaml") -> FilePass:
    """The edits and findings for ``text`` (raises YAMLError when it does not parse)."""
    work = FilePass(text, options, path, compose(text))
    work.run()
    return work


def transform_yaml(text: str, options: Options, path: str = "config.yaml") -> Outcome:
    """Rewrite one YAML document stream; unchanged and unparsed when it has no legacy token."""
    if not yaml_triggered(text):
        return Outcome(text, changed=False, parsed=False)
    try:
        work = plan_file(text, options, path)
    except YAMLError as exc:
        return Outcome(text, changed=False, error=f"cannot parse YAML: {str(exc).splitlines()[0]}")
    except Exception as exc:  # report, keep the input
        return Outcome(text, changed=False, error=f"internal error on YAML {path}: {type(exc).__name__}: {exc}")
    try:
        out = apply_edits(text, work.edits)
        if not text.endswith("\n") and out.endswith("\n"):
            out = out[: -2 if out.endswith("\r\n") else -1]
        verify(text, out, work.touched)
    except Exception as exc:  # report, keep the input
        return Outcome(text, changed=False, error=f"internal error on YAML {path}: {type(exc).__name__}: {exc}")
    findings = tuple(sorted(work.findings, key=lambda f: (f.line, f.column, f.rule, f.message)))
    return Outcome(out, out != text, findings)
