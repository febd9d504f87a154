"""Which project each file belongs to: the nearest folder above it with its own ``pyproject.toml``, ``setup.cfg``,
``.git`` or packaging ``setup.py``, found no higher than the folder all the files given share.

A run over a folder holding several checkouts (a monorepo, or ``migrate-trainer .`` above two projects) plans each
on its own: a config key one project reads never holds another project's configs, and a TODO never names the files
of an unrelated project. Files under no such folder form one project, as before. Standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

#: What makes a folder a project's root; a ``setup.py`` only when it packages (``solo/args/setup.py`` is a module).
MARKERS = ("pyproject.toml", "setup.cfg", ".git")


def _is_root(folder: str) -> bool:
    if any(os.path.exists(os.path.join(folder, marker)) for marker in MARKERS):
        return True
    try:
        with open(os.path.join(folder, "setup.py"), "rb") as stream:
            head = stream.read(1 << 16)
    except OSError:
        return False
    return b"setuptools" in head or b"distutils" in head


def project_roots(paths: Sequence[str], wanted: Sequence[str] | None = None) -> dict[str, str]:
    """Each of ``paths`` -> its project's root folder (absolute): the nearest marked folder, or the folder all of
    ``paths`` share where no marker is found below it. Only the folders of ``wanted`` (default: all) are looked at;
    the other files join the deepest project found above them (a tree of thousands of clean files costs no stat
    of theirs)."""
    if not paths:
        return {}
    # One abspath per folder, not per file (for a file's path, dirname and abspath commute).
    absolute = {folder: os.path.abspath(folder) for folder in {os.path.dirname(path) for path in paths}}
    top = os.path.commonpath(sorted(set(absolute.values())))
    looked_at = {os.path.dirname(path) for path in (paths if wanted is None else wanted)}
    found: dict[str, str] = {}

    def root_of(folder: str) -> str:
        chain: list[str] = []
        while folder not in found:
            chain.append(folder)
            if folder == top or _is_root(folder):
                found[folder] = folder
                break
            parent = os.path.dirname(folder)
            if parent == folder or not parent.startswith(top):
                found[folder] = top
                break
            folder = parent
        answer = found[folder]
        found.update(dict.fromkeys(chain, answer))
        return answer

    roots = {folder: root_of(absolute[folder]) for folder in looked_at}
    found_roots = sorted(set(roots.values()), key=len, reverse=True)
    for folder, folder_abs in absolute.items():
        if folder not in roots:  # the others join the deepest project found above them, with no stat of their own
            roots[folder] = next((r for r in found_roots if folder_abs == r or folder_abs.startswith(r + os.sep)), top)
    return {path: roots[os.path.dirname(path)] for path in paths}
