"""Record what a real Lightning release selects when a ``Trainer`` is built, for every case in ``cases.py``.

Runs *inside* one of the throwaway reference venvs (see ``make_venvs.py``); ``generate.py`` drives it::

    tools/reference/.venvs/1.5.10/bin/python tools/reference/record.py 1.5.10 --out /tmp/1.5.10.json

How it stays fast and isolated: the parent imports ``pytorch_lightning`` once, then forks one
child per case (``--jobs`` children at a time). The child fakes the case's hardware and cluster,
builds the ``Trainer``, describes what was selected and sends one JSON object back through a pipe,
then exits without running any cleanup. Nothing a case does (registries, environment variables,
monkeypatches, module globals) can leak into another case.

Faked hardware never reaches a device: every patch is applied at the edge Lightning reads
(``torch.cuda`` queries, Lightning's own ``_*_AVAILABLE`` constants and the vendor modules it
imported under them). The exact list is ``record_machine.PATCHES`` (1.x) or ``record_2x.PATCHES`` (2.x) and goes
into the JSON header. ``--cases-json FILE`` records the cases of a JSON file (``extra_cases.py``) instead.

This module is the command line; the recording is split by concept: ``record_lightning`` (the import, once),
``record_runner`` (the forks), ``record_case`` (one case in its child), ``record_machine`` (the faked machine),
``record_describe`` (the selection as JSON) and ``record_messages`` (errors, warnings, logs as stable data).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cases as case_table  # noqa: E402  (stdlib-only data module next to this file)
import extra_cases  # noqa: E402  (likewise: --cases-json)
import record_2x  # noqa: E402  (imports Lightning only when called)
import record_messages  # noqa: E402  (the modules below: stdlib at import, Lightning only when called)
from record_lightning import _import_lightning, _is_2x, _registries  # noqa: E402
from record_machine import PATCHES, SCRUBBED_ENV_PREFIXES, SCRUBBED_ENV_VARS, _scrub_environment  # noqa: E402
from record_messages import IGNORED_WARNINGS  # noqa: E402
from record_runner import run_all  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record real Lightning's Trainer selections (run inside a venv).")
    parser.add_argument("version", help="expected pytorch_lightning.__version__")
    parser.add_argument("--out", required=True, help="where to write the raw results (JSON)")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (one forked child each)")
    parser.add_argument("--only", default=None, help="regex; record only matching case ids")
    parser.add_argument("--cases-json", default=None, help="record the cases of this file (extra_cases.py format)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is killed")
    parser.add_argument("--traceback", action="store_true", help="add tracebacks to errors (debugging)")
    args = parser.parse_args(argv)
    record_messages._WITH_TRACEBACK = args.traceback

    removed = _scrub_environment()
    pl = _import_lightning()
    if pl.__version__ != args.version:
        print(f"expected pytorch_lightning {args.version}, found {pl.__version__}", file=sys.stderr)
        return 2
    import torch

    not_recorded: dict[str, str] = {}
    if args.cases_json:
        selected, not_recorded = extra_cases.load(args.cases_json)
    else:
        selected = case_table.all_cases()
    if args.only:
        selected = [c for c in selected if re.search(args.only, c.id)]
    started = time.monotonic()
    results = run_all(selected, max(1, args.jobs), args.timeout)
    elapsed = time.monotonic() - started
    meta = {
        "lightning_version": pl.__version__,
        "torch_version": torch.__version__,
        "python_version": ".".join(map(str, sys.version_info[:3])),
        "patches": record_2x.PATCHES if _is_2x(pl.__version__) else PATCHES,
        "ignored_warning_patterns": list(IGNORED_WARNINGS),
        "scrubbed_env": {"prefixes": list(SCRUBBED_ENV_PREFIXES), "vars": list(SCRUBBED_ENV_VARS)},
        "registries": _registries(),
        "elapsed_s": round(elapsed, 1),
        "removed_env_vars": sorted(removed),
    }
    if args.cases_json:
        meta["not_recorded"] = not_recorded
    Path(args.out).write_text(json.dumps({"meta": meta, "results": results}, sort_keys=True, indent=1) + "\n")
    counts: dict[str, int] = {}
    for r in results.values():
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    print(f"{pl.__version__}: {len(results)} cases in {elapsed:.1f}s {counts}", file=sys.stderr)
    return 0



if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        # Some messages list the members of a set (2.x: the accelerator names); a fixed hash seed keeps
        # their order, and so the recorded bytes, the same from run to run.
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    raise SystemExit(main())
