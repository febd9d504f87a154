"""Record what the real Lightning 2.x selects for every 1.5.10 case, passed *unchanged* through ``compat.lightning``.

Runs in the ``lightning`` tier's venv (``tools/lightning-venv.sh``), from anywhere::

    LPY="$(tools/lightning-venv.sh | tail -n1)"
    "$LPY" tools/reference/record_compat.py                 # -> tests/data/lightning-<2.x>-compat.json
    "$LPY" tools/reference/record_compat.py --out /tmp/x.json --only '^gpus'

The cases are those of ``tests/data/lightning-1.5.10.json`` that 1.5.10 could build (not ``unavailable``), with
their 1.5 keyword arguments as recorded, ``distributed_backend`` included (the shim takes it as the 1.5 flag). The
machine is faked exactly as ``record.py`` fakes it for 2.x: this module only adds ``compat.lightning.install()`` in
the parent before the per-case forks, and reuses ``record.py``'s runner (``record_runner``), hardware faking
(``record_machine``) and case run (``record_case``). The job's
environment is the one the migrated recording used (``tests.parity.real_target.job_environment``): 2.x refuses
SLURM's ``--ntasks`` without ``--ntasks-per-node``, shim or not (MIGRATION.md, "Cluster scripts"), so both 2.x
recordings run the job script the migration guide asks for, and differ only by the Python code.

The output has the format of the other reference files (``generate.write_reference``: header, one line per case),
so ``tests/parity/test_compat_lightning.py`` compares it without Lightning, and the tier
(``tests/compat/lightning/test_parity.py``) records it again and fails when it is stale.

The cases run as a script would: pytest is not imported here (the tier runs this file in a subprocess), so the
shim's test-suite launcher policy (``legacy_api.launch_policy``: ``ddp_spawn`` where 1.5 spawned) stays off, as it
does for the migrated recording, whose code is rendered as a script too.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT)]

import case_model  # noqa: E402
import extra_cases  # noqa: E402
import generate  # noqa: E402
import record_2x  # noqa: E402
import record_case  # noqa: E402
import record_lightning  # noqa: E402
import record_machine  # noqa: E402
import record_messages  # noqa: E402
import record_runner  # noqa: E402

REFERENCE = ROOT / "tests" / "data" / "lightning-1.5.10.json"


def out_path(version: str) -> Path:
    """Where the committed recording for Lightning ``version`` lives."""
    return ROOT / "tests" / "data" / f"lightning-{version}-compat.json"


def legacy_cases(only: str | None = None) -> list[extra_cases.ExtraCase]:
    """The 1.5.10 cases the old code could run, as given cases (their 1.5 kwargs, machine and job)."""
    from legacy_api.translate import translate
    from tests.parity.compat_lightning import translation
    from tests.parity.real_target import job_environment

    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))["results"]
    given = {
        case_id: {
            "kwargs": r["case"]["kwargs"],
            "hardware": r["case"]["hardware"],
            "env": job_environment(r["case"]),
            "interactive": bool(r["case"].get("interactive")),
            # What the shim was given to build: the default suite re-translates and so tells a stale recording.
            "translation": translation(translate(r["case"]["kwargs"])),
        }
        for case_id, r in reference.items()
        if r["outcome"] != "unavailable" and (only is None or re.search(only, case_id))
    }
    return extra_cases.parse(given)[0]


def _run_legacy_case(case: Any, sites: dict[str, list[str]]) -> dict[str, Any]:
    return record_case._run_case(case, sites, backend_as_accelerator=False)


def run(cases: list[extra_cases.ExtraCase], jobs: int, timeout: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """(meta, results): ``compat.lightning`` installed once here, then each case in its own forked child."""
    removed = record_machine._scrub_environment()
    pl = record_lightning._import_lightning()
    import torch

    import compat.lightning

    started = time.monotonic()
    compat.lightning.install()
    install_s = time.monotonic() - started
    results = record_runner.run_all(cases, max(1, jobs), timeout, _run_legacy_case)
    meta = {
        "lightning_version": pl.__version__,
        "torch_version": torch.__version__,
        "python_version": ".".join(map(str, sys.version_info[:3])),
        "elapsed_s": round(time.monotonic() - started, 1),
        "install_s": round(install_s, 3),
        "removed_env_vars": sorted(removed),
    }
    return meta, results


def verdicts(results: dict[str, Any]) -> dict[str, int]:
    """same / removed-feature errors / listed differences against 1.5.10, and against the migrated code."""
    from tests.parity import compat_lightning

    return compat_lightning.counts(results) if len(results) == len(compat_lightning.case_ids()) else {}


def header(meta: dict[str, Any], results: dict[str, Any], argv: list[str]) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for result in results.values():
        counts[result["outcome"]] = counts.get(result["outcome"], 0) + 1
    return {
        "lightning_version": meta["lightning_version"],
        "torch_version": meta["torch_version"],
        "python_version": meta["python_version"],
        "shim": "compat.lightning.install(), once in the parent before the per-case forks",
        "patches": record_2x.PATCHES,
        "ignored_warning_patterns": list(record_messages.IGNORED_WARNINGS),
        "scrubbed_env": {
            "prefixes": list(record_machine.SCRUBBED_ENV_PREFIXES),
            "vars": list(record_machine.SCRUBBED_ENV_VARS),
        },
        "registries": record_lightning._registries(),
        "base_kwargs": case_model.BASE_KWARGS,
        "date": datetime.date.today().isoformat(),
        "generator_command": " ".join(["tools/reference/record_compat.py", *argv]).strip(),
        "case_count": len(results),
        "outcome_counts": dict(sorted(counts.items())),
        "fields": {**generate.FIELDS, **record_2x.FIELD_NOTES},
        "note": "The 1.5.10 cases' own kwargs (distributed_backend passed as is) on real Lightning through"
        " compat.lightning, on the machine record.py fakes; env is the migrated job's (--ntasks-per-node for SLURM)."
        " 'warnings' holds the shim's deprecation warnings too.",
    }


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="default: tests/data/lightning-<2.x>-compat.json")
    parser.add_argument("--only", default=None, help="regex over case ids (a partial file: use with --out)")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (one forked child each)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is killed")
    args = parser.parse_args(argv)
    if args.only and args.out is None:
        parser.error("--only writes a partial file: pass --out somewhere else")
    cases = legacy_cases(args.only)
    meta, raw = run(cases, args.jobs, args.timeout)
    by_id = {case.id: case for case in cases}
    results = {case_id: {"case": by_id[case_id].as_dict(), **result} for case_id, result in raw.items()}
    out = args.out or out_path(meta["lightning_version"])
    head = header(meta, results, argv)
    generate.write_reference(out, head, results)
    print(
        f"{meta['lightning_version']} + compat.lightning: {len(results)} cases in {meta['elapsed_s']}s"
        f" (install {meta['install_s'] * 1e3:.0f} ms) {head['outcome_counts']} {verdicts(results)} -> {out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        # As record.py: 2.x messages list set members; a fixed seed keeps the recorded bytes the same run to run.
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    raise SystemExit(main())
