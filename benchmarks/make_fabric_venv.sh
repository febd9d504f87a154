#!/usr/bin/env bash
# Create (once) a throwaway venv with Lightning Fabric next to the project's torch, for bench_runner.py.
#
#   benchmarks/make_fabric_venv.sh [VENV_DIR]
#
# Prints the venv's python on stdout (the last line), so callers can do
#   python benchmarks/bench_runner.py --fabric-python "$(benchmarks/make_fabric_venv.sh | tail -n1)"
#
# The benchmark compares the Runner with Fabric on the *same* torch, so a constraints file pins
# torch to the exact build of the project's venv (2.13.0+cpu): pip takes the CPU wheel from the
# local wheel directory instead of pulling PyPI's CUDA build and its nvidia-* dependencies (~3 GB).
# LIGHTNING_VERSION is the newest 2.x that installs next to torch 2.13 (2.6.6 when written:
# `pip index versions lightning`, then `pip download --no-deps lightning==X` and an install here).
# The venv is cached outside the clone and reused while its stamp matches the pins.
set -euo pipefail

LIGHTNING_VERSION="${LIGHTNING_VERSION:-2.6.6}"
project_python="${PROJECT_PYTHON:-/work/venv/bin/python}"
base_python="${FABRIC_BASE_PYTHON:-python3.11}"
cache_root="${LIGHTNING_MIGRATE_CACHE:-$HOME/.cache/lightning-migrate}"
venv="${1:-$cache_root/fabric-venv}"
stamp="$venv/.lightning-migrate-fabric"

torch_version="$("$project_python" -c 'import torch; print(torch.__version__)')"
want="torch==$torch_version lightning==$LIGHTNING_VERSION"

mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9

if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "fabric-venv: creating $venv ($want)" >&2
    start=$(date +%s)
    # A half-built venv (interrupted run) has no stamp: start over rather than patch it.
    rm -rf "$venv"
    "$base_python" -m venv "$venv"
    constraints="$venv/constraints.txt"
    printf 'torch==%s\n' "$torch_version" >"$constraints"
    "$venv/bin/python" -m pip install --quiet --constraint "$constraints" \
        "torch==$torch_version" "lightning==$LIGHTNING_VERSION"
    echo "$want" >"$stamp"
    echo "fabric-venv: built in $(($(date +%s) - start)) s, $(du -sh "$venv" | cut -f1)" >&2
else
    echo "fabric-venv: reusing $venv ($want)" >&2
fi

# Fail here, not in the benchmark, if the pair does not load or the torch is not the project's.
"$venv/bin/python" - "$torch_version" >&2 <<'EOF'
import sys

import lightning
import torch
from lightning.fabric import Fabric

assert torch.__version__ == sys.argv[1], (torch.__version__, sys.argv[1])
print(f"fabric-venv: torch {torch.__version__}, lightning {lightning.__version__}: ok ({Fabric.__name__})")
EOF
echo "$venv/bin/python"
