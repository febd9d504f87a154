"""``cfg.trainer.gpus = 1`` -> ``cfg.trainer.accelerator = "gpu"`` and ``cfg.trainer.devices = 1`` where the project's
configs migrate that key.

A store into a config's Trainer section (a test setting ``config.trainer.gpus = 1`` before
``Trainer(**config.trainer)``) writes a key the migrated configs no longer hold; left as it is, it holds every
config back. Where ``codemods.project.moved_stores`` decides the key moves (every use of it in the project is
such a store or a command line), each store becomes the keys the same value makes in a config:
``gpus = 2`` -> ``accelerator = "gpu"``, ``devices = 2``; ``gpus = 0`` -> ``accelerator = "cpu"``,
``devices = 1``; ``accelerator = None`` (no backend) -> ``strategy = "auto"``; ``accelerator = "ddp"`` ->
``strategy = "ddp"``. One statement per key, at the store's place. A ``gpus`` value that is no literal but may hold
only a few, each read by its truth (``cuda = 1 if torch.cuda.is_available() else 0``, NeMo's tutorials), is written
from the expression: ``accelerator = "gpu" if cuda else "cpu"``, ``devices = cuda or 1``.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.bindings import facts
from codemods.plan.rule import Rule
from codemods.project.config_chains import config_key
from codemods.project.store_values import CPU, translate
from codemods.rules._config_chains import key_path
from legacy_api.removed_arguments import refused_at

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "config_stores"
#: What a store of a refused key stands for, where its value cannot be read.
_INSTEAD = {
    "gpus": 'accelerator = "gpu" and devices = n where n > 0; 0 or None: accelerator = "cpu", devices = 1',
    "distributed_backend": "strategy = the name",
}


def _literal(value: object) -> cst.BaseExpression:
    return cst.SimpleString(f'"{value}"') if isinstance(value, str) else cst.parse_expression(repr(value))


def _gpus_option(value: object) -> bool:
    """Whether 1.5 read ``gpus=value`` by its truth: 0, None and ``[]`` the CPU, any other count or index list GPUs."""
    if value is None:
        return True
    if isinstance(value, list):
        return all(type(index) is int and index >= 0 for index in value)
    return type(value) is int and value >= -1


def _known_gpus(ctx: FileContext, value: cst.BaseExpression) -> list[tuple[str, cst.BaseExpression]] | None:
    """``gpus = cuda`` with ``cuda = 1 if torch.cuda.is_available() else 0`` bound once (NeMo's tutorials): the value
    may hold only a few literals, each read by its truth, and reads the same twice, so the store becomes
    ``accelerator = "gpu" if cuda else "cpu"`` and ``devices = cuda or 1``."""
    found = facts(ctx, value)
    if found is None or not found.pure or not found.no_str or not found.options:
        return None
    if not all(_gpus_option(option) for option in found.options):
        return None
    if isinstance(value, cst.IfExp):
        branches = _branches(ctx, value)
        if branches is not None:
            return branches
    code = ctx.code(value)
    operand = value if isinstance(value, cst.Name | cst.Attribute) else cst.parse_expression(f"({code})")
    if all(found.options):
        return [("accelerator", cst.SimpleString('"gpu"')), ("devices", value)]
    if not any(found.options):
        return [(key, _literal(cpu)) for key, cpu in CPU]
    accelerator = cst.IfExp(
        test=operand,
        body=cst.SimpleString('"gpu"'),
        orelse=cst.SimpleString('"cpu"'),
    )
    return [("accelerator", accelerator), ("devices", cst.BooleanOperation(operand, cst.Or(), cst.Integer("1")))]


def _branches(ctx: FileContext, value: cst.IfExp) -> list[tuple[str, cst.BaseExpression]] | None:
    """``gpus = 2 if cuda else 0``, literal branches: each new key is chosen by the same test (``accelerator = "gpu"
    if cuda else "cpu"``, ``devices = 2 if cuda else 1``), or is one literal where both branches give it."""
    try:
        yes, no = (ast.literal_eval(ctx.code(branch)) for branch in (value.body, value.orelse))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if not (_gpus_option(yes) and _gpus_option(no)):
        return None
    out = []
    for (key, when_yes), (_, when_no) in zip(_pair(yes), _pair(no), strict=True):
        if when_yes == when_no:
            out.append((key, _literal(when_yes)))
        else:
            out.append((key, value.with_changes(body=_literal(when_yes), orelse=_literal(when_no))))
    return out


def _pair(gpus: object) -> list[tuple[str, object]]:
    return [("accelerator", "gpu"), ("devices", gpus)] if gpus else list(CPU)


def leave_line(ctx: FileContext, original: cst.SimpleStatementLine, updated: Any) -> Any:
    if len(original.body) != 1 or not isinstance(original.body[0], cst.Assign):
        return updated
    assign = original.body[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Attribute):
        return updated
    target = assign.targets[0].target
    chain = key_path(target)
    key = config_key(chain) if chain is not None else None
    name = key.partition(".")[2] if key is not None and key.startswith("trainer.") else ""
    if not name or not isinstance(updated, cst.SimpleStatementLine):
        return updated
    if name not in ctx.options.moved_stores:
        return updated
    literal = translate(name, ctx.code(assign.value))
    items = [(key, _literal(value)) for key, value in literal] if literal is not None else None
    if items is None and name == "gpus":
        items = _known_gpus(ctx, assign.value)
    if items is None:
        if refused_at(name, ctx.target):
            # The key's stores move (every store the project index saw moves) but this one, which the index did not
            # see (a notebook's), holds a value that cannot be read: left as it is, it puts back a key the
            # configs no longer hold and the target's Trainer refuses. The one place a person must change.
            ctx.todo(
                ID,
                f"trainer.{name} = {ctx.code(assign.value)}: Lightning {ctx.options.target}'s Trainer refuses {name}; "
                f"store what it stands for instead ({_INSTEAD.get(name, 'its replacement')})",
                original,
            )
        return updated
    lines = []
    for position, (new_key, value) in enumerate(items):
        store = assign.with_changes(
            targets=[cst.AssignTarget(target.with_changes(attr=cst.Name(new_key)))], value=value
        )
        line = cst.SimpleStatementLine(
            [store],
            leading_lines=updated.leading_lines if position == 0 else (),
            trailing_whitespace=updated.trailing_whitespace if position == len(items) - 1 else cst.TrailingWhitespace(),
        )
        lines.append(line)
    spelled = ", ".join(f"{new_key}={ctx.code(value)}" for new_key, value in items)
    ctx.fix(ID, f"trainer.{name} = {ctx.code(assign.value)} is {spelled} once the configs migrate", original)
    return cst.FlattenSentinel(lines) if len(lines) > 1 else lines[0]


RULE = Rule(
    id=ID,
    description="stores into a config's Trainer section (cfg.trainer.gpus = 1) become the keys the migrated configs "
    "hold (accelerator=, devices=, strategy=)",
    deprecated_in="1.7",
    scope="python",
    handlers={"SimpleStatementLine": leave_line},
    tokens=(".gpus", ".accelerator", ".distributed_backend"),
    visit=lambda: re.compile(r"\btrainer\s*\.\s*(?:gpus|accelerator|distributed_backend)\s*=(?!=)"),
)
