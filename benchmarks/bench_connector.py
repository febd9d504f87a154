"""Connector resolution: newcore's AcceleratorConnector against Lightning 1.6.5's, same flags, same faked 4-GPU box.

Lightning runs in its throwaway venv (tools/reference/generate.py makes it). Target: >= 3x faster.

    python benchmarks/bench_connector.py [--repeat 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

from _table import Result, print_table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
LIGHTNING = ROOT / "tools" / "reference" / ".venvs" / "1.6.5" / "bin" / "python"

#: Representative new-API flag sets, valid in both.
CASES: dict[str, dict[str, object]] = {
    "defaults": {},
    "cpu x2": {"accelerator": "cpu", "devices": 2},
    "gpu x1 fp16": {"accelerator": "gpu", "devices": 1, "precision": 16},
    "gpu x4 ddp": {"accelerator": "gpu", "devices": 4, "strategy": "ddp"},
    "gpu '0,2' sharded": {"accelerator": "gpu", "devices": "0,2", "strategy": "ddp_sharded", "precision": 16},
    "auto bf16": {"accelerator": "auto", "precision": "bf16"},
    "2 nodes": {"accelerator": "gpu", "devices": 2, "num_nodes": 2},
}


def ours(repeat: int) -> dict[str, list[float]]:
    from newcore import AcceleratorConnector
    from newcore.probe import FakeProbe, use_probe

    out = {}
    with use_probe(FakeProbe(cuda=4)), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, flags in CASES.items():
            AcceleratorConnector(**flags)  # type: ignore[arg-type]
            samples = []
            for _ in range(repeat):
                start = time.perf_counter()
                AcceleratorConnector(**flags)  # type: ignore[arg-type]
                samples.append(time.perf_counter() - start)
            out[name] = samples
    return out


def theirs(repeat: int) -> dict[str, list[float]]:
    child = Path(__file__).with_name("_lightning_connector.py")
    done = subprocess.run(
        [str(LIGHTNING), str(child), json.dumps(CASES), str(repeat)], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not LIGHTNING.exists():
        raise SystemExit(f"{LIGHTNING} is missing: run python tools/reference/generate.py first")
    samples: dict[str, dict[str, list[float]]] = {"newcore": {}, "lightning 1.6.5": {}}
    for _ in range(args.rounds):  # alternate, so that machine noise hits both alike
        for who, measure in (("newcore", ours), ("lightning 1.6.5", theirs)):
            for name, values in measure(args.repeat).items():
                samples[who].setdefault(name, []).extend(values)
    ratios = []
    for name in CASES:
        results = [Result(who, tuple(samples[who][name])) for who in samples]
        print_table(f"AcceleratorConnector(**{CASES[name]})  [{name}]", results, "lightning 1.6.5", "µs", 1e6)
        ratios.append(results[1].median / results[0].median)
    print(f"\nnewcore is {statistics.geometric_mean(ratios):.1f}x faster (geometric mean over {len(CASES)} flag sets)")


if __name__ == "__main__":
    main()
