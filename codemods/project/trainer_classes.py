"""Phase one: the project's own Trainer subclasses (``class MyTrainer(pl.Trainer)``), found across its files.

A call of such a class takes Lightning's flags (``MyTrainer(gpus=2)``, ``MyTrainer.from_argparse_args(args)``), so
the flag rules migrate it like ``Trainer(...)``, also where the class is defined in another file. A base counts
when the file's imports name a Lightning or ecosystem Trainer (``legacy_api.ecosystem``) or another Trainer
subclass of the project: a bare or relatively imported name by its name, an absolutely imported one only when
the module is a scanned file (``from transformers import Trainer`` is nobody's Lightning Trainer).

A subclass whose own ``__init__`` takes or reads a flag the migration reads or writes (``def __init__(self,
gpus=1, **kw)``, ``kwargs["gpus"]``) decides itself what that flag does: its calls are held, with a TODO (rule
``trainer_subclasses``), never rewritten. Inside any such class whose first base is Lightning's Trainer, the
``super().__init__(...)`` call is Lightning's ``Trainer.__init__`` and is migrated like ``Trainer(...)``
(``codemods.frontends.python.flags``). Limits: a subclass in a file that never says ``Trainer`` is not seen,
nor a class named exactly ``Trainer`` (too many packages ship one), nor a name the project also gives a class
that is no Trainer. Standard library only.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from legacy_api.ecosystem import BY_NAME as ECOSYSTEM
from legacy_api.lightning15 import LEGACY_FLAGS
from legacy_api.renames import PL

LIGHTNING_TRAINERS = frozenset({f"{PL}.Trainer", f"{PL}.trainer.Trainer", f"{PL}.trainer.trainer.Trainer"})
#: Flags the migration reads or writes: an ``__init__`` that names one of them handles it itself.
MIGRATED_FLAGS = frozenset(
    {
        *LEGACY_FLAGS,
        "accelerator",
        "devices",
        "strategy",
        "plugins",
        "precision",
        "num_nodes",
        "use_distributed_sampler",
    }
)
_CLASS = re.compile(rb"^[ \t]*class\s+\w+", re.MULTILINE)
_WORD = re.compile(rb"\b\w*Trainer\w*")


@dataclass(frozen=True, order=True)
class TrainerClass:
    """A class and its bases, as its file spells them through its imports (``pytorch_lightning.Trainer``,
    ``mypkg.base.Base``, ``.base.Base``, or a bare ``Base``), and the migrated flags its ``__init__`` names."""

    path: str
    line: int
    name: str
    bases: tuple[str, ...]
    own: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProjectTrainers:
    """``passing``: subclasses that hand Lightning's flags on; ``held``: (name, ``path:line``, flags its
    ``__init__`` names itself) of the others."""

    passing: frozenset[str] = frozenset()
    held: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    #: Classes named like a Trainer (``LightningTrainerMock``, mmf's ``BaseTrainer``) whose whole ancestry the scan
    #: saw, none of it a Trainer: their instances are no Lightning Trainer, whatever their name says.
    plain: frozenset[str] = frozenset()


def trainer_words(data: bytes) -> frozenset[str]:
    """Names with ``Trainer`` in them in ``data``: a file that calls a project subclass of another file names it, and
    one that calls a Trainer-mirroring class (``SpeechTrainerConf(gpus=0)``) too."""
    return frozenset(word.decode() for word in _WORD.findall(data)) if b"Trainer" in data else frozenset()


def scan_classes(data: bytes, path: str) -> tuple[TrainerClass, ...]:
    """The classes that ``data`` (the file at ``path``) defines; nothing when it never says
    ``Trainer`` or does not parse (phase two reports that)."""
    if b"Trainer" not in data or not _CLASS.search(data):
        return ()
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    imports = _imports(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = tuple(name for name in (_spelled(base, imports) for base in node.bases) if name)
            found.append(TrainerClass(path, node.lineno, node.name, bases, _own_flags(node)))
    return tuple(found)


def _imports(tree: ast.Module) -> dict[str, str]:
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".", 1)[0]
                names[alias.asname or root] = alias.name if alias.asname else root
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name != "*":
                    names[alias.asname or alias.name] = f"{module}.{alias.name}" if module else alias.name
    return names


def _spelled(node: ast.expr, imports: dict[str, str]) -> str | None:
    while isinstance(node, ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    head = imports.get(node.id, node.id)
    return ".".join([head, *reversed(parts)])


def _own_flags(node: ast.ClassDef) -> tuple[str, ...]:
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return ()
    args = init.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names.update(n.value for n in ast.walk(init) if isinstance(n, ast.Constant) and isinstance(n.value, str))
    return tuple(sorted(names & MIGRATED_FLAGS))


def _relative(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/") if root else os.path.basename(path)


def _module_file(module: str, path: str) -> bool:
    stem = module.replace(".", "/")
    return path.replace("\\", "/").endswith((f"{stem}.py", f"{stem}/__init__.py"))


def _names(base: str, candidate: TrainerClass, user: TrainerClass) -> bool:
    """Whether ``base`` (as ``user``'s file spells it) may be the project class ``candidate``."""
    module, _, last = base.rpartition(".")
    if last != candidate.name:
        return False
    if not module:  # bare: defined in the file, or star-imported
        return True
    if module.startswith("."):
        return True
    return _module_file(module, candidate.path)


def project_trainers(classes: Iterable[TrainerClass], root: str = "") -> ProjectTrainers:
    """The project's Trainer subclasses, direct or not, in a deterministic order (``held`` paths relative to
    ``root``: they are written into TODO comments)."""
    every = sorted(classes)
    trainers: dict[str, tuple[TrainerClass, tuple[str, ...]]] = {}
    changed = True
    while changed:
        changed = False
        for cls in every:
            if (cls.path, cls.line) in {(c.path, c.line) for c, _ in trainers.values()}:
                continue
            inherited: tuple[str, ...] | None = None
            for base in cls.bases:
                if base in LIGHTNING_TRAINERS or base in ECOSYSTEM:
                    inherited = ()
                else:
                    inherited = next((own for c, own in trainers.values() if _names(base, c, cls)), None)
                if inherited is not None:
                    break
            if inherited is not None and cls.name not in trainers:
                trainers[cls.name] = (cls, tuple(sorted({*inherited, *cls.own})))
                changed = True
    others = {cls.name for cls in every if cls.name not in trainers or trainers[cls.name][0] != cls}
    usable = {name: found for name, found in trainers.items() if name not in others and name != "Trainer"}
    passing = frozenset(name for name, (_, own) in usable.items() if not own)
    held = tuple(
        (name, f"{_relative(cls.path, root)}:{cls.line}", own) for name, (cls, own) in sorted(usable.items()) if own
    )
    return ProjectTrainers(passing, held, _plain(every, set(trainers)))


#: Bases that make no Trainer of a class: a class with only these, or project classes that are plain, is plain.
_PLAIN_BASES = frozenset({"object", "abc.ABC", "typing.Generic", "typing.Protocol", "unittest.TestCase"})


def _plain(every: list[TrainerClass], trainers: set[str]) -> frozenset[str]:
    """The names of :attr:`ProjectTrainers.plain`: every class the name is given to has only plain bases."""
    by_name: dict[str, list[TrainerClass]] = {}
    for cls in every:
        by_name.setdefault(cls.name, []).append(cls)
    plain: set[tuple[str, int]] = set()
    changed = True
    while changed:
        changed = False
        for cls in every:
            if (cls.path, cls.line) in plain or cls.name in trainers:
                continue
            if all(
                base in _PLAIN_BASES
                or any(
                    (c.path, c.line) in plain and _names(base, c, cls) for c in by_name.get(base.rpartition(".")[2], ())
                )
                for base in cls.bases
            ):
                plain.add((cls.path, cls.line))
                changed = True
    return frozenset(
        name
        for name, given in by_name.items()
        if "trainer" in name.lower() and all((c.path, c.line) in plain for c in given)
    )


def names_project_trainer(text: str, passing: frozenset[str], held: Iterable[tuple[str, str, tuple[str, ...]]]) -> bool:
    """Whether ``text`` names one of the project's Trainer subclasses (a file the text prefilter did not keep
    may call one)."""
    names = passing | {name for name, _, _ in held}
    return bool(names) and any(re.search(rf"\b{re.escape(name)}\b", text) for name in sorted(names))
