"""1.5's device-count idiom: ``n = max(1, trainer.num_gpus, trainer.num_processes)``, then ``if trainer.tpu_cores:
n = max(n, trainer.tpu_cores)``.

Lightning's own examples of the 1.x days counted the Trainer's devices this way (to size the learning-rate
schedule), and projects copied it verbatim. Each of the three properties alone has no exact 2.x spelling, so rule
``trainer_properties`` would leave a TODO per property, one of them saying that no expression reads the 1.5 value:
no help to anyone. Together they meant one thing, the number of devices the Trainer trains on, which 2.x reads as
``trainer.num_devices``. That is still not the same value everywhere (tests/parity/test_device_count_idiom.py
lists, against the real releases, each recorded case where the two differ and why), so the idiom gets one TODO that
names it, never a rewrite.

The analysis reads the ``ast`` only: the lines a found idiom spans, so that the rule writes its one TODO above the
first and nothing on the others.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

#: The properties the idiom reads.
PROPERTIES = frozenset({"num_gpus", "num_processes", "tpu_cores"})


@dataclass(frozen=True)
class DeviceCount:
    """One occurrence: ``head`` is the line of the ``max`` assignment, ``lines`` every line the idiom spans."""

    head: int
    lines: frozenset[int]
    code: str  # the assignment, unparsed
    target: str
    trainer: str
    guarded: bool  # followed by the ``if trainer.tpu_cores:`` block


def device_counts(tree: ast.Module) -> dict[int, DeviceCount]:
    """Each line of every device-count idiom in ``tree`` -> the idiom."""
    found: dict[int, DeviceCount] = {}
    for body in _bodies(tree):
        for index, statement in enumerate(body):
            idiom = _idiom(statement, body[index + 1] if index + 1 < len(body) else None)
            if idiom is not None:
                found.update(dict.fromkeys(idiom.lines, idiom))
    return found


def _bodies(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    """Every list of statements in ``tree`` (a block, an ``else``, an ``except``'s, a ``case``'s), found through the
    statements alone: expressions hold none, and walking them was most of the cost."""
    stack = [tree.body] if tree.body else []
    while stack:
        body = stack.pop()
        yield body
        for node in body:
            blocks = [getattr(node, name, None) for name in ("body", "orelse", "finalbody")]
            blocks += [part.body for part in (*getattr(node, "handlers", ()), *getattr(node, "cases", ()))]
            stack.extend(block for block in blocks if isinstance(block, list) and block)


def _span(node: ast.stmt) -> set[int]:
    return set(range(node.lineno, (node.end_lineno or node.lineno) + 1))


def _read(node: ast.expr) -> tuple[str, str] | None:
    """``<trainer>.<property>`` (or ``<trainer>.tpu_cores or 0``): (trainer's code, property)."""
    if (
        isinstance(node, ast.BoolOp)
        and isinstance(node.op, ast.Or)
        and len(node.values) == 2
        and isinstance(node.values[1], ast.Constant)
        and node.values[1].value in (0, 1)
    ):
        node = node.values[0]
    if isinstance(node, ast.Attribute) and node.attr in PROPERTIES:
        return ast.unparse(node.value), node.attr
    return None


def _maximum(node: ast.expr) -> tuple[str, set[str], list[ast.expr]] | None:
    """``max(...)`` of small constants and properties of one Trainer: (trainer, properties, the other args)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "max"):
        return None
    if node.keywords or len(node.args) < 2:
        return None
    trainers: set[str] = set()
    properties: set[str] = set()
    others: list[ast.expr] = []
    for arg in node.args:
        read = _read(arg)
        if read is not None:
            trainers.add(read[0])
            properties.add(read[1])
        elif isinstance(arg, ast.Constant) and arg.value in (0, 1):
            continue
        else:
            others.append(arg)
    if len(trainers) != 1:
        return None
    return trainers.pop(), properties, others


def _assigned(statement: ast.stmt) -> tuple[str, ast.expr] | None:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id, statement.value
    return None


def _idiom(statement: ast.stmt, after: ast.stmt | None) -> DeviceCount | None:
    assigned = _assigned(statement)
    if assigned is None:
        return None
    target, value = assigned
    maximum = _maximum(value)
    if maximum is None or maximum[2]:
        return None
    trainer, properties, _ = maximum
    guard = _tpu_guard(after, target, trainer)
    if guard is not None:
        properties.add("tpu_cores")
    if not {"num_gpus", "num_processes"} <= properties:
        return None
    lines = _span(statement) | (_span(guard) if guard is not None else set())
    return DeviceCount(statement.lineno, frozenset(lines), ast.unparse(statement), target, trainer, guard is not None)


def _tpu_guard(statement: ast.stmt | None, target: str, trainer: str) -> ast.If | None:
    """``if <trainer>.tpu_cores: <target> = max(<target>, <trainer>.tpu_cores)`` with no ``else``."""
    if not isinstance(statement, ast.If) or statement.orelse or len(statement.body) != 1:
        return None
    if _read(statement.test) != (trainer, "tpu_cores"):
        return None
    assigned = _assigned(statement.body[0])
    if assigned is None or assigned[0] != target:
        return None
    maximum = _maximum(assigned[1])
    if maximum is None or maximum[0] != trainer or maximum[1] != {"tpu_cores"}:
        return None
    rest = maximum[2]
    if len(rest) != 1 or not (isinstance(rest[0], ast.Name) and rest[0].id == target):
        return None
    return statement
