"""``benchmarks/corpus/runnable.json``: which entry point of which corpus project ``bench_runnable.py`` runs, and how.

One entry is one runnable command of a project: the script (relative to the project root), its argv (command-line
overrides the project itself supports: Hydra overrides, argparse flags), the folder it runs from, the folders it
needs on ``PYTHONPATH`` (a project that imports its own package from the root), the pip packages it imports beyond
the shared ones, a ``layer`` of pip requirements that must differ from the shared venv's (installed for that entry
alone with ``pip --target``, put before the venv on ``PYTHONPATH``: a project written for numpy 1, pandas 1), the shims
of ``benchmarks/runnable/sitecustomize.py`` it needs, extra environment variables, synthetic input files written
into the copy before the run (``{"input.txt": "text"}``), and ``pre_1_5``: why the entry point did not run on
1.5.10 either (code older than the tool's starting point; it is still run and reported). The project's files are
never edited (the migrated mode's hand edits live in ``runnable/edits``). Unknown keys are errors, so a typo does
not silently drop a setting.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).resolve().parent / "corpus" / "runnable.json"
SITECUSTOMIZE = Path(__file__).resolve().parent / "runnable" / "sitecustomize.py"

_TOP_KEYS = {"lightning", "torch", "packages", "env", "shims", "timeout_s", "entries", "skipped"}
_ENTRY_KEYS = {
    "id", "project", "script", "args", "cwd", "pythonpath", "packages", "layer", "shims", "env", "files", "note",
    "pre_1_5",
}  # fmt: skip


def _text_file(size: int) -> bytes:
    """Deterministic English-looking text (minGPT-style character models read a plain text corpus)."""
    words = [
        "the",
        "quick",
        "brown",
        "fox",
        "jumps",
        "over",
        "a",
        "lazy",
        "dog",
        "while",
        "lightning",
        "trains",
        "one",
        "small",
        "model",
    ]
    rng = random.Random(0)
    out: list[str] = []
    while sum(len(w) + 1 for w in out) < size:
        out.append(rng.choice(words) + ("\n" if rng.random() < 0.1 else ""))
    return " ".join(out).encode()


#: kind of synthetic file -> its bytes.
FILE_KINDS: dict[str, Callable[[], bytes]] = {"text": lambda: _text_file(50_000)}


@dataclass(frozen=True)
class Entry:
    """One entry point of one corpus project, with everything its run needs besides the project."""

    id: str
    project: str
    script: str
    args: tuple[str, ...] = ()
    cwd: str = "."
    pythonpath: tuple[str, ...] = ()
    packages: tuple[str, ...] = ()
    layer: tuple[str, ...] = ()
    shims: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    files: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    pre_1_5: str = ""


@dataclass(frozen=True)
class Manifest:
    lightning: str
    torch: str
    packages: tuple[str, ...]
    env: Mapping[str, str]
    shims: tuple[str, ...]
    timeout_s: int
    entries: tuple[Entry, ...]
    skipped: Mapping[str, str]

    def all_packages(self) -> tuple[str, ...]:
        """The pip requirements of the one venv every entry runs in (sorted, duplicates once)."""
        wanted = set(self.packages)
        for entry in self.entries:
            wanted.update(entry.packages)
        return tuple(sorted(wanted))


class ManifestError(ValueError):
    """The manifest does not follow the schema above."""


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(f"{where}: expected a list of strings, got {value!r}")
    return tuple(value)


def _mapping(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ManifestError(f"{where}: expected an object of strings, got {value!r}")
    return dict(value)


def _entry(raw: Any, known_shims: frozenset[str] | None) -> Entry:
    if not isinstance(raw, dict):
        raise ManifestError(f"entry: expected an object, got {raw!r}")
    where = f"entry {raw.get('id', '?')}"
    unknown = sorted(set(raw) - _ENTRY_KEYS)
    missing = sorted({"id", "project", "script"} - set(raw))
    if unknown or missing:
        raise ManifestError(f"{where}: unknown keys {unknown}, missing keys {missing}")
    files = _mapping(raw.get("files", {}), f"{where}.files")
    bad_kinds = sorted(set(files.values()) - set(FILE_KINDS))
    if bad_kinds:
        raise ManifestError(f"{where}.files: unknown kinds {bad_kinds}; known: {sorted(FILE_KINDS)}")
    shims = _strings(raw.get("shims", []), f"{where}.shims")
    if known_shims is not None and set(shims) - known_shims:
        raise ManifestError(f"{where}.shims: unknown {sorted(set(shims) - known_shims)}; known: {sorted(known_shims)}")
    return Entry(
        id=str(raw["id"]),
        project=str(raw["project"]),
        script=str(raw["script"]),
        args=_strings(raw.get("args", []), f"{where}.args"),
        cwd=str(raw.get("cwd", ".")),
        pythonpath=_strings(raw.get("pythonpath", []), f"{where}.pythonpath"),
        packages=_strings(raw.get("packages", []), f"{where}.packages"),
        layer=_strings(raw.get("layer", []), f"{where}.layer"),
        shims=shims,
        env=_mapping(raw.get("env", {}), f"{where}.env"),
        files=files,
        note=str(raw.get("note", "")),
        pre_1_5=str(raw.get("pre_1_5", "")),
    )


def parse(raw: Any, known_shims: frozenset[str] | None = None) -> Manifest:
    """The manifest from its JSON value; ``known_shims`` (when given) are the shim ids an entry may name."""
    if not isinstance(raw, dict):
        raise ManifestError("manifest: expected an object")
    unknown, missing = sorted(set(raw) - _TOP_KEYS), sorted(_TOP_KEYS - {"skipped"} - set(raw))
    if unknown or missing:
        raise ManifestError(f"manifest: unknown keys {unknown}, missing keys {missing}")
    entries = tuple(_entry(item, known_shims) for item in raw["entries"])
    ids = [entry.id for entry in entries]
    if len(set(ids)) != len(ids):
        raise ManifestError(f"manifest: duplicate entry ids {sorted({i for i in ids if ids.count(i) > 1})}")
    shims = _strings(raw["shims"], "shims")
    if known_shims is not None and set(shims) - known_shims:
        raise ManifestError(f"shims: unknown {sorted(set(shims) - known_shims)}")
    return Manifest(
        lightning=str(raw["lightning"]),
        torch=str(raw["torch"]),
        packages=_strings(raw["packages"], "packages"),
        env=_mapping(raw["env"], "env"),
        shims=shims,
        timeout_s=int(raw["timeout_s"]),
        entries=entries,
        skipped=_mapping(raw.get("skipped", {}), "skipped"),
    )


def known_shims() -> frozenset[str]:
    """The shim ids ``runnable/sitecustomize.py`` has, read from the file itself (under another module name: this
    interpreter may have a ``sitecustomize`` of its own, and with no ``RUNNABLE_SHIMS`` set it installs nothing)."""
    spec = importlib.util.spec_from_file_location("_runnable_sitecustomize", SITECUSTOMIZE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    saved = os.environ.pop("RUNNABLE_SHIMS", None)
    try:
        spec.loader.exec_module(module)
    finally:
        if saved is not None:
            os.environ["RUNNABLE_SHIMS"] = saved
    return frozenset(module.SHIMS) | frozenset(module.EAGER)


def load(path: Path = MANIFEST, known_shims: frozenset[str] | None = None) -> Manifest:
    return parse(json.loads(path.read_text(encoding="utf-8")), known_shims)


def write_files(entry: Entry, root: Path) -> None:
    """Write the entry's synthetic input files into the project copy (never over a file the project has)."""
    for rel, kind in sorted(entry.files.items()):
        target = root / rel
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(FILE_KINDS[kind]())
