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

import reasons_compat  # noqa: E402  (the reasons tables next to this script: stdlib-only data)
import reasons_migrated  # noqa: E402
import reasons_newcore  # noqa: E402
import reasons_real_2x  # noqa: E402

from tests.parity import harness  # noqa: E402

# compat.lightning's suites keep their reasons next to the verdicts (tests/parity/compat_lightning.py).
from tests.parity.compat_lightning import REASONS as _COMPAT_LIGHTNING_REASONS  # noqa: E402

#: (suite, regex on the case id, regex on the json of the difference) -> why. First match within a suite wins.
REASONS: list[tuple[str, str, str, str]] = [
    *reasons_newcore.REASONS,
    *reasons_compat.REASONS,
    *reasons_migrated.REASONS,
    *reasons_real_2x.REASONS,
]

REASONS += _COMPAT_LIGHTNING_REASONS


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


def migrated_suite() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each 1.5.10 case as source, through migrate-trainer, into newcore; compared with compat on the original."""
    from tests.parity import closed_loop

    for case_id, record in sorted(harness.load("1.5.10").items()):
        if record["outcome"] == "unavailable":
            continue
        ours, _ = closed_loop.run(record["case"])
        yield case_id, closed_loop.compat_selection(record["case"]), ours


def real_target_suite() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each 1.5.10 case as source, migrated at the default target, as real 2.x ran it (recorded)."""
    from tests.parity import real_target

    recorded = json.loads((harness.DATA / "lightning-2.6.6-migrated.json").read_text(encoding="utf-8"))["results"]
    for case_id, record in sorted(harness.load("1.5.10").items()):
        if record["outcome"] == "ok":
            theirs, ours, _ = real_target.verdict(record, recorded.get(case_id))
            yield case_id, theirs, ours


def compat_lightning_suite(suite: str) -> Callable[[], Iterator[tuple[str, dict[str, Any], dict[str, Any]]]]:
    """The 1.5.10 cases through compat.lightning on real 2.x (recorded by record_compat.py), that differ."""

    def rows() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
        from tests.parity import compat_lightning

        yield from compat_lightning.suite_rows(suite)

    return rows


#: suite -> (what it is compared against, the suite).
SUITES: dict[str, tuple[str, Callable[[], Iterator[tuple[str, dict[str, Any], dict[str, Any]]]]]] = {
    "newcore": ("pytorch-lightning 1.6.5", newcore_suite),
    "compat": ("pytorch-lightning 1.5.10", compat_suite),
    "migrated": (
        "compat on the original 1.5 flags (pytorch-lightning 1.5.10 where the compat table lists no divergence);"
        " ours: newcore on the code migrate-trainer --target-version 1.9 wrote",
        migrated_suite,
    ),
    "real-2.x": (
        "pytorch-lightning 1.5.10 on the original flags; ours: real pytorch-lightning 2.6.6 on the code"
        " migrate-trainer wrote at its default target (recorded by tools/reference/migrated.py)",
        real_target_suite,
    ),
    "compat.lightning": (
        "pytorch-lightning 1.5.10 on the original flags; ours: the same flags, unchanged, through compat.lightning on"
        " real pytorch-lightning 2.6.6 (recorded by tools/reference/record_compat.py); not listed: the cases where"
        " the shim raises its error for a feature 2.x removed",
        compat_lightning_suite("compat.lightning"),
    ),
    "compat.lightning-vs-migrated": (
        "real pytorch-lightning 2.6.6 on the code migrate-trainer wrote; ours: the original flags through"
        " compat.lightning on the same 2.6.6",
        compat_lightning_suite("compat.lightning-vs-migrated"),
    ),
}


def _differences(suite: str, ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    if suite.startswith("compat.lightning"):
        from tests.parity import compat_lightning

        return compat_lightning.differences(ours, theirs)
    if suite == "real-2.x":
        from tests.parity import real_target

        return real_target.differences(ours, theirs)
    return harness.differences(ours, theirs)


def _summary(suite: str, selected: dict[str, Any]) -> str:
    if suite == "real-2.x" or suite.startswith("compat.lightning"):
        from tests.parity import real_target

        return real_target.summary(selected)
    return harness.summary(selected)


def compute(suite: str) -> dict[str, dict[str, str]]:
    """The divergences of one suite, with the reasons REASONS gives (empty when none matches)."""
    found = {}
    for case_id, theirs, ours in SUITES[suite][1]():
        diff = _differences(suite, ours, theirs)
        if diff:
            found[case_id] = {
                "lightning": _summary(suite, theirs),
                "ours": _summary(suite, ours),
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
    for suite, (against, _) in SUITES.items():
        old = current.get(suite, {}).get("cases", {})
        cases = compute(suite)
        for case_id, entry in cases.items():
            if old.get(case_id, {}).get("why"):
                entry["why"] = old[case_id]["why"]
        fresh[suite] = {"against": against, "cases": cases}
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
