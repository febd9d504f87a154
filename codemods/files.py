"""Finding files (folders, ``--exclude`` globs, ``.gitignore``), reading them faithfully and writing atomically.

A file is decoded with its declared encoding (PEP 263 cookie or BOM) and written back with the same
encoding, BOM, line endings and permissions, through a temporary file renamed over the original.
"""

from __future__ import annotations

import codecs
import fnmatch
import io
import os
import re
import stat
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from codemods.kinds import SUFFIXES, TEXT_NAMES, TEXT_SUFFIXES

#: Never descended into, whatever the ignore files say.
ALWAYS_SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"})
#: Run artefacts, never sources: configs that Lightning, Hydra and the loggers saved from past runs (their
#: ``plugins: <...DDPPlugin object at 0x...>`` reprs are records, not settings). Skipped in folders; a file
#: given explicitly is still processed.
RUN_ARTEFACTS = frozenset({"lightning_logs", "multirun", ".hydra", "wandb", "mlruns"})


# --- .gitignore ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool
    base: Path


def _translate(glob: str) -> str:
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def _parse_gitignore(path: Path) -> list[_Pattern]:
    patterns = []
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    for raw in lines:
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        line = line[1:] if negated else line
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        anchored = "/" in line
        line = line.lstrip("/")
        body = _translate(line)
        regex = re.compile(("^" if anchored else "^(?:.*/)?") + body + "$")
        patterns.append(_Pattern(regex, negated, dir_only, path.parent))
    return patterns


class IgnoreRules:
    """``.gitignore`` semantics for the common cases: globs, ``**``, anchoring, ``dir/`` and ``!`` negation."""

    def __init__(self) -> None:
        self._cache: dict[Path, list[_Pattern]] = {}

    def _patterns(self, directory: Path) -> list[_Pattern]:
        if directory not in self._cache:
            found: list[_Pattern] = []
            parent = directory.parent
            if parent != directory and not (directory / ".git").exists():
                found.extend(self._patterns(parent))
            ignore = directory / ".gitignore"
            if ignore.is_file():
                found.extend(_parse_gitignore(ignore))
            self._cache[directory] = found
        return self._cache[directory]

    def active(self, directory: Path) -> bool:
        """Whether any ignore pattern applies inside ``directory`` (absolute)."""
        return bool(self._patterns(directory))

    def ignored(self, path: Path, is_dir: bool) -> bool:
        result = False
        for pattern in self._patterns(path.parent):
            try:
                rel = path.relative_to(pattern.base).as_posix()
            except ValueError:
                continue
            if pattern.dir_only and not is_dir:
                continue
            if pattern.regex.match(rel):
                result = not pattern.negated
        return result


# --- discovery -------------------------------------------------------------------------------------------------
def _excluded(path: Path, excludes: Sequence[str]) -> bool:
    posix = path.as_posix()
    return any(
        fnmatch.fnmatch(posix, glob) or fnmatch.fnmatch(path.name, glob) or fnmatch.fnmatch(posix, f"*/{glob}")
        for glob in excludes
    )


def discover(
    paths: Iterable[str], excludes: Sequence[str] = (), respect_gitignore: bool = True, text: bool = False
) -> Iterator[Path]:
    """Files to look at: explicit files as given, folders walked for ``.py``/``.pyi``/``.yaml``/``.yml``/``.ipynb``.

    With ``text``, folders also yield the text files the project index reads for override strings (shell
    scripts, docs: ``codemods.kinds.TEXT_SUFFIXES``); their command lines are migrated
    (``codemods.frontends.commands``), the rest are only read.
    """
    return map(Path, discover_paths(paths, excludes, respect_gitignore, text))


def discover_paths(
    paths: Iterable[str], excludes: Sequence[str] = (), respect_gitignore: bool = True, text: bool = False
) -> Iterator[str]:
    """:func:`discover`, as strings (``str()`` of the paths it yields), in the same order.

    Folders are listed with ``os.scandir`` and paths joined as strings: a ``Path`` per file costs more than the
    prefilter's look at a small file. Symbolic links to folders are not followed (as ``os.walk`` does not).
    """
    suffixes = SUFFIXES + TEXT_SUFFIXES if text else SUFFIXES
    names = frozenset(TEXT_NAMES) if text else frozenset()
    ignore = IgnoreRules()
    for given in paths:
        root = Path(given)
        if root.is_file():
            yield str(root)
            continue
        yield from _walk(str(root), suffixes, names, excludes, respect_gitignore, ignore)


def _walk(
    directory: str,
    suffixes: tuple[str, ...],
    names: frozenset[str],
    excludes: Sequence[str],
    respect_gitignore: bool,
    ignore: IgnoreRules,
) -> Iterator[str]:
    """The files of ``directory`` (sorted), then those of each of its folders in name order, as ``os.walk``
    (top-down, errors ignored) visits them."""
    try:
        with os.scandir(directory) as listing:
            entries = list(listing)
    except OSError:
        return
    here = Path(directory)
    # Most folders have no ignore pattern in force and no --exclude: then no per-file test at all.
    check = bool(excludes) or (respect_gitignore and ignore.active(here.absolute()))
    prefix = "" if directory == "." else os.path.join(directory, "")  # Path(".") / "a.py" is "a.py"
    folders: list[os.DirEntry[str]] = []
    files: list[os.DirEntry[str]] = []
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        (folders if is_dir else files).append(entry)
    for name in sorted(entry.name for entry in files):
        if not name.endswith(suffixes) and name not in names:
            continue
        if check:
            path = here / name
            if _excluded(path, excludes) or (respect_gitignore and ignore.ignored(path.absolute(), False)):
                continue
        yield prefix + name
    for entry in sorted(folders, key=lambda entry: entry.name):
        name = entry.name
        if name in ALWAYS_SKIPPED or name in RUN_ARTEFACTS:
            continue
        if check and (
            _excluded(here / name, excludes) or (respect_gitignore and ignore.ignored((here / name).absolute(), True))
        ):
            continue
        if not entry.is_symlink():
            yield from _walk(prefix + name, suffixes, names, excludes, respect_gitignore, ignore)


# --- reading and writing ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Decoded:
    """A file's text plus everything needed to write it back byte-for-byte alike."""

    text: str
    encoding: str
    bom: bytes


class DecodeError(Exception):
    """The file cannot be decoded; it is reported and never written."""


def decode(data: bytes, python: bool) -> Decoded:
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    encoding = "utf-8"
    if python:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError as exc:
            raise DecodeError(str(exc)) from exc
        if encoding == "utf-8-sig":
            encoding = "utf-8"
    try:
        return Decoded(data[len(bom) :].decode(encoding), encoding, bom)
    except (UnicodeDecodeError, LookupError) as exc:
        raise DecodeError(f"cannot decode as {encoding}: {exc}") from exc


def encode(decoded: Decoded, text: str) -> bytes:
    return decoded.bom + text.encode(decoded.encoding)


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, renamed over ``path``; keeps the permissions."""
    import tempfile  # only a write needs it, never --check

    mode = stat.S_IMODE(path.stat().st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".migrate-trainer", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
