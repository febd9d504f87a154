#!/usr/bin/env bash
# Build (once) and install Horovod 0.28.1 with PyTorch + Gloo into a venv.
#
#   tools/install-horovod.sh [PYTHON]
#
# PYTHON is the target venv's interpreter; without it the active venv's `python` is used.
#
# Why a script: Horovod 0.28.1 is the last release and ships no wheels, and its sdist pins
# C++14, while torch >= 2.1 headers need C++17. So we patch CMAKE_CXX_STANDARD to 17 in the two
# CMakeLists.txt that set it, and build with --no-build-isolation so the extension compiles
# against the torch already in the target venv (an isolated build would pull a different one).
#
# The wheel binds to torch's C++ ABI, so the cache key is (horovod, python tag, torch version):
#   ${LIGHTNING_MIGRATE_CACHE:-~/.cache/lightning-migrate}/horovod/<key>/horovod-*.whl
# A cache hit installs in seconds; a build takes ~10-15 minutes on 2 cores.
set -euo pipefail

HOROVOD_VERSION=0.28.1
cache_root="${LIGHTNING_MIGRATE_CACHE:-$HOME/.cache/lightning-migrate}"

if [ $# -ge 1 ]; then
    py="$1"
elif [ -n "${VIRTUAL_ENV:-}" ]; then
    py="$VIRTUAL_ENV/bin/python"
else
    echo "install-horovod: no PYTHON given and no active venv; pass the venv's python" >&2
    exit 2
fi
if ! "$py" -c 'import torch' 2>/dev/null; then
    echo "install-horovod: $py cannot import torch; install torch into that venv first" >&2
    exit 2
fi

key="$("$py" - <<'EOF'
import sys, torch
print(f"cp{sys.version_info[0]}{sys.version_info[1]}-torch{torch.__version__.replace('+', '_')}")
EOF
)"
wheel_dir="$cache_root/horovod/$HOROVOD_VERSION-$key"
mkdir -p "$cache_root/horovod"

# Build-time and runtime dependencies (small): --no-build-isolation means they must be present.
"$py" -m pip install --quiet setuptools wheel cffi cloudpickle psutil pyyaml packaging

# One build at a time per cache (CI and a developer shell may both call this).
exec 9>"$cache_root/horovod/.lock"
flock 9

if ! ls "$wheel_dir"/horovod-*.whl >/dev/null 2>&1; then
    echo "install-horovod: building horovod $HOROVOD_VERSION for $key (cache miss)" >&2
    start=$(date +%s)
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    "$py" -m pip download --quiet "horovod==$HOROVOD_VERSION" --no-deps --no-binary :all: -d "$work"
    tar -xzf "$work/horovod-$HOROVOD_VERSION.tar.gz" -C "$work"
    src="$work/horovod-$HOROVOD_VERSION"
    for f in "$src/CMakeLists.txt" "$src/horovod/torch/CMakeLists.txt"; do
        grep -q 'set(CMAKE_CXX_STANDARD 14)' "$f" || {
            echo "install-horovod: $f no longer sets C++14; the patch needs updating" >&2
            exit 1
        }
        sed -i 's/set(CMAKE_CXX_STANDARD 14)/set(CMAKE_CXX_STANDARD 17)/' "$f"
    done
    # setup.py passes -j8 to make unless MAKEFLAGS is set; -j8 on a 2-core box only thrashes.
    MAKEFLAGS="-j$(nproc)" \
        HOROVOD_WITH_PYTORCH=1 HOROVOD_WITH_GLOO=1 HOROVOD_WITHOUT_MPI=1 \
        HOROVOD_WITHOUT_TENSORFLOW=1 HOROVOD_WITHOUT_MXNET=1 \
        "$py" -m pip wheel --no-build-isolation --no-deps -w "$work/dist" "$src"
    # Publish atomically so an interrupted build never looks like a cache hit.
    mkdir -p "$wheel_dir.tmp"
    cp "$work"/dist/horovod-*.whl "$wheel_dir.tmp/"
    rm -rf "$wheel_dir"
    mv "$wheel_dir.tmp" "$wheel_dir"
    echo "install-horovod: built in $(($(date +%s) - start)) s -> $wheel_dir" >&2
else
    echo "install-horovod: using cached wheel in $wheel_dir" >&2
fi

"$py" -m pip install --quiet --force-reinstall --no-deps "$wheel_dir"/horovod-*.whl
# Fail here, not in the tests, if the extension does not load or lacks PyTorch/Gloo support.
"$py" - <<'EOF'
import horovod.torch as hvd
assert hvd.gloo_built(), "horovod was built without Gloo"
print(f"install-horovod: horovod {__import__('horovod').__version__} ok (torch + gloo)")
EOF
