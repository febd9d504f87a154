"""Phase one: the project's own subclasses of LightningModule, LightningDataModule and Callback, across its files.

A model that derives from the project's base class (``class EncDecModel(ModelPT)``, ``ModelPT`` a LightningModule in
another file) overrides Lightning's hooks as much as a direct subclass does; without this, its
``validation_epoch_end`` would pass unseen (the hook rules resolve a base by the imports of its own file). Found by
name: every ``class Name(Base, ...)`` of every Python file (one literal-led regex pass, about as cheap as a substring
test), a class counting when a base is one of Lightning's hook classes in a file that mentions Lightning, or a class
the project counts already. Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Lightning's hook classes by the names code subclasses them under (``legacy_api.hooks.HOOK_BASES``' short names).
LIGHTNING_BASES = frozenset({"LightningModule", "LightningDataModule", "Callback"})

_CLASS = re.compile(rb"class[ \t]+(\w+)[ \t]*\(([^)]*)\)")
_LAST = re.compile(r"(\w+)\s*(?:\[[^\]]*\])?\s*$")
_DEF = re.compile(r"\bdef[ \t]+(\w+)[ \t]*\(")

#: A class as phase one sees it: (name, the last names of its bases, the Lightning base it names directly or "").
ClassBases = tuple[str, tuple[str, ...], str]


def scan_hook_bases(data: bytes) -> tuple[ClassBases, ...]:
    """Every ``class Name(...)`` of a Python file with the last name of each base (``pl.LightningModule`` ->
    ``LightningModule``); a base named like Lightning's counts as Lightning's only in a file that mentions it."""
    if b"class" not in data:
        return ()
    lightning = b"lightning" in data
    found: list[ClassBases] = []
    for match in _CLASS.finditer(data):
        start = match.start()
        if start and data[start - 1 : start] not in (b" ", b"\t", b"\n", b"\r"):
            continue  # "subclass X(" in prose, or a name ending in "class"
        bases = []
        for part in match.group(2).decode("utf-8", errors="replace").split(","):
            if "=" in part:
                continue  # metaclass=..., a keyword
            last = _LAST.search(part)
            if last:
                bases.append(last.group(1))
        direct = next((base for base in bases if base in LIGHTNING_BASES), "") if lightning else ""
        found.append((match.group(1).decode("ascii", errors="replace"), tuple(bases), direct))
    return tuple(found)


def project_hook_classes(classes: Iterable[ClassBases]) -> frozenset[tuple[str, str]]:
    """(class name, Lightning base) for each project class deriving from a hook class, directly or through other
    project classes. A name defined several times counts when one definition derives from a hook class (NeMo's
    ``ModelPT`` has a stand-in under ``except ImportError``): classes found this way only ever get TODOs, and only
    on methods named like Lightning's hooks. Two definitions deriving from different hook classes count for none."""
    by_name: dict[str, list[ClassBases]] = {}
    for entry in classes:
        if entry[0] not in LIGHTNING_BASES:
            by_name.setdefault(entry[0], []).append(entry)
    known: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        for name, entries in by_name.items():
            if name not in known:
                outcomes = {_outcome(entry, known) for entry in entries} - {""}
                if len(outcomes) == 1:
                    known[name] = outcomes.pop()
                    changed = True
    return frozenset(
        (name, base) for name, base in known.items() if {_outcome(e, known) for e in by_name[name]} - {""} == {base}
    )


def _outcome(entry: ClassBases, known: dict[str, str]) -> str:
    name, bases, direct = entry
    if direct:
        return direct
    return next((known[base] for base in bases if base in known and base != name), "")


def subclasses_one(hooks: Iterable[ClassBases], hook_classes: frozenset[tuple[str, str]]) -> bool:
    """Whether one of the classes ``hooks`` (a file's) derives from one of the project's hook classes."""
    names = {name for name, _ in hook_classes}
    return any(base in names for _, bases, _ in hooks for base in bases)


def defines_hook_subclass(text: str, hook_classes: frozenset[tuple[str, str]]) -> bool:
    """Whether ``text`` defines a subclass of one of the project's hook classes and a method named like a hook
    whose calls changed (``legacy_api.vocabulary``): then the hook rules have work in a file that may never say
    Lightning."""
    if not hook_classes or "class" not in text or not subclasses_one(scan_hook_bases(text.encode()), hook_classes):
        return False
    from legacy_api.vocabulary import hooks

    changed = hooks()
    return any(match.group(1) in changed for match in _DEF.finditer(text))
