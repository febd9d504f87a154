#!/usr/bin/env bash
# GPU checks for newcore's runtime (a few minutes at most): CUDA single device, NCCL DDP over the
# available GPUs, mixed precision, and CUDA memory back to its baseline after teardown.
# Prints one line per check; exit status 1 if any check failed.
set -euo pipefail
cd "$(dirname "$0")/.."
exec timeout 300 "${PYTHON:-python}" tools/gpu_check.py
