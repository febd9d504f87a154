"""Project trees: materialised from a git mirror, walked, snapshotted (path -> bytes) and read as text."""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

from codemods.files import RUN_ARTEFACTS

PY_SUFFIXES = (".py",)
YAML_SUFFIXES = (".yaml", ".yml")
TEXT_SUFFIXES = (".md", ".rst", ".txt", ".sh", ".bash", ".cfg", ".ini", ".toml", ".ipynb", ".json", ".slurm", "")
SKIP_DIRS = {".git", "__pycache__", ".mypy_cache", ".pytest_cache", "node_modules"}


def file_kind(rel: str) -> str:
    lower = rel.lower()
    if lower.endswith(PY_SUFFIXES):
        return "py"
    if lower.endswith(YAML_SUFFIXES):
        return "yaml"
    return "other"


def _is_text_candidate(rel: str) -> bool:
    suffix = os.path.splitext(rel)[1].lower()
    if set(rel.split("/")[:-1]) & RUN_ARTEFACTS:
        return False  # configs saved by past runs: records, not sources (migrate-trainer skips them too)
    return file_kind(rel) != "other" or suffix in TEXT_SUFFIXES


def _code_lines(rel: str, text: str) -> str:
    """The text the detectors read: a notebook's code cell sources only (outputs and markdown are records and
    prose), other lines blanked so that line numbers stay those of the file."""
    if not rel.endswith(".ipynb"):
        return text
    out, cell, source_indent = [], "", None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith('"cell_type":'):
            cell = stripped
        if source_indent is not None and line[: len(source_indent) + 1].strip() == "]":
            source_indent = None
        keep = source_indent is not None and '"code"' in cell
        out.append(line if keep else "")
        if stripped.startswith('"source": ['):
            source_indent = line[: len(line) - len(line.lstrip())]
    return "\n".join(out)


def walk(root: Path) -> Iterator[str]:
    """Relative paths of the regular files under ``root``, sorted."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in filenames:
            full = os.path.join(dirpath, name)
            if os.path.isfile(full) and not os.path.islink(full):
                found.append(os.path.relpath(full, root).replace(os.sep, "/"))
    yield from sorted(found)


def snapshot(root: Path) -> dict[str, bytes]:
    return {rel: (root / rel).read_bytes() for rel in walk(root)}


def digest(tree: dict[str, bytes]) -> dict[str, str]:
    return {rel: hashlib.sha256(data).hexdigest() for rel, data in tree.items()}


def _text(data: bytes) -> str | None:
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _texts(tree: dict[str, bytes]) -> dict[str, str]:
    out = {}
    for rel, data in tree.items():
        if not _is_text_candidate(rel):
            continue
        text = _text(data)
        if text is not None:
            out[rel] = text
    return out


def find_mirror(mirrors: Path, repo: str) -> Path | None:
    base = mirrors / repo.replace("/", "+")
    for cand in (base / "repo" / ".git", base / "repo", base / ".git", base):
        if (cand / "HEAD").is_file() and (cand / "objects").is_dir():
            return cand
    return None


def materialise(git_dir: Path, commit: str, paths: Sequence[str], dest: Path) -> list[str]:
    """Extract ``commit`` (restricted to ``paths``) into ``dest``; the blobs the mirror lacks are listed.

    ``git archive`` first; a mirror without the largest blobs (snapshots omit files of 4 MiB and more) makes
    it fail, and then every blob it has is written one by one.
    """
    dest.mkdir(parents=True, exist_ok=True)
    spec = ["--", *paths] if paths else []
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", commit, *spec], capture_output=True
    )
    if archive.returncode == 0:
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
        return []
    listing = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", "--full-tree", commit, *spec],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    missing: list[str] = []
    for entry in listing:
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        rel = raw_path.decode("utf-8", "surrogateescape")
        if kind != "blob" or mode == "120000":
            continue
        blob = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "blob", sha], capture_output=True)
        if blob.returncode != 0:
            missing.append(rel)
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
        if mode == "100755":
            target.chmod(0o755)
    return missing
