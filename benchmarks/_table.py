"""Shared helpers for the benchmark scripts: repeat, take medians, print a table with ratios."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One measured subject: its name and the samples (seconds) of each repetition."""

    name: str
    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


def time_call(fn: Callable[[], object], repeat: int) -> tuple[float, ...]:
    """Wall time of ``fn()``, ``repeat`` times."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return tuple(samples)


def time_command(argv: Sequence[str], repeat: int, **kwargs: object) -> tuple[float, ...]:
    """Wall time of a whole command, ``repeat`` times; a failing command aborts the benchmark."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, **kwargs)  # type: ignore[call-overload]
        samples.append(time.perf_counter() - start)
    return tuple(samples)


def interleaved(subjects: dict[str, Callable[[], tuple[float, ...]]], rounds: int) -> list[Result]:
    """Measure the subjects in turns, so that machine noise hits all of them alike."""
    samples: dict[str, list[float]] = {name: [] for name in subjects}
    for _ in range(rounds):
        for name, measure in subjects.items():
            samples[name].extend(measure())
    return [Result(name, tuple(values)) for name, values in samples.items()]


def print_table(title: str, results: list[Result], baseline: str, unit: str = "ms", scale: float = 1e3) -> None:
    """A markdown table: median, min, and each subject's median as a ratio of the baseline's."""
    base = next(r for r in results if r.name == baseline).median
    print(f"\n### {title}\n")
    print(f"| subject | median ({unit}) | min ({unit}) | ratio to {baseline} |")
    print("|---|---:|---:|---:|")
    for r in results:
        print(f"| {r.name} | {r.median * scale:.1f} | {min(r.samples) * scale:.1f} | {r.median / base:.2f} |")
    sys.stdout.flush()
