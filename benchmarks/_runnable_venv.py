"""The one venv every runnable project runs in: real Lightning 2.x, CPU torch, the projects' own imports.

Built once under ``~/.cache/lightning-migrate/runnable-venv-<lightning>`` (``$LIGHTNING_MIGRATE_CACHE`` moves
the cache) and reused while its stamp equals the pins and the package list of the manifest; a half-built venv has
no stamp and is built again. Like ``tools/lightning-venv.sh``, this checkout is not installed into it: the
``compat.lightning`` runs put the repo root on ``PYTHONPATH``. torch is pinned through a constraints file for
every install (unpinned, pip would pick a CUDA build of several GB).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _runnable_manifest import Entry, Manifest


def cache_root() -> Path:
    return Path(os.environ.get("LIGHTNING_MIGRATE_CACHE", Path.home() / ".cache" / "lightning-migrate"))


def _stamp(manifest: Manifest) -> str:
    return "\n".join([f"torch=={manifest.torch}", f"pytorch-lightning=={manifest.lightning}", *manifest.all_packages()])


def ensure_venv(manifest: Manifest, base_python: str = "python3.11") -> Path:
    """The venv's python, building the venv first when its stamp differs from the manifest."""
    venv = cache_root() / f"runnable-venv-{manifest.lightning}"
    python = venv / "bin" / "python"
    stamp_file = venv / ".lightning-migrate-runnable"
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{venv}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        want = _stamp(manifest)
        if stamp_file.is_file() and stamp_file.read_text(encoding="utf-8") == want:
            return python
        start = time.monotonic()
        if stamp_file.is_file():  # a complete venv with other pins: add what is missing rather than start over
            print(f"runnable-venv: updating {venv} to the manifest's packages", file=sys.stderr)
            stamp_file.unlink()
        else:
            print(f"runnable-venv: building {venv} (a few minutes)", file=sys.stderr)
            shutil.rmtree(venv, ignore_errors=True)
            subprocess.run([base_python, "-m", "venv", str(venv)], check=True)
        constraints = venv / "constraints.txt"
        constraints.write_text(f"torch=={manifest.torch}\n", encoding="utf-8")
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", str(constraints)]
        subprocess.run(["nice", *pip, f"torch=={manifest.torch}"], check=True)
        subprocess.run(["nice", *pip, f"pytorch-lightning=={manifest.lightning}", *manifest.all_packages()], check=True)
        stamp_file.write_text(want, encoding="utf-8")
        print(f"runnable-venv: ready in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return python


def ensure_layer(python: Path, manifest: Manifest, entry: Entry) -> Path | None:
    """The folder of the entry's own package layer (``pip install --target``, torch still pinned), built once and
    kept while its stamp equals the entry's ``layer``; None when the entry has none. Its packages shadow the
    venv's, so the layer carries every compiled package that must match its numpy (scipy, pandas, ...)."""
    if not entry.layer:
        return None
    layer = python.parent.parent / "layers" / entry.id
    stamp_file = layer / ".lightning-migrate-layer"
    want = "\n".join(entry.layer)
    layer.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{layer}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp_file.is_file() and stamp_file.read_text(encoding="utf-8") == want:
            return layer
        print(f"runnable-venv: building the layer {layer}", file=sys.stderr)
        shutil.rmtree(layer, ignore_errors=True)
        constraints = python.parent.parent / "constraints.txt"
        constraints.write_text(f"torch=={manifest.torch}\n", encoding="utf-8")
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", str(constraints)]
        subprocess.run(["nice", *pip, "--target", str(layer), *entry.layer], check=True)
        stamp_file.write_text(want, encoding="utf-8")
    return layer


def versions(python: Path) -> str:
    """``torch X, pytorch_lightning Y, torchvision Z`` as the venv reports them (for the report's header)."""
    code = (
        "import importlib.metadata as m\n"
        "print(', '.join(f'{p} {m.version(p)}' for p in ('torch', 'pytorch-lightning', 'torchvision', 'torchmetrics')))"
    )
    result = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=False)
    return result.stdout.strip() or result.stderr.strip().splitlines()[-1]
