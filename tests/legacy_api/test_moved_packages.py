"""``legacy_api.moved_packages`` against the real releases: every successor is defined in the installed
``lightning_fabric`` / ``lightning_utilities`` of each recorded 2.x release, every old name is gone from 2.0 on, and
the exact rewrites behave alike (a script on real 1.5.10 and its migrated form on real 2.6.6 print the same).

The installs live outside the repository (``tools/reference/surface_envs.py``); without them those tests skip.
"""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

import pytest

from legacy_api.moved_packages import ACTS_IN, MOVED_PACKAGES, MovedOut
from legacy_api.renames import version_tuple
from legacy_api.surface import RELEASES, surface
from tests.codemods.helpers import run

SURFACE_ROOT = Path(os.environ.get("PLREF_SURFACE_ROOT", Path.home() / ".cache" / "lightning-migrate" / "surface"))
INSTALLS = SURFACE_ROOT / "surface"
VENVS = Path(os.environ.get("PLREF_VENVS", "/tmp/plref/venvs"))
RELEASES_2X = [release for release in RELEASES if version_tuple(release) >= version_tuple(ACTS_IN)]
SCRIPT = Path(__file__).parent / "moved_packages" / "legacy_1_5.py"


def _defines(install: Path, qualified: str) -> bool:
    """Whether the module file of ``qualified`` in ``install`` defines (or imports) its last name at top level."""
    module, _, name = qualified.rpartition(".")
    base = install.joinpath(*module.split("."))
    path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
    if not path.is_file():
        return False
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
            return True
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            return True
    return False


@pytest.mark.parametrize("release", RELEASES_2X)
def test_every_successor_is_in_the_real_install(release: str) -> None:
    install = INSTALLS / release
    if not install.is_dir():
        pytest.skip(f"no install of {release} under {INSTALLS}")
    missing = [row.new for row in MOVED_PACKAGES if not row.new.startswith("torch.") and not _defines(install, row.new)]
    assert missing == []


def test_the_names_1_5_took_from_torch_are_there() -> None:
    import torch.distributed

    for row in MOVED_PACKAGES:
        if row.new.startswith("torch.distributed."):
            assert hasattr(torch.distributed, row.new.rpartition(".")[2]), row.new


@pytest.mark.parametrize("release", RELEASES_2X)
def test_every_old_name_is_gone_from_the_recorded_surface(release: str) -> None:
    recorded = surface(release)
    assert [row.old for row in MOVED_PACKAGES if recorded.has(row.old)] == []
    assert all(surface("1.5.10").has(row.old) for row in MOVED_PACKAGES)


@pytest.mark.parametrize("row", MOVED_PACKAGES, ids=lambda row: row.old)
def test_a_rewrite_keeps_the_name_and_only_public_successors_are_exact(row: MovedOut) -> None:
    # The name stays, up to the leading underscore one side has (1.5's private _module_available is public now).
    assert row.old.rpartition(".")[2].lstrip("_") == row.new.rpartition(".")[2].lstrip("_")
    private = any(part.startswith("_") for part in row.new.split("."))
    assert not (row.exact and private)
    assert row.exact or row.difference


def test_the_migrated_script_prints_what_the_legacy_one_printed(tmp_path: Path) -> None:
    old_python, new_python = VENVS / "1.5.10" / "bin" / "python", VENVS / "2.6.6" / "bin" / "python"
    if not (old_python.exists() and new_python.exists()):
        pytest.skip(f"no 1.5.10 / 2.6.6 venvs under {VENVS}")
    source = SCRIPT.read_text()
    migrated = run(source, "2.6").source
    assert "lightning_utilities.core.apply_func import apply_to_collection" in migrated
    assert "lightning_fabric.utilities.seed import reset_seed" in migrated
    (tmp_path / "migrated.py").write_text(migrated)
    runs = [
        subprocess.run([str(python), str(path)], capture_output=True, text=True, timeout=300, check=True).stdout
        for python, path in ((old_python, SCRIPT), (new_python, tmp_path / "migrated.py"))
    ]
    assert runs[0] == runs[1]
