"""Compute every place where our selection differs from the recorded Lightning releases.

    python tools/reference/divergences.py          # update tests/data/divergences.json
    python tools/reference/divergences.py --check  # exit 1 if the table is out of date

The table lists each divergence once: case id, what Lightning did, what we do, and why. Existing
``why`` texts are kept; a new divergence gets the reason of the first matching rule in REASONS, or
an empty reason, which makes the parity test fail until a person writes one. Each suite is a
function (ours -> selection) over a filtered set of cases of one release.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.parity import harness  # noqa: E402

#: (suite, regex on the case id, regex on the json of the difference) -> why. First match wins.
REASONS: list[tuple[str, str, str, str]] = [
    ("newcore", r"hpu", "", "HPU (Habana) accelerators and strategies are out of this project's scope."),
    (
        "newcore",
        r"accelerator='(GPU|cuda|mps|xla|foo|)'|accelerator=3",
        "",
        "Lightning 1.6.5 silently fell back to the CPU for accelerator values it did not know; newcore refuses"
        " unknown names (listing the valid ones), reads names case-insensitively and knows 'cuda' and 'mps'.",
    ),
    (
        "newcore",
        r"strategy='(dp|ddp2)'|DataParallelStrategy\(\)|DDP2Strategy\(\)",
        r"outcome",
        "dp/ddp2 on the CPU: Lightning warned and ran ddp; newcore raises and tells you to pass strategy='ddp',"
        " accelerator='cpu' (no silent fallbacks).",
    ),
    (
        "newcore",
        r"strategy='ddp_(fork|notebook)'",
        "",
        "ddp_fork/ddp_notebook arrived in Lightning 1.7; newcore has them.",
    ),
    (
        "newcore",
        r"precision='(16|32|64|16-mixed)'|precision=None",
        "",
        "String precisions failed in 1.6.5 ('No precision set'); newcore accepts them and the 2.0 spellings,"
        " and precision=None means the default (32).",
    ),
    ("newcore", r"num_nodes=(0|-1)|devices=-2", "", "Lightning accepted non-positive counts; newcore refuses them."),
    ("newcore", r"devices='2' \| cpu\+ipu", "", "newcore parses digit strings alike for every accelerator."),
    (
        "newcore",
        r"plugins=\[\w+\(.*\)\], precision=16",
        "",
        "A precision flag that disagrees with the precision plugin passed is a conflict in newcore, not a silent"
        " preference for the plugin.",
    ),
    (
        "newcore",
        r"horovod",
        r"outcome",
        "Horovod takes its process count from horovodrun: newcore refuses devices>1 with strategy='horovod'.",
    ),
    (
        "newcore",
        r"horovod",
        r"num_devices",
        "Under horovodrun newcore gives each process its own device (read from horovod at setup); Lightning listed"
        " every local device on the strategy.",
    ),
    (
        "newcore",
        r"SingleTPUStrategy\(1\)|TPUSpawnStrategy\(\)|tpu_spawn_debug",
        "",
        "A strategy that runs only on TPUs implies accelerator='tpu' in newcore; Lightning attached the CPU.",
    ),
    (
        "newcore",
        r"accelerator='tpu_spawn'",
        "",
        "A strategy name in accelerator= is a legacy spelling: compat maps it.",
    ),
    (
        "newcore",
        r"strategy='single_device', accelerator='cpu', devices=2",
        "",
        "A single-device strategy with several devices is refused rather than dropping devices silently.",
    ),
]


def newcore_suite() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    from newcore import AcceleratorConnector

    for case_id, record in sorted(harness.load("1.6.5").items()):
        if record["outcome"] == "unavailable" or not harness.is_new_api(record["case"]):
            continue
        yield case_id, harness.lightning_selection(record), harness.run(record["case"], AcceleratorConnector)


def compat_suite() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    import compat

    for case_id, record in sorted(harness.load("1.5.10").items()):
        if record["outcome"] == "unavailable":
            continue
        ours = harness.run(record["case"], compat.AcceleratorConnector, harness.compat_class)
        yield case_id, harness.lightning_selection(record), ours


SUITES: dict[str, tuple[str, Callable[[], Iterator[tuple[str, dict[str, Any], dict[str, Any]]]]]] = {
    "newcore": ("1.6.5", newcore_suite),
    "compat": ("1.5.10", compat_suite),
}


def compute(suite: str) -> dict[str, dict[str, str]]:
    """The divergences of one suite, with the reasons REASONS gives (empty when none matches)."""
    found = {}
    for case_id, theirs, ours in SUITES[suite][1]():
        diff = harness.differences(ours, theirs)
        if diff:
            found[case_id] = {
                "lightning": harness.summary(theirs),
                "ours": harness.summary(ours),
                "why": reason(suite, case_id, json.dumps(diff)),
            }
    return found


def reason(suite: str, case_id: str, diff: str) -> str:
    for rule_suite, case_pattern, diff_pattern, why in REASONS:
        if rule_suite == suite and re.search(case_pattern, case_id) and re.search(diff_pattern, diff):
            return why
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    current = json.loads(harness.DIVERGENCES.read_text()) if harness.DIVERGENCES.exists() else {}
    fresh: dict[str, Any] = {}
    for suite, (version, _) in SUITES.items():
        old = current.get(suite, {}).get("cases", {})
        cases = compute(suite)
        for case_id, entry in cases.items():
            if old.get(case_id, {}).get("why"):
                entry["why"] = old[case_id]["why"]
        fresh[suite] = {"against": f"pytorch-lightning {version}", "cases": cases}
    text = json.dumps(fresh, indent=1, sort_keys=True) + "\n"
    if args.check:
        return 0 if harness.DIVERGENCES.exists() and harness.DIVERGENCES.read_text() == text else 1
    harness.DIVERGENCES.write_text(text)
    missing = [c for s in fresh.values() for c, e in s["cases"].items() if not e["why"]]
    print(f"{sum(len(s['cases']) for s in fresh.values())} divergences; {len(missing)} without a reason")
    for case_id in missing:
        print("  no reason:", case_id)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
