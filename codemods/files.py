"""Finding files (folders, ``--exclude`` globs, ``.gitignore``), reading them faithfully and writing atomically.

A file is decoded with its declared encoding (PEP 263 cookie or BOM) and written back with the same
encoding, BOM, line endings and permissions, through a temporary file renamed over the original.
"""

from __future__ import annotations

import codecs
import errno
import fnmatch
import io
import os
import re
import stat
import tokenize
from collections.abc import Callable, Iterable, Iterator, Sequence
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
    prefilter's look at a small file. Symbolic links to folders are not followed (as ``os.walk`` does not): a
    link to a parent never loops, and the files of a folder inside the paths given are found under its own name.
    Everything else whose name fits is yielded, pipes and links included: :func:`select_regular` sorts them out.
    """
    suffixes = SUFFIXES + TEXT_SUFFIXES if text else SUFFIXES
    names = frozenset(TEXT_NAMES) if text else frozenset()
    ignore = IgnoreRules()
    for given in paths:
        root = Path(given)
        if not root.is_dir():
            # A file, or a pipe, socket or link named on purpose: select_regular reports what is no file to read.
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


# --- what is read: regular files, each once -------------------------------------------------------------------
#: What a path that is no regular file is, by its ``os.stat`` mode. It is never opened: opening a named pipe for
#: reading waits for a writer (a run hung on ``mkfifo x.py``), a device may never end.
_NOT_REGULAR: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISDIR, "a folder"),
)
#: Why a symbolic link reaches no file, by the ``errno`` of ``os.stat`` through it.
_UNREACHABLE = {errno.ENOENT: "dangling (its target does not exist)", errno.ELOOP: "a loop (it never reaches a file)"}


@dataclass(frozen=True)
class Selection:
    """The paths a run reads, each file once under one of its names, and those it skips with the reason."""

    read: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]


def select_regular(paths: Iterable[str]) -> Selection:
    """Split discovered ``paths`` into regular files to read and the rest, skipped with a reason.

    A symbolic link to a file that is itself among ``paths`` (under a name that is no link) is that file: it is
    read and written once, through that name, so the link stays a link. A link to anything else (a file outside
    the paths given or excluded from them, a dangling link, a loop) is skipped: rewriting it would either replace
    the link by a copy or edit a file the user did not give. Nothing is opened: one ``lstat`` per file (``stat``
    through a link), and paths are resolved only where a link or a file found twice needs it.
    """
    files: dict[tuple[int, int], list[str]] = {}  # (device, inode) -> the names that are no link, in order
    links: list[tuple[str, tuple[int, int]]] = []
    skipped: list[tuple[str, str]] = []
    for path in sorted(set(paths)):
        try:
            info = os.lstat(path)
            link = stat.S_ISLNK(info.st_mode)
            info = os.stat(path) if link else info
        except OSError as exc:  # a link that reaches no file, or a path gone since it was found
            why = _UNREACHABLE.get(exc.errno or 0) if os.path.islink(path) else None
            skipped.append((path, f"skipped: a symbolic link that is {why}" if why else f"skipped: {exc.strerror}"))
            continue
        if not stat.S_ISREG(info.st_mode):
            what = next((name for test, name in _NOT_REGULAR if test(info.st_mode)), "a special file")
            skipped.append((path, f"skipped: {'a symbolic link to ' if link else ''}{what}, not a regular file"))
            continue
        key = (info.st_dev, info.st_ino)
        if link:
            links.append((path, key))
        else:
            files.setdefault(key, []).append(path)
    for path, key in links:
        target = os.path.realpath(path)
        if target not in {os.path.realpath(name) for name in files.get(key, ())}:
            where = f"a symbolic link to {_shortest(target)}, outside the paths given (or excluded)"
            skipped.append((path, f"skipped: {where}: link and target left as they are; give the target to migrate it"))
    read = sorted(name for names in files.values() for name in _distinct(names))
    return Selection(tuple(read), tuple(sorted(skipped)))


def _distinct(names: list[str]) -> list[str]:
    """Names of one (device, inode) that are not the same path: the same file given twice (``proj`` and its
    absolute path) is read once, under its shortest name; hard links stay two files (a write replaces the file
    of one name only)."""
    if len(names) == 1:
        return names
    first: dict[str, str] = {}
    for name in sorted(names, key=lambda name: (len(name), name)):
        first.setdefault(os.path.realpath(name), name)
    return list(first.values())


def _shortest(path: str) -> str:
    """``path`` relative to the working folder, unless the absolute path is shorter (or the only one: drives)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return relative if len(relative) <= len(path) else path


def read_regular(path: str) -> bytes:
    """The bytes of ``path``, refused unless it is a regular file when opened (without blocking on a pipe)."""
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    with os.fdopen(os.open(path, flags), "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        return handle.read()


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
    """Write through a temporary file in the same folder, renamed over ``path``; keeps the permissions.

    A symbolic link is written through: the file it resolves to is replaced, the link stays a link.
    """
    import tempfile  # only a write needs it, never --check

    path = Path(os.path.realpath(path))
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    mode = stat.S_IMODE(info.st_mode)
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
