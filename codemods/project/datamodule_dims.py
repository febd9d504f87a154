"""Phase one: the project's data modules whose instances have ``dims`` from the start, across its files.

Rule ``datamodule_size`` turns ``dm.size()`` into ``dm.dims``: 1.5.10's ``LightningDataModule.size()`` returned
``self.dims``, a property over ``self._dims`` (``()`` until something set it), and 1.7 removed both, so on 2.x
``dm.dims`` reads what 1.5's ``size()`` did wherever the class gave ``dims`` a value before any call could come: a
class attribute (bolts' ``CIFAR10DataModule.dims = (3, 32, 32)``: it shadows the property), or ``self.dims = ...`` in
an ``__init__`` that every subclass's own ``__init__`` reaches through ``super().__init__``. Where only ``setup()``
sets it, 1.5 read ``()`` before that and 2.x raises: no rewrite. A class of the chain with a ``size`` or ``dims``
method of its own is no Lightning ``size()`` at all: no rewrite either.

The classes are found by name, as ``codemods.project.hook_classes`` finds the hook classes: a name the project
defines more than once, or a class with more than one project base, counts for nothing. Standard library only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from codemods.project.hook_classes import RawClasses, classes

#: An assignment to ``dims`` (``self.dims = ...``, ``dims = (1, 28, 28)``, ``dims: tuple = ...``) or a method named
#: ``size``/``dims``: a file without one defines no class this module has anything to say about, and is not parsed.
_GATE = re.compile(rb"dims[ \t]*(?::[^=\n]*)?=(?!=)|def[ \t]+(?:size|dims)[ \t]*\(")

#: ``class Name`` (literal-led: the engine finds "class" with memchr; most files with classes pass through here, so
#: a pattern led by ``^[ \t]*`` would be tried at every line), kept where only blanks precede it on its line.
_CLASS = re.compile(rb"class[ \t]+(\w+)")
_INIT = re.compile(rb"def[ \t]+__init__[ \t]*\(")
_BASE_INIT = re.compile(rb"\.__init__[ \t]*\(")

#: What a class's own body says of ``dims``: ``own`` (a ``size``/``dims`` method), ``class`` (a class attribute),
#: ``init`` (its ``__init__`` sets ``self.dims``), ``super`` (its ``__init__`` sets nothing but calls
#: ``super().__init__``), ``blocks`` (an ``__init__`` that reaches no base's).
DimsFate = str
#: The classes of one file with a fate (a class with no ``__init__`` and no ``dims`` has none: its bases decide).
DimsClasses = tuple[tuple[str, DimsFate], ...]


def scan_dims(data: bytes) -> DimsClasses:
    """The fate of every class of a Python file that says something of ``dims``, ``size`` or ``__init__``."""
    if _GATE.search(data) is None:
        return _unparsed(data) if b"__init__" in data else ()
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return ()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            fate = _fate(node)
            if fate:
                found.append((node.name, fate))
    return tuple(found)


def _unparsed(data: bytes) -> DimsClasses:
    """A file that says nothing of ``dims``: a class with an ``__init__`` of its own there may still keep a base's from
    running: one whose text from its ``class`` line to the next calls no ``.__init__(`` is taken to, unparsed."""
    matches = [match for match in _CLASS.finditer(data) if _line_start(data, match.start())]
    if not matches:
        return ()
    ends = [match.start() for match in matches[1:]] + [len(data)]
    return tuple(
        (match.group(1).decode("ascii", errors="replace"), "blocks")
        for match, end in zip(matches, ends, strict=True)
        if _INIT.search(data, match.end(), end) is not None and _BASE_INIT.search(data, match.end(), end) is None
    )


def _line_start(data: bytes, at: int) -> bool:
    """Whether only blanks stand between the start of ``at``'s line and ``at``."""
    return not data[data.rfind(b"\n", 0, at) + 1 : at].strip(b" \t")


def _fate(cls: ast.ClassDef) -> DimsFate:
    methods = {node.name: node for node in cls.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    if "size" in methods or "dims" in methods:
        return "own"
    for node in cls.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]  # ``dims: tuple`` alone gives no value
        else:
            continue
        if any(isinstance(target, ast.Name) and target.id == "dims" for target in targets):
            return "class"
    init = methods.get("__init__")
    if init is None:
        return ""
    if any(_self_dims(node) for node in ast.walk(init)):
        return "init"
    return "super" if any(_base_init(node) for node in ast.walk(init)) else "blocks"


def _self_dims(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and node.attr == "dims"
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _base_init(node: ast.AST) -> bool:
    """``super().__init__(...)`` or ``Base.__init__(self, ...)``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__"


def dims_classes(
    scanned: Iterable[DimsClasses], raws: Iterable[RawClasses], hook_classes: frozenset[tuple[str, str]]
) -> frozenset[str]:
    """The project's data modules (``hook_classes`` on LightningDataModule) whose instances hold ``dims`` from their
    construction on, with no ``size``/``dims`` method of the project's on the way."""
    modules = {name for name, base in hook_classes if base == "LightningDataModule"}
    if not modules:
        return frozenset()
    fates: dict[str, list[DimsFate]] = {}
    for found in scanned:
        for name, fate in found:
            fates.setdefault(name, []).append(fate)
    bases: dict[str, list[tuple[str, ...]]] = {}
    for raw in raws:
        for name, names, _ in classes(raw):
            bases.setdefault(name, []).append(names)
    return frozenset(name for name in sorted(modules) if _holds(name, fates, bases) in ("class", "init"))


def _holds(name: str, fates: dict[str, list[DimsFate]], bases: dict[str, list[tuple[str, ...]]]) -> str:
    """How ``name``'s instances get ``dims``: "class", "init", or "" (not provably, or a ``size`` of the project's)."""
    chain = _chain(name, fates, bases)
    if chain is None or "own" in chain:
        return ""
    reached = True  # whether the __init__ of the class at hand runs when the data module is built
    for fate in chain:
        if fate == "class" or (fate == "init" and reached):
            return fate
        if fate in ("init", "blocks"):
            reached = False  # its own __init__ stops there: a base's never runs
    return ""


def _chain(name: str, fates: dict[str, list[DimsFate]], bases: dict[str, list[tuple[str, ...]]]) -> list[str] | None:
    """The fates of ``name`` and of its project bases up to Lightning's, or None where a class is defined more than
    once or has more than one project base (the method resolution order would need the whole hierarchy)."""
    chain: list[str] = []
    current: str | None = name
    while current is not None:
        definitions = bases.get(current, [])
        if len(definitions) != 1 or len(fates.get(current, [""])) != 1 or len(chain) > len(bases):
            return None
        chain.append(fates.get(current, [""])[0])
        parents = [base for base in definitions[0] if base in bases]
        if len(parents) > 1:
            return None
        current = parents[0] if parents else None
    return chain
