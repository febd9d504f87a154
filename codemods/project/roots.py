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


def project_roots(paths: Sequence[str]) -> dict[str, str]:
    """``path`` -> its project's root folder (absolute); the shared folder where no marker is found below it."""
    if not paths:
        return {}
    folders = {os.path.dirname(os.path.abspath(path)) for path in paths}
    top = os.path.commonpath(sorted(folders))
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

    return {path: root_of(os.path.dirname(os.path.abspath(path))) for path in paths}
