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

#: ``class Name(bases)`` or ``class Name:`` (a mixin's hooks count, ``project_hook_words``), not preceded by a word
#: character or a dot ("subclass X(" in prose): literal-led, so the
#: regex engine looks for "class" with memchr and checks the rest only there (one pass over torch's 2,290 files in
#: ~35 ms; a leading look-behind would make it test every position, 20x slower).
_CLASS = re.compile(rb"class(?<![\w.]class)[ \t]+(\w+)[ \t]*(?:\(([^)]*)\)|:)")
_LAST = re.compile(r"(\w+)\s*(?:\[[^\]]*\])?\s*$")
_DEF = re.compile(r"\bdef[ \t]+(\w+)[ \t]*\(")
_BASE_WORDS = tuple(name.encode() for name in sorted(LIGHTNING_BASES))

#: The names in a class's text that say which step and epoch hooks it takes part in (``validation_step``,
#: ``on_validation_batch_end``, ``validation_epoch_end``, ``validation_step_outputs``, ``training_step_end``).
_HOOK_WORDS = re.compile(rb"\b\w+_(?:epoch_end|step_end|batch_end|step_outputs|step)\b")
#: A comment, whose words are no code (a TODO this tool wrote names hooks: a second run must decide as the first).
_COMMENT = re.compile(rb"#[^\n]*")

#: A class as phase one sees it: (name, the last names of its bases, the Lightning base it names directly or "").
ClassBases = tuple[str, tuple[str, ...], str]
#: What phase one keeps of a file, undecoded until the project needs it: whether it mentions Lightning, and each
#: ``class`` line's name and bases, with the hook words (:data:`_HOOK_WORDS`) of the text from that line to the next
#: class line (more than the class's body where module code follows it: more words only ever block a rewrite).
RawClasses = tuple[bool, tuple[tuple[bytes, bytes, frozenset[bytes]], ...]]
NO_CLASSES: RawClasses = (False, ())


def scan_hook_bases(data: bytes) -> RawClasses:
    """Every ``class Name(...)`` of a Python file, raw; :func:`classes` reads them."""
    if not _CLASS.search(data):
        return NO_CLASSES
    # a class line commented out (``# class SequenceDataset(LightningDataModule):`` above the plain class that
    # replaced it) defines nothing
    matches = [
        match
        for match in _CLASS.finditer(data)
        if b"#" not in data[data.rfind(b"\n", 0, match.start()) + 1 : match.start()]
    ]
    if not matches:
        return NO_CLASSES
    ends = [match.start() for match in matches[1:]] + [len(data)]
    found = [
        (match.group(1), match.group(2) or b"", _words(data[match.end() : end]))
        for match, end in zip(matches, ends, strict=True)
    ]
    # Whether it mentions Lightning matters only where a base is named like one of Lightning's: test the file then.
    named = any(word in text for _, text, _ in found for word in _BASE_WORDS)
    return (named and b"lightning" in data, tuple(found))


def _words(body: bytes) -> frozenset[bytes]:
    return frozenset(_HOOK_WORDS.findall(_COMMENT.sub(b"", body)))


def classes(raw: RawClasses) -> tuple[ClassBases, ...]:
    """The classes of one file with the last name of each base (``pl.LightningModule`` -> ``LightningModule``); a
    base named like Lightning's counts as Lightning's only in a file that mentions it."""
    lightning, found = raw
    out: list[ClassBases] = []
    for name, text, _words in found:
        bases = []
        for part in text.decode("utf-8", errors="replace").split(","):
            if "=" in part:
                continue  # metaclass=..., a keyword
            last = _LAST.search(part)
            if last:
                bases.append(last.group(1))
        direct = next((base for base in bases if base in LIGHTNING_BASES), "") if lightning else ""
        out.append((name.decode("ascii", errors="replace"), tuple(bases), direct))
    return tuple(out)


def _relevant(raws: list[RawClasses]) -> list[ClassBases]:
    """The classes of the files that can matter, decoded: those naming a hook class among a class's bases, then, round
    after round, those naming a class found so far (torch's 2,290 files decode two)."""
    pending = [raw for raw in raws if raw[1]]
    words: tuple[bytes, ...] = _BASE_WORDS
    decoded: list[ClassBases] = []
    while words and pending:
        taken = [raw for raw in pending if any(word in text for _, text, _ in raw[1] for word in words)]
        if not taken:
            break
        pending = [raw for raw in pending if raw not in taken]
        found = [entry for raw in taken for entry in classes(raw)]
        decoded += found
        words = tuple(entry[0].encode() for entry in found)
    return decoded


def project_hook_classes(scanned: Iterable[RawClasses]) -> frozenset[tuple[str, str]]:
    """(class name, Lightning base) for each project class deriving from a hook class, directly or through other
    project classes. A name defined several times counts when one definition derives from a hook class (NeMo's
    ``ModelPT`` has a stand-in under ``except ImportError``): classes found this way only ever get TODOs, and only
    on methods named like Lightning's hooks. Two definitions deriving from different hook classes count for none."""
    by_name: dict[str, list[ClassBases]] = {}
    for entry in _relevant(list(scanned)):
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


def subclasses_one(raw: RawClasses, hook_classes: frozenset[tuple[str, str]]) -> bool:
    """Whether one of the classes of a file (``raw``) derives from one of the project's hook classes."""
    if not hook_classes or not raw[1]:
        return False
    names = {name for name, _ in hook_classes}
    if not any(name.encode() in text for _, text, _ in raw[1] for name in names):
        return False
    return any(base in names for _, bases, _ in classes(raw) for base in bases)


def project_subclasses(scanned: Iterable[RawClasses], roots: frozenset[str]) -> frozenset[str]:
    """The project classes that derive from one of ``roots`` (project class names: the Trainer-mirroring schemas that
    migrate, ``codemods.project.schema_plans.migrating_schemas``), directly or through other project classes; a
    subclass of a class that takes the new flags takes them too (``DeepSpeechTrainerConf(TrainerConf)``)."""
    if not roots:
        return frozenset()
    entries = [entry for raw in scanned if raw[1] for entry in classes(raw)]
    found: set[str] = set()
    known = set(roots)
    changed = True
    while changed:
        changed = False
        for name, bases, _ in entries:
            if name not in known and any(base in known for base in bases):
                known.add(name)
                found.add(name)
                changed = True
    return frozenset(found)


def defines_hook_subclass(text: str, hook_classes: frozenset[tuple[str, str]]) -> bool:
    """Whether ``text`` defines a subclass of one of the project's hook classes and a method named like a hook
    whose calls changed (``legacy_api.vocabulary``): then the hook rules have work in a file that may never say
    Lightning."""
    if not hook_classes or "class" not in text or not subclasses_one(scan_hook_bases(text.encode()), hook_classes):
        return False
    from legacy_api.vocabulary import hooks

    changed = hooks()
    return any(match.group(1) in changed for match in _DEF.finditer(text))


def project_hook_words(
    scanned: Iterable[RawClasses], hook_classes: frozenset[tuple[str, str]]
) -> frozenset[tuple[str, frozenset[str]]]:
    """(class name, the hook words of that class and of every project class it derives from) for each of the
    project's hook classes: a subclass's epoch-end hook is rewritten like a direct LightningModule's only where its
    project bases take no part in that stage's hooks (``codemods.rules._epoch_end_plan``). A name defined several
    times has the words of every definition; a base the project does not define adds none (Lightning's own, or a
    library's class)."""
    if not hook_classes:
        return frozenset()
    defined: dict[str, tuple[set[str], set[str]]] = {}
    for raw in scanned:
        for (_, _text, raw_words), (name, bases, _) in zip(raw[1], classes(raw), strict=True):
            entry = defined.setdefault(name, (set(), set()))
            entry[0].update(word.decode("ascii", errors="replace") for word in raw_words)
            entry[1].update(bases)
    out = []
    for name, _ in sorted(hook_classes):
        words: set[str] = set()
        seen: set[str] = set()
        pending = [name]
        while pending:
            current = pending.pop()
            if current in seen or current not in defined:
                continue
            seen.add(current)
            words |= defined[current][0]
            pending.extend(defined[current][1])
        out.append((name, frozenset(words)))
    return frozenset(out)
