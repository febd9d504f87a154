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
from legacy_api.renames import STRATEGY_NAMES
from legacy_api.translate import REMOVED_STRATEGIES

if TYPE_CHECKING:
    import libcst as cst

    from codemods.frontends.python.context import FileContext

ID = "legacy_keys"
#: Flag -> what it became.
BECAME = {
    "gpus": 'accelerator="gpu", devices=N (gone in 2.0)',
    "tpu_cores": 'accelerator="tpu", devices=N (gone in 2.0)',
    "ipus": 'accelerator="ipu", devices=N (gone in 2.0)',
    "num_processes": 'accelerator="cpu", devices=N (gone in 2.0)',
    "distributed_backend": "strategy= (gone in 1.5)",
}
_STRATEGY_NAME = "strategy= (a strategy name in accelerator= is gone in 1.7)"
_TEXT = re.compile(r"\b(?:gpus|tpu_cores|ipus|num_processes|distributed_backend|accelerator)\b")
_IMPORTS = re.compile(r"^\s*(?:import|from)\s+(?:pytorch_lightning|lightning|flash)\b", re.M)
_LIGHTNING = re.compile(_IMPORTS.pattern + r"|\bTrainer\b", re.M)
_STAR = re.compile(r"^\s*from\s+[\w.]+\s+import\s+\*", re.M)
_IN_NAMESPACE = "in an argparse Namespace"
#: Trainer flags of 1.5 whose names say Trainer: a dict holding one next to a legacy flag is a Trainer's flags.
_TRAINER_ONLY = frozenset(
    {
        "max_epochs",
        "min_epochs",
        "max_steps",
        "accumulate_grad_batches",
        "check_val_every_n_epoch",
        "val_check_interval",
        "limit_train_batches",
        "limit_val_batches",
        "num_sanity_val_steps",
        "gradient_clip_val",
        "log_every_n_steps",
        "fast_dev_run",
        "num_nodes",
        "auto_select_gpus",
        "resume_from_checkpoint",
    }
)


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
    became = BECAME.get(flag, _STRATEGY_NAME)
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
    return any(_key(key) in _TRAINER_ONLY for key in node.keys)


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
    if not lightning and "Namespace" not in source and not any(flag in source for flag in _TRAINER_ONLY):
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
    """``trainer_config["accelerator"] = "ddp"``: a strategy name stored as a Trainer's accelerator gets a TODO."""
    import libcst as cst

    if len(original.targets) != 1 or not isinstance(original.value, cst.SimpleString):
        return updated
    value = original.value.evaluated_value
    if not isinstance(value, str) or value.lower() not in STRATEGY_NAMES or not updated.deep_equals(original):
        return updated
    target = original.targets[0].target
    owner: str | None = None
    if isinstance(target, cst.Subscript) and len(target.slice) == 1:
        key = target.slice[0].slice
        named = isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString)
        if named and key.value.evaluated_value == "accelerator":  # type: ignore[attr-defined]
            owner = _container(target.value)
    elif isinstance(target, cst.Attribute) and target.attr.value == "accelerator":
        owner = _container(target.value)
    if owner is None or not _TRAINERISH.search(owner) or owner in ctx.trainer_dicts:
        return updated
    moved = "accelerator" in ctx.options.moved_stores and translate("accelerator", repr(value)) is not None
    if moved and isinstance(target, cst.Attribute) and owner == "trainer":
        return updated  # rule config_stores writes it as strategy= with the configs it moves with
    name = value.lower()
    gone = REMOVED_STRATEGIES.get(name) if ctx.target >= (2, 0) else None
    instead = f"; {gone}" if gone else ""
    ctx.todo(
        ID,
        f"accelerator={value!r} stored in {owner} names a strategy: where it reaches the Trainer, pass it as "
        f"strategy={name!r} (accelerator= takes cpu/gpu/tpu/ipu/auto since 1.7){instead}",
        original,
    )
    return updated


def _flags_dict(keys: Sequence[str | None], strategy_values: Sequence[bool]) -> list[str]:
    """The legacy flags of a dict whose other keys show it holds a Trainer's flags (``"max_epochs"`` next to
    ``"gpus"``); empty for any other dict. ``strategy_values``: whether each key's value is a strategy name."""
    if not any(key in _TRAINER_ONLY for key in keys):
        return []
    return [
        key
        for key, strategy in zip(keys, strategy_values, strict=True)
        if key is not None and (key in BECAME or (key == "accelerator" and strategy))
    ]


def _ast_flags(node: ast.Dict) -> list[str]:
    return _flags_dict([_key(key) for key in node.keys], [_strategy(value) for value in node.values])


#: Calls whose dict arguments the flag rules read themselves (``Trainer(**{...})``, ``trainer_defaults={...}``,
#: ``OmegaConf.create({"trainer": {...}})``).
_READ_BY_FLAG_RULES = re.compile(r"(?:Trainer|CLI|from_argparse_args|OmegaConf\s*\.\s*\w+|DictConfig)\s*\(")


def leave_dict(ctx: FileContext, original: cst.Dict, updated: cst.Dict) -> Any:
    """A dict of a Lightning file holding a Trainer's flags (a key only a Trainer takes next to a legacy one), such
    as darts' ``self.trainer_params = {"gpus": gpus, "max_epochs": n}`` handed to another method: noted for
    :func:`leave_line`, which gives it a TODO where no rule followed it to a Trainer."""
    import libcst as cst

    if not ctx.analysis.imported or not ctx.statements:
        return updated
    keys: list[str | None] = []
    strategies: list[bool] = []
    for element in original.elements:
        key = element.key if isinstance(element, cst.DictElement) else None
        value = key.evaluated_value if isinstance(key, cst.SimpleString) else None
        keys.append(value if isinstance(value, str) else None)
        text = element.value.evaluated_value if isinstance(element.value, cst.SimpleString) else None
        strategies.append(isinstance(text, str) and text.lower() in STRATEGY_NAMES)
    flags = _flags_dict(keys, strategies)
    if flags:
        ctx.screened.setdefault((ID, id(ctx.statements[-1])), []).append((flags, original))
    return updated


def leave_line(ctx: FileContext, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> Any:
    """The TODOs of :func:`leave_dict`'s dicts on a line no rule changed or flagged: a dict the flag rules follow
    to a Trainer (a ``**kwargs`` splat, ``trainer_defaults=``, a config they rewrite) is theirs."""
    import libcst as cst

    found = ctx.screened.pop((ID, id(original)), None)
    if not found or not updated.deep_equals(original) or ctx.todos.get(id(original)):
        return updated
    for small in original.body:
        targets = small.targets if isinstance(small, cst.Assign) else ()
        if any(isinstance(t.target, cst.Name) and t.target.value in ctx.trainer_dicts for t in targets):
            return updated  # the flag rules migrate it where it is splatted (codemods.frontends.python.flags)
    if _READ_BY_FLAG_RULES.search(ctx.code(original)):
        return updated
    for flags, node in found:
        said = "; ".join(f"{flag} is {BECAME.get(flag, _STRATEGY_NAME)}" for flag in flags)
        them = "it" if len(flags) == 1 else "them"
        ctx.todo(
            ID,
            f"{', '.join(flags)} in a dict of Trainer flags: Lightning {ctx.surface.release}'s Trainer refuses "
            f"{them}; where this dict reaches a Trainer, {said}",
            node,
        )
    return updated


def _visit() -> re.Pattern[str]:
    """A dict key that is a legacy flag (:func:`leave_dict`)."""
    return re.compile(r"""["'](?:gpus|tpu_cores|ipus|num_processes|distributed_backend|accelerator)["'][ \t]*:""")


RULE = Rule(
    id=ID,
    description="a 1.5 Trainer flag left in a dict or config the rules could not follow to a Trainer is reported "
    "(a dict of Trainer flags in a Lightning file, and a strategy name stored as a Trainer config's accelerator, get "
    "a TODO)",
    deprecated_in="1.7",
    handlers={"Assign": leave_assign, "Dict": leave_dict, "SimpleStatementLine": leave_line},
    tokens=("gpus", "tpu_cores", "ipus", "num_processes", "distributed_backend", "accelerator"),
    visit=_visit,
)
