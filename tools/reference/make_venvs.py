"""Create (or reuse) the throwaway venvs that hold real Lightning releases.

Real ``pytorch-lightning`` is never a dependency of this project: it only lives in
``tools/reference/.venvs/<version>/`` (git-ignored) and is used to record reference data.

Usage: ``python tools/reference/make_venvs.py [VERSION ...] [--force]``

Every pin below is repeated in the JSON header (``pins``) and in README.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV_ROOT = Path(os.environ.get("PLREF_VENV_ROOT", HERE / ".venvs"))  # override: build elsewhere

CONSTRAINTS = ["torch==2.13.0"]
"""Held fixed for every install step: the CPU wheel on this machine. Without the pin pip would
downgrade torch to satisfy Lightning's old pins and pull gigabytes of CUDA wheels."""

# Installed last with ``--no-deps``: Lightning itself (1.5.10 pins ``setuptools==59.5.0`` and
# 1.6.5 ``protobuf<=3.20.1``, neither needed for Trainer construction); setuptools<70, because both
# releases import ``pkg_resources`` and torch 2.13's metadata asks for setuptools>=77 (so it cannot
# be a constraint: it has to overwrite what torch/tensorboard pulled in, last); fairscale (its
# metadata pins an old torch; the code imports fine and makes the sharded strategies really
# available). 2.6.6 needs none of that (no pkg_resources, fairscale support removed in 2.0); it is
# installed --no-deps too so that every dependency is one of the explicit pins below.
NO_DEPS: dict[str, list[str]] = {
    "1.5.10": ["pytorch-lightning==1.5.10", "setuptools==69.5.1", "fairscale==0.4.13"],
    "1.6.5": ["pytorch-lightning==1.6.5", "setuptools==69.5.1", "fairscale==0.4.13"],
    "2.6.6": ["pytorch-lightning==2.6.6"],
}

# Lightning's runtime dependencies, installed normally (torch held by the constraint).
# numpy<2: both releases predate NumPy 2. torchmetrics: a release contemporary with each
# Lightning release (both import fine on torch 2.13). 2.6.6: the newest 2.x; its own requirements
# (lightning-utilities, fsspec[http] for remote paths) and a torchmetrics that imports on torch 2.13.
DEPS: dict[str, list[str]] = {
    "1.5.10": [
        "numpy==1.26.4",
        "torchmetrics==0.7.3",
        "pyDeprecate==0.3.1",
        "future",
        "tqdm",
        "PyYAML",
        "fsspec",
        "packaging",
        "typing-extensions",
        "tensorboard",
    ],
    "1.6.5": [
        "numpy==1.26.4",
        "torchmetrics==0.9.3",
        "pyDeprecate==0.3.2",
        "tqdm",
        "PyYAML",
        "fsspec",
        "packaging",
        "typing-extensions",
        "tensorboard",
    ],
    "2.6.6": [
        "numpy==2.4.6",
        "torchmetrics==1.9.0",
        "lightning-utilities==0.15.3",
        "tqdm",
        "PyYAML",
        "fsspec[http]",
        "packaging",
        "typing-extensions",
    ],
}

VERSIONS = tuple(NO_DEPS)


def venv_dir(version: str) -> Path:
    return VENV_ROOT / version


def venv_python(version: str) -> Path:
    return venv_dir(version) / "bin" / "python"


def pins(version: str) -> dict[str, list[str]]:
    """The pins as recorded in the JSON header."""
    return {
        "constraint": CONSTRAINTS,
        "install_no_deps": NO_DEPS[version],
        "install": DEPS[version],
    }


def _pip(py: Path, args: list[str], constraint: Path) -> None:
    cmd = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", str(constraint), *args]
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)


def _ready(version: str) -> bool:
    py = venv_python(version)
    if not py.exists():
        return False
    probe = "import pytorch_lightning, torch, sys; sys.exit(pytorch_lightning.__version__ != sys.argv[1])"
    return subprocess.run([str(py), "-c", probe, version], capture_output=True).returncode == 0


def make_venv(version: str, force: bool = False) -> Path:
    """Return the venv python for ``version``, building the venv if it is missing or broken."""
    if not force and _ready(version):
        return venv_python(version)
    target = venv_dir(version)
    target.parent.mkdir(parents=True, exist_ok=True)
    venv.EnvBuilder(clear=True, with_pip=True).create(target)
    py = venv_python(version)
    constraint = target / "constraints.txt"
    constraint.write_text("\n".join(CONSTRAINTS) + "\n")
    # pip config on this machine also applies a global constraints file; ours narrows it.
    _pip(py, [CONSTRAINTS[0]], constraint)
    _pip(py, DEPS[version], constraint)
    _pip(py, ["--no-deps", *NO_DEPS[version]], constraint)
    if not _ready(version):
        raise SystemExit(f"venv for pytorch-lightning=={version} built but `import pytorch_lightning` fails")
    return py


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*", default=list(VERSIONS), metavar="VERSION")
    parser.add_argument("--force", action="store_true", help="rebuild even if the venv works")
    args = parser.parse_args(argv)
    for version in args.versions:
        print(make_venv(version, force=args.force))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    raise SystemExit(main())
