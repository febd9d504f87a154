#!/usr/bin/env bash
# Create (once) a venv with torch-xla and its matching torch, and install this checkout into it.
#
#   tools/xla-venv.sh [VENV_DIR]
#
# Prints the venv's python on stdout (the last line), so callers can do
#   export LIGHTNING_MIGRATE_XLA_PYTHON="$(tools/xla-venv.sh | tail -n1)"
#
# Why a separate venv: torch-xla wheels are built against exactly one torch release
# (torch-xla 2.9.0 needs torch 2.9.0), while the project's main venv runs torch 2.13. PyPI's torch
# 2.9.0 wheel for Linux is the CUDA build with its nvidia-* dependencies, so the venv is ~7 GB;
# it is cached outside the clone and reused while the stamp file matches the pinned versions.
# With PJRT_DEVICE=CPU torch-xla runs on the CPU, which is what the `xla` test tier uses.
set -euo pipefail

TORCH_VERSION=2.9.0
TORCH_XLA_VERSION=2.9.0
repo="$(cd "$(dirname "$0")/.." && pwd)"
cache_root="${LIGHTNING_MIGRATE_CACHE:-$HOME/.cache/lightning-migrate}"
venv="${1:-$cache_root/xla-venv-torch$TORCH_VERSION}"
stamp="$venv/.lightning-migrate-xla"
want="torch==$TORCH_VERSION torch-xla==$TORCH_XLA_VERSION"

# torch-xla 2.9.0 publishes wheels for CPython 3.10-3.13; the project's interpreter is 3.11.
base_python="${XLA_BASE_PYTHON:-python3.11}"

mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9

if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "xla-venv: creating $venv ($want); a ~3 GB download, a few minutes" >&2
    start=$(date +%s)
    # A half-built venv (interrupted run) has no stamp: start over rather than patch it.
    rm -rf "$venv"
    "$base_python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet "torch==$TORCH_VERSION" "torch-xla==$TORCH_XLA_VERSION"
    # The project's own runtime dependencies, small; torch is already the right one.
    "$venv/bin/python" -m pip install --quiet "libcst>=1.1" "deprecation>=2.1" "ruamel.yaml>=0.17"
    echo "$want" >"$stamp"
    echo "xla-venv: built in $(($(date +%s) - start)) s, $(du -sh "$venv" | cut -f1)" >&2
else
    echo "xla-venv: reusing $venv ($want)" >&2
fi

# The editable install runs without build isolation (no setuptools download each run); a no-op once satisfied.
"$venv/bin/python" -m pip install --quiet "setuptools>=70" >&2
# Cheap, and it points the venv at *this* checkout (CI clones into a new folder each run).
# setuptools' build chatter is shown only if the install fails.
if ! log="$("$venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation -e "$repo" 2>&1)"; then
    echo "$log" >&2
    exit 1
fi
# Fail here, not in the tests, if the pair does not load or cannot make a CPU device.
PJRT_DEVICE=CPU "$venv/bin/python" - >&2 <<'EOF'
import torch, torch_xla
t = torch.ones(2, device=torch_xla.device()) * 2
assert t.sum().item() == 4.0
print(f"xla-venv: torch {torch.__version__}, torch_xla {torch_xla.__version__}: ok on {t.device}")
EOF
echo "$venv/bin/python"
