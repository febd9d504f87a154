#!/usr/bin/env bash
# Create (once) a venv with the newest real Lightning 2.x, for the `lightning` test tier (compat.lightning).
#
#   tools/lightning-venv.sh [PYTHON]
#
# PYTHON (default python3.11) is the interpreter the venv is built from. Prints the venv's python on stdout
# (the last line), so callers can do
#   LPY="$(tools/lightning-venv.sh | tail -n1)"
#   "$LPY" -m pytest -q -p compat.pytest_plugin -m lightning tests/compat/lightning
#
# Why a separate venv: real Lightning is never a dependency of this project's main venv (compat must work,
# and its tests skip, without it). The venv is cached outside the clone and reused while its stamp matches the
# pins. This checkout is NOT installed into it: clones move (CI clones into a new folder each run), and the
# tier runs from the repo root, where `compat`, `legacy_api` and `newcore` import from the working directory.
set -euo pipefail

LIGHTNING_VERSION=2.6.6
TORCH_VERSION=2.13.0
base_python="${1:-python3.11}"
cache_root="${LIGHTNING_MIGRATE_CACHE:-$HOME/.cache/lightning-migrate}"
venv="$cache_root/lightning-venv-$LIGHTNING_VERSION"
stamp="$venv/.lightning-migrate-lightning"
# torch is pinned to the local CPU wheel: unpinned, pip would pick a CUDA build and gigabytes of nvidia-* wheels.
want="torch==$TORCH_VERSION pytorch-lightning==$LIGHTNING_VERSION"
# The project's runtime and test dependencies (not Lightning's: pip resolves those).
deps=("libcst>=1.1" "deprecation>=2.1" "ruamel.yaml>=0.17" "pytest>=7.4" "pytest-timeout>=2.1" "hypothesis>=6.80"
    "numpy")

mkdir -p "$cache_root"
exec 9>"$venv.lock"
flock 9

if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "lightning-venv: creating $venv ($want); a minute or two" >&2
    start=$(date +%s)
    # A half-built venv (interrupted run) has no stamp: start over rather than patch it.
    rm -rf "$venv"
    "$base_python" -m venv "$venv"
    constraint="$venv/constraints.txt"
    echo "torch==$TORCH_VERSION" >"$constraint"
    pip_install=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check -c "$constraint")
    "${pip_install[@]}" "torch==$TORCH_VERSION"
    "${pip_install[@]}" "pytorch-lightning==$LIGHTNING_VERSION" "${deps[@]}"
    echo "$want" >"$stamp"
    echo "lightning-venv: built in $(($(date +%s) - start)) s, $(du -sh "$venv" | cut -f1)" >&2
else
    echo "lightning-venv: reusing $venv ($want)" >&2
fi

# Fail here, not in the tests, if Lightning does not import with this torch.
"$venv/bin/python" - >&2 <<'EOF'
import pytorch_lightning, torch
print(f"lightning-venv: torch {torch.__version__}, pytorch_lightning {pytorch_lightning.__version__}: ok")
EOF
echo "$venv/bin/python"
