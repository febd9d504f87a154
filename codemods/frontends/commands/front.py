"""Front end for command lines: rewrite the Trainer overrides of shell scripts, Makefiles, docs and Python strings.

Each command (``codemods.project.command_syntax``) is decided by ``codemods.project.command_plans`` with the
run's project index; the edits replace exactly the tokens that change (a dropped token goes with one blank beside it),
so quoting, spacing and the order of everything else stay. A command that stays gets one TODO comment above it
where the file allows comments (shell, Makefile), a finding otherwise (Markdown, reStructuredText, Python).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass, field

from codemods.frontends.yaml.text import Edit, apply_edits
from codemods.kinds import takes_comments
from codemods.model import Finding, FindingKind, Options, Outcome, todo_comment
from codemods.project.command_analysis import analysis
from codemods.project.command_fills import Item
from codemods.project.command_plans import RULE, Decision, decide
from codemods.project.command_syntax import TODO_MARK, Token, commands, logical_lines
from codemods.project.index import ProjectIndex, describe
from legacy_api.removed_arguments import refused_at
from legacy_api.renames import STRATEGY_NAMES


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


@dataclass
class _Pass:
    text: str
    options: Options
    path: str
    shell: bool
    index: ProjectIndex = field(default_factory=ProjectIndex)
    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def find(self, message: str, offset: int, kind: FindingKind = "fix", rule: str = RULE) -> None:
        self.findings.append(Finding(rule, message, _line(self.text, offset), 1, kind))

    def decision(self, found: Sequence[Token]) -> tuple[Decision, bool]:
        """The command's decision, and whether it migrates (a rewrite the project index does not hold back)."""
        items: tuple[Item, ...] = tuple(token.item for token in found)
        facts = frozenset(self.index.facts)
        if found[0].style == "argparse":
            return decide(items, self.options, None, facts, self.shell), True
        run = analysis(self.index, self.options)
        decision = run.decisions.get(items) or decide(
            items, self.options, run.sections, facts, self.shell, run.before, won=run.won
        )
        return decision, items in run.migrating or items not in run.decisions

    def command(self, found: Sequence[Token], line_start: int, argv: tuple[str, str, bool] | None = None) -> None:
        """Rewrite one command, or leave it with a TODO. ``argv``: the command is a whole string argument, with
        the quotes that close and open a string and whether it may become several (an item of a list)."""
        decision, migrates = self.decision(found)
        items = [token.item for token in found]
        if decision.todo is not None and decision.pointer:
            self.find(decision.todo, found[0].start, "report")  # the script's own TODO names the fix
            return
        if decision.todo is not None and self.commented(found[0].start):
            # Commented-out code runs nowhere (the index does not count it: it holds no config back): a TODO
            # there would keep --check failing over dead text. An exact rewrite still applies, for when it is
            # uncommented.
            self.find(f"in a comment, left as it is: {decision.todo}", found[0].start, "report")
            return
        if decision.todo is not None:
            self.todo(decision.todo, line_start, found[0].start)
            return
        if not decision.replace:
            if decision.keeps is not None:
                self.todo(decision.keeps, line_start, found[0].start)
            return
        if not migrates:
            if run_sections(self):
                return  # the config keeps the key too: the project guard reports this use
            keys = sorted(decision.changed_keys(items))
            uses = [use for key in keys for use in self.index.uses_of(key) if use.path != self.path]
            where = describe([use for use in uses if not use.command], self.index.root) or "commands that stay"
            self.find(
                f"{', '.join(keys)} stays as it is: also used in {where}; migrate those uses together",
                found[0].start,
                "todo",
                "project_guard",
            )
            return
        for index, new in sorted(decision.replace.items()):
            if argv is not None and len(new) != 1 and (not new or not argv[2]):
                self.find(
                    f"{_spell(found[index].item)} is one argument and would become {len(new)}; change it by hand",
                    found[index].start,
                    "todo",
                )
                return
        for index, new in sorted(decision.replace.items()):
            self.replace(found[index], new, argv)
        before = " ".join(_spell(found[index].item) for index in sorted(decision.replace))
        after = " ".join(_spell(item) for index in sorted(decision.replace) for item in decision.replace[index])
        self.find(f"{before} -> {after or '(dropped)'}", found[0].start)
        if decision.keeps is not None:
            self.todo(decision.keeps, line_start, found[0].start)  # what stays as written needs a person
        for note in decision.notes:
            if note.kind == "report":
                self.find(note.message, found[0].start, "report", note.rule)

    def commented(self, offset: int) -> bool:
        """Whether the command at ``offset`` is commented out: outside Python, its line begins with ``#`` (a shell
        script, a Makefile) or ``//`` (a Jenkinsfile), as the project index reads it
        (``codemods.project.scan_text``)."""
        if not self.shell:
            return False
        first = self.text[self.text.rfind("\n", 0, offset) + 1 : offset]
        return first.lstrip(' \t"').startswith(("#", "//"))

    def replace(self, token: Token, new: list[Item], argv: tuple[str, str, bool] | None) -> None:
        if new:
            joiner = " " if argv is None else f"{argv[0]}, {argv[1]}"
            text = joiner.join(_spell(item, token.separator) for item in new)
            self.edits.append(Edit(token.start, token.end, text))
            return
        start, end = token.start, token.end
        if end < len(self.text) and self.text[end] in " \t":
            end += 1
        elif start > 0 and self.text[start - 1] in " \t":
            start -= 1
        self.edits.append(Edit(start, end, ""))

    def todo(self, message: str, line_start: int, offset: int) -> None:
        comment = todo_comment(message, RULE)
        if takes_comments(self.path) and self.shell:
            rest = self.text[line_start : self.text.find("\n", line_start) if "\n" in self.text[line_start:] else None]
            indent = rest[: len(rest) - len(rest.lstrip(" \t"))]
            previous = self.text[: max(line_start - 1, 0)].rpartition("\n")[2]
            newline = "\r\n" if "\r\n" in self.text else "\n"
            if previous.strip() != comment:
                self.edits.append(Edit(line_start, line_start, f"{indent}{comment}{newline}"))
        self.find(message, offset, "todo")


def run_sections(work: _Pass) -> bool:
    """Whether the project has Trainer config sections (whose guard then reports each use that holds them)."""
    return bool(analysis(work.index, work.options).sections)


def _spell(item: Item, separator: str = " ") -> str:
    style, prefix, key, value = item
    if style == "hydra":
        return f"{prefix}trainer.{key}={value}"
    name = f"--trainer.{key}" if style == "cli" else f"--{key}"
    return f"{name}{separator if separator.strip() in ('', '=') else ' '}{value}"


def _project(options: Options) -> ProjectIndex:
    return options.project if isinstance(options.project, ProjectIndex) else ProjectIndex()


def _finish(work: _Pass, text: str) -> Outcome:
    out = apply_edits(text, work.edits) if work.edits else text
    findings = tuple(sorted(work.findings, key=lambda f: (f.line, f.column, f.rule, f.message)))
    return Outcome(out, out != text, findings)


def transform_commands(text: str, options: Options, path: str) -> Outcome:
    """Rewrite the Trainer overrides of every command in a shell script, a Makefile or a doc."""
    work = _Pass(text, options, path, True, _project(options))
    argparse = "argparse_trainer" in work.index.facts
    for start, _end, found in commands(text, argparse):
        config = [token for token in found if token.style != "argparse"]
        flags = [token for token in found if token.style == "argparse"]
        for group in (config, flags):
            if group:
                work.command(group, start)
    _keyed_overrides(work)
    return _finish(work, text)


#: ``decoder_trainer.gpus=2``, ``+trainer_params.gpus=2``: a Hydra override of a key under some section.
_KEYED = re.compile(r"(?<![\w.$/{~+-])(?:\+\+|\+|~)?([A-Za-z_]\w*)\.(\w+)=([^\s'\"`;|&<>()]*)")


def _keyed_overrides(work: _Pass) -> None:
    """Overrides of a section the project splats into a Trainer under another key (``decoder_trainer.gpus=2``,
    NeMo's Jenkinsfile): the command plans read ``trainer.`` overrides only, so one that sets a flag the target's
    Trainer refuses (or a strategy name as ``accelerator``) gets one TODO for its command, never silence (the
    config it overrides may migrate in this run, and Hydra then refuses the old key too)."""
    keyed = {path[0] for path in work.index.section_paths() if len(path) == 1}
    if not keyed or not any(f"{name}." in work.text for name in keyed):
        return
    target = work.options.target_tuple
    for start, end in logical_lines(work.text):
        legacy = [
            match
            for match in _KEYED.finditer(work.text, start, end)
            if match.group(1) in keyed
            and not work.commented(match.start())
            and (
                refused_at(match.group(2), target)
                or (match.group(2) == "accelerator" and match.group(3).strip("'\"").lower() in STRATEGY_NAMES)
            )
        ]
        if legacy and TODO_MARK not in work.text[start:end]:
            spelled = ", ".join(match.group(0).lstrip("+~") for match in legacy)
            sections = sorted({match.group(1) for match in legacy})
            work.todo(
                f"{spelled}: the project passes {' and '.join(sections)} to a Trainer, whose keys migrate in the "
                f"configs and which Lightning {work.options.target} refuses as written: rewrite "
                f"{'this override' if len(legacy) == 1 else 'these overrides'} with the keys the config now holds",
                start,
                legacy[0].start(),
            )


def python_strings(outcome: Outcome, options: Options, path: str) -> Outcome:
    """Rewrite the overrides in the string literals of Python source (after the Python front end ran): one
    string is one command; a string that is one argument of a list (``["train.py", "trainer.gpus=2"]``) that
    must become two becomes two elements."""
    text = outcome.source
    work = _Pass(text, options, path, False, _project(options))
    starts = [0]
    for line in io.StringIO(text):
        starts.append(starts[-1] + len(line))
    try:
        tokens = [tok for tok in tokenize.generate_tokens(io.StringIO(text).readline)]
    except (tokenize.TokenError, SyntaxError):
        return outcome
    significant = [tok for tok in tokens if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)]
    for position, tok in enumerate(significant):
        if tok.type != tokenize.STRING or "trainer" not in tok.string:
            continue
        literal = tok.string
        prefix = literal[: len(literal) - len(literal.lstrip("rbuRBUfF"))]
        if "f" in prefix.lower() or "b" in prefix.lower():
            continue
        body = literal[len(prefix) :]
        quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
        inner = body[len(quote) : -len(quote)]
        if "r" not in prefix.lower() and _escaped(inner):
            continue  # an escape: the source text is not the value
        offset = starts[tok.start[0] - 1] + tok.start[1] + len(prefix) + len(quote)
        before = significant[position - 1].string if position else ""
        after = significant[position + 1].string if position + 1 < len(significant) else ""
        in_list = before in ("[", "(", ",") and after in (",", "]", ")")
        for _start, _end, found in commands(inner):
            shifted = [_shift(token, offset) for token in found]
            whole = len(found) == 1 and found[0].start == 0 and found[0].end == len(inner)
            argv = (quote, f"{prefix}{quote}", in_list and len(quote) == 1) if whole else None
            work.command(shifted, offset, argv)
    if not work.edits and not work.findings:
        return outcome
    out = _finish(work, text)
    findings = tuple(sorted({*outcome.findings, *out.findings}, key=lambda f: (f.line, f.column, f.rule, f.message)))
    return Outcome(out.source, outcome.changed or out.changed, findings, outcome.error, outcome.parsed)


def _escaped(inner: str) -> bool:
    """Whether a literal's spelling holds an escape other than a line continuation. A backslash at the end of a
    line is how a docstring shows a shell command's continuation (NeMo's ``trainer.gpus=2 \\``): Python drops it with
    its newline, so every other character of the spelling is one of the value and a token between such
    continuations is rewritten in place; any other escape makes the spelling differ from the value."""
    return "\\" in _CONTINUATION.sub("", inner)


_CONTINUATION = re.compile(r"\\\r?\n")


def _shift(token: Token, offset: int) -> Token:
    return Token(
        token.style,
        token.prefix,
        token.key,
        token.separator,
        token.value,
        token.start + offset,
        token.value_start + offset,
        token.end + offset,
    )
