"""YAML front end: ``trainer:`` sections, Hydra ``_target_``/LightningCLI ``class_path`` strings, interpolations.

Round-trips with ruamel.yaml (comments, key order and quoting are kept); a file is only re-serialised when a
rule changed something, and the result must load again before it is returned.
"""

from __future__ import annotations

import functools
import io
import re
from pathlib import PurePath
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import ScalarString

from codemods.engine import TODO_PREFIX, Finding, Options, Outcome
from codemods.flags import UNKNOWN, Plan, Value
from codemods.names import resolve
from codemods.prefilter import yaml_triggered
from codemods.renames import COMPAT, NEW_ROOT, PL, STRATEGY_CLASSES, version_tuple

_TRAINER_TARGETS = {
    f"{PL}.Trainer": PL,
    f"{PL}.trainer.Trainer": PL,
    f"{PL}.trainer.trainer.Trainer": PL,
    f"{COMPAT}.Runner": COMPAT,
    f"{COMPAT}.AcceleratorConnector": COMPAT,
}
_INTERPOLATION = re.compile(r"\$\{trainer\.(\w+)\}")


def _yaml(text: str) -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-wrap long lines
    mapping, sequence, offset = 2, 2, 0
    indents = re.findall(r"^( +)\S", text, re.MULTILINE)
    if indents:
        mapping = min(len(i) for i in indents)
    dash = re.search(r"^( *)\S[^\n]*:\s*\n( *)- ", text, re.MULTILINE)
    if dash and len(dash.group(2)) > len(dash.group(1)):
        offset = len(dash.group(2)) - len(dash.group(1))
        sequence = offset + 2
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    return yaml


def _lit(value: Any) -> Any:
    if isinstance(value, str):
        return UNKNOWN if "${" in value else str(value)
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, list) and all(isinstance(v, int | str) and not isinstance(v, bool) for v in value):
        return list(value)
    return UNKNOWN


def _read(value: Any) -> Value:
    out = Value(node=value, lit=_lit(value), source=repr(value) if not isinstance(value, str) else value)
    if isinstance(value, list):
        out.items = [_read(item) for item in value]
    elif isinstance(value, dict) and isinstance(value.get("class_path"), str):
        out.is_strategy = value["class_path"].rpartition(".")[2] in STRATEGY_CLASSES
    return out


class _YamlPass:
    def __init__(self, options: Options, text: str) -> None:
        self.options, self.text = options, text
        self.findings: list[Finding] = []
        self.changed = False
        self.moved: dict[str, str | None] = {}

    def line_of(self, node: Any, key: Any = None) -> int:
        try:
            if key is not None and isinstance(node, CommentedMap):
                return int(node.lc.key(key)[0]) + 1
            return int(node.lc.line) + 1
        except (AttributeError, KeyError, TypeError):
            return 1

    def enabled(self, rule: str) -> bool:
        return self.options.enabled(rule)

    def flags(self, mapping: CommentedMap, root: str) -> None:
        from codemods.pyflags import run_plan  # noqa: F401 - same rules, same order
        from codemods.rules import flag_rules

        items = [(str(k), _read(v)) for k, v in mapping.items() if k != "_target_"]
        plan = Plan(items, self.options.target_tuple, root, self.enabled, origin={k: "explicit" for k, _ in items})
        before = [(k, id(v)) for k, v in plan.items]
        snapshot = {id(v): list(v.items) for _, v in plan.items if v.items is not None}
        for rule in flag_rules():
            if plan.stopped:
                break
            if rule.step is not None and plan.applies(rule.id, version_tuple(rule.deprecated_in)):
                rule.step(plan)
        line = self.line_of(mapping)
        todo_lines = []
        for note in plan.notes:
            self.findings.append(Finding(note.rule, note.message, line, 1, "todo" if note.todo else "fix"))
            text = f"{TODO_PREFIX[2:]}{note.message} [{note.rule}]"
            if note.todo and text not in self.text:
                todo_lines.append(text)
        items_changed = any(snapshot.get(id(v)) not in (None, v.items) for _, v in plan.items)
        if before != [(k, id(v)) for k, v in plan.items] or items_changed:
            self._apply(mapping, plan)
        if todo_lines and len(mapping):
            first = next(iter(mapping))
            column = mapping.lc.col if hasattr(mapping, "lc") and mapping.lc.col else 0
            mapping.yaml_set_comment_before_after_key(first, before="\n".join(todo_lines), indent=column)
            self.changed = True
        values = {id(v): k for k, v in plan.items}
        for old, value in items:
            if old not in dict(plan.items) or dict(plan.items)[old] is not value:
                self.moved[old] = values.get(id(value))

    def _render(self, plan: Plan, value: Value) -> Any:
        if value.ctor is not None:
            path, kwargs = value.ctor
            init = {k: self._render(plan, v) for k, v in kwargs.items() if k}
            return (
                {"class_path": f"{NEW_ROOT[plan.root]}.{path}", "init_args": init}
                if init
                else {"class_path": f"{NEW_ROOT[plan.root]}.{path}"}
            )
        if value.items is not None and (
            value.node is None or [id(i.node) for i in value.items] != [id(n) for n in value.node]
        ):
            seq = CommentedSeq([self._render(plan, item) for item in value.items])
            return seq
        if value.node is not None or (value.cond is None and value.lit is UNKNOWN):
            return value.node
        return value.lit

    def _apply(self, mapping: CommentedMap, plan: Plan) -> None:
        self.changed = True
        keep = dict(plan.items)
        owner = {id(value.node): key for key, value in plan.items if value.node is not None}
        for key in [k for k in mapping if k != "_target_"]:
            if key not in keep:
                # a comment follows its value (gpus: 2  # note -> devices: 2  # note), else the key's successor
                successor = owner.get(id(mapping[key])) or plan.successor.get(str(key))
                comment = mapping.ca.items.pop(key, None)
                del mapping[key]
                if comment is not None and successor:
                    mapping.ca.items.setdefault(successor, comment)
        offset = 1 if "_target_" in mapping and next(iter(mapping)) == "_target_" else 0
        for index, (key, value) in enumerate(plan.items):
            rendered = self._render(plan, value)
            if key in mapping:
                if mapping[key] is not rendered:
                    mapping[key] = rendered
            else:
                comment = mapping.ca.items.pop(key, None)
                mapping.insert(index + offset, key, rendered)
                if comment is not None:
                    mapping.ca.items[key] = comment

    def strings(self, node: Any) -> None:
        """``_target_``/``class_path`` renames and ``${trainer.x}`` interpolations, anywhere in the file."""
        pairs = (
            list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        )
        for key, value in pairs:
            if isinstance(value, str):
                new = value
                if key in ("_target_", "class_path"):
                    res = resolve(value, self.options.target_tuple)
                    if res is not None and res.new is not None:
                        new = res.new
                        self.findings.append(Finding(res.rule, f"{value} -> {res.new}", self.line_of(node, key), 1))
                new = _INTERPOLATION.sub(functools.partial(self._interpolate, node=node, key=key), new)
                if new != value:
                    node[key] = type(value)(new) if isinstance(value, ScalarString) else new
                    self.changed = True
            else:
                self.strings(value)

    def _interpolate(self, match: re.Match[str], node: Any, key: Any) -> str:
        old = match.group(1)
        if old not in self.moved:
            return match.group(0)
        new = self.moved[old]
        line = self.line_of(node, key)
        if new is None:
            message = f"${{trainer.{old}}}: {old} was rewritten; update this reference"
            self.findings.append(Finding("yaml_interpolations", message, line, 1, "todo"))
            return match.group(0)
        if not self.enabled("yaml_interpolations"):
            return match.group(0)
        self.findings.append(Finding("yaml_interpolations", f"${{trainer.{old}}} -> ${{trainer.{new}}}", line, 1))
        return f"${{trainer.{new}}}"


def _sections(node: Any, path: PurePath, top: bool) -> list[tuple[CommentedMap, str]]:
    found: list[tuple[CommentedMap, str]] = []
    if isinstance(node, CommentedMap):
        target = node.get("_target_")
        if isinstance(target, str) and target in _TRAINER_TARGETS:
            found.append((node, _TRAINER_TARGETS[target]))
        elif top and path.parent.name == "trainer":
            found.append((node, PL))  # a Hydra config group file: trainer/<name>.yaml
        for key, value in node.items():
            if key == "trainer" and isinstance(value, CommentedMap) and "_target_" not in value:
                found.append((value, PL))
            found.extend(_sections(value, path, False))
    elif isinstance(node, list):
        for item in node:
            found.extend(_sections(item, path, False))
    return found


def transform_yaml(text: str, options: Options, path: str = "config.yaml") -> Outcome:
    """Rewrite one YAML document stream; unchanged and unparsed when it has no legacy token."""
    if not yaml_triggered(text):
        return Outcome(text, changed=False, parsed=False)
    yaml = _yaml(text)
    try:
        docs = list(yaml.load_all(text))
    except YAMLError as exc:
        return Outcome(text, changed=False, error=f"cannot parse YAML: {str(exc).splitlines()[0]}")
    work = _YamlPass(options, text)
    try:
        for doc in docs:
            for mapping, root in _sections(doc, PurePath(path), True):
                work.flags(mapping, root)
            work.strings(doc)
        if not work.changed:
            return Outcome(text, changed=False, findings=tuple(work.findings))
        stream = io.StringIO()
        if len(docs) == 1:
            yaml.dump(docs[0], stream)
        else:
            yaml.dump_all(docs, stream)
        out = stream.getvalue()
        list(_yaml(out).load_all(out))  # must load again
    except Exception as exc:  # report, keep the input
        return Outcome(text, changed=False, error=f"internal error on YAML: {type(exc).__name__}: {exc}")
    findings = tuple(sorted(work.findings, key=lambda f: (f.line, f.column, f.rule, f.message)))
    return Outcome(out, out != text, findings)
