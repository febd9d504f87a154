"""The installs behind ``surface_generate.py``: one base venv, one ``--target`` folder per Lightning release.

Thirteen full venvs would each hold a 700 MB torch. Instead one base venv holds torch (the CPU wheel on this
machine, held by a constraint), numpy and the small dependencies every release shares, and each release gets a
folder filled by ``pip install --target DIR --no-deps`` with Lightning and the packages whose era matters
(torchmetrics, pyDeprecate / lightning-utilities). The recording runs the base venv's python with that folder
first on ``PYTHONPATH``. Real Lightning is
never a dependency of this project. They live outside the repository (``~/.cache/lightning-migrate/surface``,
or ``$PLREF_SURFACE_ROOT``): the layout test reads every ``.py`` under ``tools/``, a venv included.

Usage: ``python tools/reference/surface_envs.py [VERSION ...] [--force]`` (prints each folder).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("PLREF_SURFACE_ROOT", Path.home() / ".cache" / "lightning-migrate" / "surface"))
BASE = ROOT / "surface-base"
TARGETS = ROOT / "surface"

CONSTRAINTS = ["torch==2.13.0"]
"""Held for every base install step: without it pip downgrades torch to meet old pins and pulls CUDA wheels."""

BASE_DEPS = [
    "numpy==1.26.4",  # every release imports on it; 1.x predates NumPy 2
    "future",  # 1.4 requires it
    "tqdm",
    "PyYAML",
    "fsspec[http]",
    "packaging",
    "typing-extensions",
    "tensorboard",  # a requirement up to 1.7; optional later, but makes the tensorboard logger importable
    "tensorboardX",  # 1.8 and 1.9 require it
]
BASE_NO_DEPS = ["setuptools==69.5.1"]
"""Installed last: releases up to 2.3 import ``pkg_resources``, which setuptools 81 removed; torch's metadata
asks for setuptools>=77, so it cannot be a constraint and overwrites what torch pulled in."""

#: release -> what its folder holds (``--no-deps``): Lightning, and a torchmetrics and pyDeprecate /
#: lightning-utilities of the same era that import on torch 2.13.
RELEASE_PINS: dict[str, list[str]] = {
    "1.4.9": ["pytorch-lightning==1.4.9", "torchmetrics==0.6.2", "pyDeprecate==0.3.1"],
    "1.5.10": ["pytorch-lightning==1.5.10", "torchmetrics==0.7.3", "pyDeprecate==0.3.1"],
    "1.6.5": ["pytorch-lightning==1.6.5", "torchmetrics==0.9.3", "pyDeprecate==0.3.2"],
    "1.7.7": ["pytorch-lightning==1.7.7", "torchmetrics==0.10.3", "pyDeprecate==0.3.2"],
    "1.8.6": ["pytorch-lightning==1.8.6", "torchmetrics==0.11.4", "lightning-utilities==0.5.0"],
    "1.9.5": ["pytorch-lightning==1.9.5", "torchmetrics==0.11.4", "lightning-utilities==0.8.0"],
    "2.0.9": ["pytorch-lightning==2.0.9", "torchmetrics==1.1.2", "lightning-utilities==0.9.0"],
    "2.1.4": ["pytorch-lightning==2.1.4", "torchmetrics==1.3.2", "lightning-utilities==0.10.1"],
    "2.2.5": ["pytorch-lightning==2.2.5", "torchmetrics==1.4.0", "lightning-utilities==0.11.2"],
    "2.3.3": ["pytorch-lightning==2.3.3", "torchmetrics==1.4.1", "lightning-utilities==0.11.6"],
    "2.4.0": ["pytorch-lightning==2.4.0", "torchmetrics==1.4.1", "lightning-utilities==0.11.6"],
    "2.5.6": ["pytorch-lightning==2.5.6", "torchmetrics==1.8.2", "lightning-utilities==0.15.2"],
    "2.6.6": ["pytorch-lightning==2.6.6", "torchmetrics==1.9.0", "lightning-utilities==0.15.3"],
}
VERSIONS = tuple(RELEASE_PINS)


def base_python() -> Path:
    return BASE / "bin" / "python"


def target_dir(version: str) -> Path:
    return TARGETS / version


def pins(version: str) -> list[str]:
    """What the data file's header records for ``version``: its folder's pins, then the base's."""
    return [*RELEASE_PINS[version], *CONSTRAINTS, *BASE_DEPS, *BASE_NO_DEPS]


def child_env(version: str) -> dict[str, str]:
    """The environment a recording child runs in: the release's folder first on the path, nothing inherited."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PYTHONPATH"] = str(target_dir(version))
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _pip(args: list[str]) -> None:
    constraint = BASE / "constraints.txt"
    cmd = [str(base_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", str(constraint)]
    print("+", " ".join([*cmd[3:], *args]), file=sys.stderr, flush=True)
    subprocess.run([*cmd, *args], check=True)


def _works(version: str | None) -> bool:
    if not base_python().exists():
        return False
    probe = "import torch, numpy, pkg_resources"
    env = None
    if version is not None:
        probe = "import sys, pytorch_lightning as pl; sys.exit(pl.__version__ != sys.argv[1])"
        env = child_env(version)
    cmd = [str(base_python()), "-c", probe, *([version] if version else [])]
    return subprocess.run(cmd, capture_output=True, env=env).returncode == 0


def make_base(force: bool = False) -> Path:
    """Return the base venv's python, building it if missing or broken."""
    if force or not _works(None):
        venv.EnvBuilder(clear=True, with_pip=True).create(BASE)
        (BASE / "constraints.txt").write_text("\n".join(CONSTRAINTS) + "\n")
        _pip(CONSTRAINTS)
        _pip(BASE_DEPS)
        _pip(["--no-deps", *BASE_NO_DEPS])
    return base_python()


def make_target(version: str, force: bool = False) -> Path:
    """Return ``version``'s folder, filling it unless a finished install (its ``.complete`` marker) is there."""
    make_base()
    folder = target_dir(version)
    if not force and (folder / ".complete").exists():
        return folder
    if folder.exists():
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    folder.mkdir(parents=True)
    _pip(["--no-deps", "--target", str(folder), *RELEASE_PINS[version]])
    (folder / ".complete").write_text("\n".join(RELEASE_PINS[version]) + "\n")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*", default=list(VERSIONS), metavar="VERSION")
    parser.add_argument("--force", action="store_true", help="refill the folders even if present")
    args = parser.parse_args(argv)
    for version in args.versions:
        print(make_target(version, force=args.force), "imports" if _works(version) else "needs a patch")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    raise SystemExit(main())
