"""``if pl.__version__[0] == "2": <code for 2.x> else: <code for 1.x>``: tests that split Lightning 1.x from 2.x.

At a target of 2.0 or later such an ``if`` is left as it is, every branch of it: the branch for 2.x is already
written for 2.x (``Trainer(accelerator=args.accelerator, strategy=args.strategy)`` there names a device, not a
strategy), and the branch for 1.x never runs on the target, while it keeps working on the 1.x it was written for.
Below 2.0 nothing is skipped.

The test must split exactly at 2.0, on the ``__version__`` of ``pytorch_lightning``, ``lightning`` or
``lightning.pytorch`` as this module imports them (``import pytorch_lightning as pl``, ``from lightning import
__version__``): ``V[0] == "2"`` (or ``!=``, or ``"1"``), ``V.startswith("2")``, ``int(V[0]) >= 2``,
``int(V.split(".")[0]) < 2``, ``V >= "2.0"``, ``parse(V) >= parse("2.0.0")`` (``Version``, ``version.parse``,
``LooseVersion``), and ``not`` of any of them.

At any target, the branch of a test that runs only on a Lightning older than the target is left as it is too:
``if parse(V) < parse("1.4.0"): trainer_kwargs["checkpoint_callback"] = ...`` serves the releases it names, where
the old API is the right one, and never runs on the target. The test must be ``parse(V) < parse("X")`` (or the
other parsers above; ``>=`` leaves its ``else`` branch) or ``V < "X"`` with a literal X of a major release below
the target's (``"1.4.0"`` at 2.x: strings compare character by character), for an X no later than the target.
The other branch is migrated as usual. Anything else (a flag computed elsewhere) is migrated as usual.
"""

from __future__ import annotations

import ast

_MODULES = frozenset({"pytorch_lightning", "lightning", "lightning.pytorch"})
_PARSERS = frozenset({"parse", "Version", "LooseVersion", "StrictVersion"})
_TWO = frozenset({"2", "2.0", "2.0.0"})


def guarded_lines(tree: ast.Module, target: tuple[int, ...] = (2, 0)) -> set[int]:
    """Every line of each ``if`` whose test splits Lightning 1.x from 2.x (its ``elif``/``else`` included; at a
    target of 2.0 or later), and of each branch that runs only on releases older than ``target``."""
    modules, names = _lightning_names(tree)
    lines: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        if target >= (2, 0) and _splits(node.test, modules, names):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            continue
        old = _older_branch(node, modules, names, target)
        if old:
            lines.update(range(old[0].lineno, (old[-1].end_lineno or old[-1].lineno) + 1))
    return lines


def _release(text: object) -> tuple[int, ...] | None:
    """``"1.4.0"`` -> (1, 4, 0); None for anything but dotted numbers."""
    if not isinstance(text, str) or not all(part.isdigit() for part in text.split(".")):
        return None
    return tuple(int(part) for part in text.split("."))


def _padded(release: tuple[int, ...]) -> tuple[int, ...]:
    return (*release, *(0,) * (3 - len(release)))


def _older_branch(node: ast.If, modules: set[str], names: set[str], target: tuple[int, ...]) -> list[ast.stmt] | None:
    """The branch of ``node`` that runs only on a Lightning below a release no later than ``target``."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Lt | ast.GtE)):
        return None
    left, right = test.left, test.comparators[0]
    bound: tuple[int, ...] | None = None
    if _is_version(left, modules, names) and isinstance(right, ast.Constant):
        bound = _release(right.value)
        if bound is not None and bound[0] >= target[0]:
            bound = None  # "2.10" < "2.6" as strings: only a lower major compares as a release does
    else:
        parsed, against = _parsed(left), _parsed(right)
        if (
            parsed is not None
            and against is not None
            and parsed[0] == against[0]
            and isinstance(against[1], ast.Constant)
        ):
            bound = _release(against[1].value) if _is_version(parsed[1], modules, names) else None
    if bound is None or _padded(bound) > _padded(target):
        return None
    if isinstance(test.ops[0], ast.Lt):
        return node.body
    return None if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If) else node.orelse or None


def _lightning_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Local names of the Lightning modules, and local names of their ``__version__``."""
    modules: set[str] = set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in _MODULES:
                    modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in _MODULES:
            for alias in node.names:
                if alias.name == "__version__":
                    names.add(alias.asname or alias.name)
                elif f"{node.module}.{alias.name}" in _MODULES:  # from lightning import pytorch as pl
                    modules.add(alias.asname or alias.name)
    return modules, names


def _is_version(node: ast.expr, modules: set[str], names: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in names
    if not (isinstance(node, ast.Attribute) and node.attr == "__version__"):
        return False
    dotted: list[str] = []
    value: ast.expr = node.value
    while isinstance(value, ast.Attribute):
        dotted.append(value.attr)
        value = value.value
    return isinstance(value, ast.Name) and value.id in modules and ".".join(reversed(dotted)) in ("", "pytorch")


def _major(node: ast.expr, modules: set[str], names: set[str]) -> str | None:
    """``V[0]`` -> "str"; ``int(V[0])`` / ``int(V.split(".")[0])`` -> "int"; else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == 0:
        if _is_version(node.value, modules, names):
            return "str"
        split = node.value
        if (
            isinstance(split, ast.Call)
            and isinstance(split.func, ast.Attribute)
            and split.func.attr == "split"
            and _is_version(split.func.value, modules, names)
        ):
            return "str"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" and len(node.args) == 1:
        return "int" if _major(node.args[0], modules, names) == "str" else None
    return None


def _parsed(node: ast.expr) -> tuple[str, ast.expr] | None:
    """``parse(x)`` / ``version.parse(x)`` / ``Version(x)``: (the parser's name, x)."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords):
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return (name, node.args[0]) if name in _PARSERS else None


def _splits(test: ast.expr, modules: set[str], names: set[str]) -> bool:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _splits(test.operand, modules, names)
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith":
        literal = test.args[0] if len(test.args) == 1 else None
        return (
            _is_version(test.func.value, modules, names)
            and isinstance(literal, ast.Constant)
            and literal.value in ("1", "2")
        )
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    major = _major(left, modules, names)
    if major is not None and isinstance(right, ast.Constant):
        value = right.value
        two, one = ("2", "1") if major == "str" else (2, 1)
        if type(value) is not type(two):
            return False
        return (isinstance(op, ast.Eq | ast.NotEq) and value in (one, two)) or (
            (isinstance(op, ast.GtE | ast.Lt) and value == two) or (isinstance(op, ast.Gt | ast.LtE) and value == one)
        )
    if not isinstance(op, ast.GtE | ast.Lt):
        return False
    if _is_version(left, modules, names):
        return isinstance(right, ast.Constant) and right.value in _TWO
    parsed, against = _parsed(left), _parsed(right)
    if parsed is None or against is None or parsed[0] != against[0]:
        return False
    bound = against[1]
    return _is_version(parsed[1], modules, names) and isinstance(bound, ast.Constant) and bound.value in _TWO
