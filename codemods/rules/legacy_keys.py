"""A 1.5 Trainer flag left in a dict or a config the rules could not follow to a Trainer: reported.

``params = {"gpus": [0]}``, ``config["gpus"] = args.device``, ``cfg.trainer.accelerator = "dp"``,
``dict(gpus=1)``, ``TrainerConf(gpus=1)``: the flag rules rewrite such a mapping only where they see it reach
a Trainer (a ``**params`` splat, LightningCLI's ``trainer_defaults``); elsewhere it may be a Trainer's flags
built far away, or something else that happens to use the name. Rather than stay silent, the run reports each
one left in a file that uses Lightning (kind "report": ``--check`` still passes on it), naming what the flag is
called since 1.7/2.0.

Where nothing imports Lightning the run still reports a dict whose other keys only a Trainer takes (lightly's
worker config ``"trainer": {"gpus": 1, "max_epochs": 100}``) and a dict that becomes an argparse ``Namespace``
(what ``Trainer.from_argparse_args`` read); and a ``gpus:`` at the top of a YAML config that is no Trainer section,
in a project that builds its parser with ``Trainer.add_argparse_args`` (SimCLR's options take their defaults from
such a file; ``codemods.frontends.yaml.pipeline`` reports it under this rule).

A dict of a file that imports Lightning whose keys show it holds a Trainer's flags (one only a Trainer takes, such as
``max_epochs``, next to the legacy one: darts' ``self.trainer_params = {"gpus": gpus, "max_epochs": n}``, handed to
another method) is a TODO, not a report: the target's Trainer refuses the flag wherever the dict reaches it, and
``--check`` must not pass on that. A dict the flag rules follow to a Trainer is theirs.

One store is a TODO, not a report: a strategy name stored as ``accelerator`` in a container named for the
Trainer (``trainer_config["accelerator"] = "ddp"``, ``cfg.trainer.accelerator = "dp"``, latent-diffusion's
``main.py``). That is a Trainer's flags, and 1.6+ refuses a strategy name in ``accelerator=``; it is not rewritten
(the code may read or delete the key under its old name: ``del trainer_config["accelerator"]``).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from codemods.model import Finding, Runs
from codemods.plan.rule import Rule
from codemods.project.prefilter import matching_lines
from codemods.project.store_values import translate
from codemods.rules import _flag_dicts as flag_dicts
from codemods.rules._flag_dicts import BECAME, STRATEGY_NAME, TRAINER_ONLY
from legacy_api.renames import STRATEGY_NAMES
from legacy_api.translate import REMOVED_STRATEGIES

if TYPE_CHECKING:
    import libcst as cst

    from codemods.frontends.python.context import FileContext

ID = "legacy_keys"
_TEXT = re.compile(r"\b(?:gpus|tpu_cores|ipus|num_processes|distributed_backend|accelerator)\b")
_IMPORTS = re.compile(r"^\s*(?:import|from)\s+(?:pytorch_lightning|lightning|flash)\b", re.M)
_LIGHTNING = re.compile(_IMPORTS.pattern + r"|\bTrainer\b", re.M)
_STAR = re.compile(r"^\s*from\s+[\w.]+\s+import\s+\*", re.M)
_IN_NAMESPACE = "in an argparse Namespace"


def _key(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _strategy(node: ast.expr) -> bool:
    value = _key(node)
    return value is not None and value.lower() in STRATEGY_NAMES


def _called(func: ast.expr) -> str:
    """The name a call's callee ends in: ``dict`` for ``dict(...)``, ``Namespace`` for ``argparse.Namespace(...)``."""
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _config_call(func: ast.expr) -> bool:
    """``dict(...)`` or a config class (``TrainerConf(...)``, ``DeepSpeechTrainerConfig(...)``): not the Trainer,
    whose calls the flag rules rewrite themselves."""
    name = _called(func)
    return name == "dict" or name.endswith(("Conf", "Config", "Cfg"))


def _trainer_named(func: ast.expr) -> bool:
    return _called(func) == "Trainer"


def _where(func: ast.expr) -> str:
    if _trainer_named(func):
        # Left by the rules: not provably Lightning's Trainer (a star import after ``import pytorch_lightning as
        # pl`` may rebind ``pl``; another library's Trainer).
        return "in a call of a Trainer this file does not provably import from Lightning"
    return "in dict(...)" if isinstance(func, ast.Name) and func.id == "dict" else "in a config"


def _message(flag: str, where: str) -> str:
    became = BECAME.get(flag, STRATEGY_NAME)
    return f"{flag} {where} is a Lightning 1.5 Trainer flag: if it reaches a Trainer, it is {became}"


def _namespaced(nodes: list[ast.AST]) -> set[int]:
    """The dicts (by ``id``) that become an ``argparse.Namespace`` (``args = {...}; Namespace(**args)``,
    solo-learn's tests): such a namespace is what ``Trainer.add_argparse_args`` parsed and
    ``Trainer.from_argparse_args`` read, whether or not the file imports Lightning."""
    splatted = {
        kw.value.id
        for node in nodes
        if isinstance(node, ast.Call) and _called(node.func) == "Namespace"
        for kw in node.keywords
        if kw.arg is None and isinstance(kw.value, ast.Name)
    }
    return {
        id(node.value)
        for node in nodes
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Dict)
        and any(isinstance(t, ast.Name) and t.id in splatted for t in node.targets)
    }


def _trainer_flags(node: ast.Dict) -> bool:
    """A dict whose other keys are Trainer flags no other library spells so (lightly's worker config
    ``"trainer": {"gpus": 1, "max_epochs": 100}``): a Trainer's flags even in a file that does not import it."""
    return any(_key(key) in TRAINER_ONLY for key in node.keys)


def _uses(
    roots: Iterable[ast.AST],
    blind: bool,
    lightning: bool = True,
    namespaced: frozenset[int] = frozenset(),
    todos: frozenset[int] = frozenset(),
) -> list[tuple[int, int, str, str]]:
    """``todos``: the lines of the dicts :func:`leave_line` gave a TODO (this rule's, already in the findings)."""
    found: list[tuple[int, int, str, str]] = []
    for node in (node for root in roots for node in ast.walk(root)):
        if isinstance(node, ast.Call) and _called(node.func) == "Namespace":
            found += [
                (kw.value.lineno, kw.value.col_offset + 1, str(kw.arg), _IN_NAMESPACE)
                for kw in node.keywords
                if kw.arg in BECAME
            ]
        if isinstance(node, ast.Dict):
            if node.lineno in todos:
                continue  # leave_line's TODO says it
            where = _IN_NAMESPACE if id(node) in namespaced else "in a dict"
            if not lightning and id(node) not in namespaced:
                if not _trainer_flags(node):
                    continue
                where = "in a dict of Trainer flags"
            for key, value in zip(node.keys, node.values, strict=True):
                name = _key(key)
                if (
                    key is not None
                    and name is not None
                    and (name in BECAME or (name == "accelerator" and _strategy(value)))
                ):
                    found.append((key.lineno, key.col_offset + 1, name, where))
        elif not lightning:
            continue
        elif isinstance(node, ast.Call) and (_config_call(node.func) or (blind and _trainer_named(node.func))):
            for kw in node.keywords:
                if kw.arg in BECAME or (kw.arg == "accelerator" and _strategy(kw.value)):
                    found.append((kw.value.lineno, kw.value.col_offset + 1, str(kw.arg), _where(node.func)))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                name = _key(target.slice) if isinstance(target, ast.Subscript) else None
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Attribute):
                    name = target.attr if target.value.attr == "trainer" else None
                if name in BECAME or (name == "accelerator" and _strategy(node.value)):
                    found.append((target.lineno, target.col_offset + 1, str(name), "stored in a config"))
    return found


#: What the lines of a statement show wherever :func:`_uses` can find a flag in it: the flag's name, or what may spell
#: a string without showing its text: an escape, or literals joined (``"gp" "us"``, also over lines): a literal that
#: another follows on its line, or that ends its line (before a comment). Each alternative stays on one line: one that
#: crossed comment lines would rescan them from every quote before them.
_SHOWN = re.compile(
    r"gpus|tpu_cores|ipus|num_processes|distributed_backend|accelerator|\\"
    r"|[\"'][ \t]*(?:[rRbBuUfF]{0,2}[\"']|#[^\n]*(?:\n|$)|\n|$)"
)


def _pieces(nodes: Iterable[ast.AST], shown: Sequence[int], offset: int) -> Iterator[ast.AST]:
    """What of the statements ``nodes`` :func:`_uses` must walk: a simple statement one of whose lines is ``shown``
    (at ``offset``), and every compound statement's own expressions (its header), its nested statements the same way.
    A statement none of whose lines shows a flag's name holds none (the cost was walking every node of the file)."""
    for node in nodes:
        if isinstance(node, ast.stmt) and not isinstance(getattr(node, "body", None), list):
            index = bisect_left(shown, node.lineno + offset)
            if index < len(shown) and shown[index] <= (node.end_lineno or node.lineno) + offset:
                yield node
            continue
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
                yield from _pieces((child,), shown, offset)
            else:
                yield child


def _blind(source: str) -> bool:
    """Whether the rules may not see a Lightning Trainer call as one: a star import can rebind any name, so they
    do not resolve ``pl.Trainer`` after it (the one case where a Trainer call keeps its flags without a word)."""
    return bool(_IMPORTS.search(source)) and bool(_STAR.search(source))


def report(source: str, findings: tuple[Finding, ...], statements: Runs | None = None) -> tuple[Finding, ...]:
    """``findings`` plus a report for each legacy flag left in a mapping of ``source`` (a Lightning file).

    ``statements``: the top-level ``ast`` statements of ``source`` where the caller has them (``Outcome.statements``).
    """
    if not _TEXT.search(source):
        return findings
    lightning = bool(_LIGHTNING.search(source))
    todos = {finding.line for finding in findings if finding.rule == ID and finding.kind == "todo"}
    if not lightning and "Namespace" not in source and not any(flag in source for flag in TRAINER_ONLY):
        return findings
    if statements is None:
        try:
            statements = ((tuple(ast.parse(source).body), 0),)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return findings
    blind = _blind(source)
    namespaced: frozenset[int] = frozenset()
    if "Namespace" in source:  # a second walk of every statement only where a Namespace may be built
        namespaced = frozenset(_namespaced([n for nodes, _ in statements for root in nodes for n in ast.walk(root)]))
    runs: Iterable[tuple[Iterable[ast.AST], int]] = statements
    if source.isascii() and "\r" not in source:  # identifiers as written, lines as ``ast`` counts them
        shown = matching_lines(source, _SHOWN)
        runs = [(tuple(_pieces(nodes, shown, offset)), offset) for nodes, offset in statements]
    uses = [
        (line + offset, column, flag, where)
        for nodes, offset in runs
        for line, column, flag, where in _uses(
            nodes, blind, lightning, namespaced, frozenset(line - offset for line in todos)
        )
    ]
    seen = {finding.line for finding in findings}
    lines = source.splitlines()
    # a statement under one of this tool's TODOs (``leave_assign``'s, written above it) already says it
    seen.update(number for number in range(2, len(lines) + 1) if lines[number - 2].rstrip().endswith(f"[{ID}]"))
    extra = [Finding(ID, _message(flag, where), line, column, "report") for line, column, flag, where in uses]
    extra = [finding for finding in extra if finding.line not in seen]
    if not extra:
        return findings
    return tuple(sorted((*findings, *extra), key=lambda f: (f.line, f.column, f.rule, f.message)))


_TRAINERISH = re.compile(r"(?:^|_)trainer(?:$|_)", re.IGNORECASE)


def _container(node: cst.BaseExpression) -> str | None:
    """``trainer_config`` / ``self.trainer_kwargs`` / ``cfg.trainer``: the last name of a store's container."""
    import libcst as cst  # here: report() runs on clean Lightning files, which must not load libcst

    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


def leave_assign(ctx: FileContext, original: cst.Assign, updated: cst.Assign) -> Any:
    """``trainer_config["accelerator"] = "ddp"``: a strategy name stored as a Trainer's accelerator gets a TODO, and so
    does a removed device flag stored by key into a container named for the Trainer (taming-transformers'
    ``trainer_config["distributed_backend"] = "ddp"``, later the argparse Namespace the Trainer is built from)."""
    import libcst as cst

    if len(original.targets) != 1 or not updated.deep_equals(original):
        return updated
    target = original.targets[0].target
    text = original.value.evaluated_value if isinstance(original.value, cst.SimpleString) else None
    strategy = isinstance(text, str) and text.lower() in STRATEGY_NAMES
    owner: str | None = None
    flag: str | None = None
    if isinstance(target, cst.Subscript) and len(target.slice) == 1:
        key = target.slice[0].slice
        if isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString):
            named = key.value.evaluated_value
            if (named == "accelerator" and strategy) or named in BECAME:
                owner, flag = _container(target.value), str(named)
    elif isinstance(target, cst.Attribute) and target.attr.value == "accelerator" and strategy:
        owner, flag = _container(target.value), "accelerator"
    if owner is None or flag is None or not _TRAINERISH.search(owner) or owner in ctx.trainer_dicts:
        return updated
    if flag != "accelerator":
        if not flag_dicts.refused(flag, ctx.target):
            return updated  # deprecated at this target, not refused: the report says it
        ctx.todo(
            ID,
            f"{flag} stored in {owner}: Lightning {ctx.surface.release}'s Trainer refuses it; where it reaches the "
            f"Trainer, it is {BECAME[flag]}",
            original,
        )
        return updated
    assert isinstance(text, str)
    moved = "accelerator" in ctx.options.moved_stores and translate("accelerator", repr(text)) is not None
    if moved and isinstance(target, cst.Attribute) and owner == "trainer":
        return updated  # rule config_stores writes it as strategy= with the configs it moves with
    name = text.lower()
    gone = REMOVED_STRATEGIES.get(name) if ctx.target >= (2, 0) else None
    instead = f"; {gone}" if gone else ""
    ctx.todo(
        ID,
        f"accelerator={text!r} stored in {owner} names a strategy: where it reaches the Trainer, pass it as "
        f"strategy={name!r} (accelerator= takes cpu/gpu/tpu/ipu/auto since 1.7){instead}",
        original,
    )
    return updated


def _visit() -> re.Pattern[str]:
    """A dict key that is a legacy flag (:func:`leave_dict`), or a store by that key (:func:`leave_assign`)."""
    flags = "gpus|tpu_cores|ipus|num_processes|distributed_backend|accelerator"
    return re.compile(rf"""["'](?:{flags})["'][ \t]*(?::|\][ \t]*=[^=])""")


RULE = Rule(
    id=ID,
    description="a 1.5 Trainer flag left in a dict or config the rules could not follow to a Trainer is reported "
    "(a dict of Trainer flags in a Lightning file, and a strategy name stored as a Trainer config's accelerator, get "
    "a TODO)",
    deprecated_in="1.7",
    handlers={"Assign": leave_assign, "Dict": flag_dicts.leave_dict, "SimpleStatementLine": flag_dicts.leave_line},
    tokens=("gpus", "tpu_cores", "ipus", "num_processes", "distributed_backend", "accelerator"),
    visit=_visit,
)
