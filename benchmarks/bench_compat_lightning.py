"""Cost of compat.lightning on the real Lightning 2.x: ``install()`` and a Trainer construction, against plain 2.x.

Runs with the ``lightning`` tier's python (real Lightning 2.x, no project install needed; run from anywhere)::

    LPY="$(tools/lightning-venv.sh | tail -n1)"
    "$LPY" benchmarks/bench_compat_lightning.py [--rounds 5] [--repeat 30]

Every subject runs in a fresh interpreter, in turns with the others (machine noise hits all alike):

* ``install()`` cold: the first call in a process that has imported ``pytorch_lightning`` (the shim's own cost;
  the import is paid with or without it), and the whole process (``import pytorch_lightning`` + ``install()``)
  against ``import pytorch_lightning`` alone; ``install()`` again: the second call (idempotent).
* a ``Trainer`` construction (the median of ``--repeat`` after one warm-up; CPU, no logger or checkpointing):
  plain 2.x flags without the shim (the baseline), the same flags with the shim installed, and the 1.5 flags
  that select the same through the shim.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from _table import Result, print_table, time_command

ROOT = Path(__file__).resolve().parents[1]

QUIET = {"logger": False, "enable_checkpointing": False, "enable_progress_bar": False, "enable_model_summary": False}
#: subject -> (shim installed?, Trainer kwargs); each 1.5 row selects what the 2.x row above it selects.
TRAINERS: dict[str, tuple[bool, dict[str, object]]] = {
    "2.x flags, plain 2.x": (False, {"accelerator": "cpu", "devices": 2, "strategy": "ddp"}),
    "2.x flags, shim installed": (True, {"accelerator": "cpu", "devices": 2, "strategy": "ddp"}),
    "1.5 flags, shim": (True, {"accelerator": "ddp_cpu", "num_processes": 2}),
    "2.x one CPU, plain 2.x": (False, {"accelerator": "cpu", "devices": 1}),
    "2.x one CPU, shim installed": (True, {"accelerator": "cpu", "devices": 1}),
    "1.5 one CPU, shim": (True, {"gpus": 0}),
}

#: A child measuring one Trainer subject: prints the samples (seconds) as JSON on its last line.
_TRAINER_CHILD = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
import pytorch_lightning as pl
shim, kwargs, repeat = json.loads(sys.argv[1])
if shim:
    import compat.lightning
    compat.lightning.install()
pl.Trainer(**kwargs)
samples = []
for _ in range(repeat):
    start = time.perf_counter()
    pl.Trainer(**kwargs)
    samples.append(time.perf_counter() - start)
print(json.dumps(samples))
"""

#: A child timing install() (first call, then the second) after importing Lightning.
_INSTALL_CHILD = """
import json, time, warnings
warnings.simplefilter("ignore")
import pytorch_lightning
import compat.lightning
start = time.perf_counter()
compat.lightning.install()
first = time.perf_counter() - start
start = time.perf_counter()
compat.lightning.install()
second = time.perf_counter() - start
assert compat.lightning.installed()
print(json.dumps([first, second]))
"""


def _child(code: str, *args: str) -> list[float]:
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"benchmark child failed:\n{done.stderr[-3000:]}")
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="fresh processes per subject")
    parser.add_argument("--repeat", type=int, default=30, help="Trainer constructions per process")
    args = parser.parse_args()

    py = sys.executable
    quiet = "import warnings; warnings.simplefilter('ignore'); "
    samples: dict[str, list[float]] = {}
    for _ in range(args.rounds):  # every subject once per round, in turns
        first, second = _child(_INSTALL_CHILD)
        samples.setdefault("install() first call", []).append(first)
        samples.setdefault("install() second call", []).append(second)
        for name, code in (
            ("import pytorch_lightning", quiet + "import pytorch_lightning"),
            ("import pytorch_lightning + install()", quiet + "import compat.lightning; compat.lightning.install()"),
        ):
            samples.setdefault(name, []).extend(time_command([py, "-c", code], 1, cwd=ROOT))
        for name, (shim, kwargs) in TRAINERS.items():
            payload = json.dumps([shim, {**QUIET, **kwargs}, args.repeat])
            samples.setdefault(name, []).append(statistics.median(_child(_TRAINER_CHILD, payload)))

    def results(*names: str) -> list[Result]:
        return [Result(name, tuple(samples[name])) for name in names]

    import pytorch_lightning

    print(f"pytorch_lightning {pytorch_lightning.__version__}, python {sys.version.split()[0]}")
    print_table(
        "Process start: importing Lightning, with and without install()",
        results("import pytorch_lightning", "import pytorch_lightning + install()"),
        "import pytorch_lightning",
    )
    print_table(
        "install() in a process that imported Lightning (fresh process each round)",
        results("install() first call", "install() second call"),
        "install() first call",
        "µs",
        1e6,
    )
    for group in (list(TRAINERS)[:3], list(TRAINERS)[3:]):
        flags = ", ".join(f"{k}={v!r}" for k, v in TRAINERS[group[2]][1].items())
        print_table(
            f"Trainer(...) construction, median of {args.repeat} per process (1.5 row: {flags})",
            results(*group),
            group[0],
        )


if __name__ == "__main__":
    main()
