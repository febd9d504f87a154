"""Record the closed loop on the real target: every 1.5.10 case, migrated at the default target, run on real 2.x.

    python tools/reference/migrated.py            # -> tests/data/lightning-<2.x>-migrated.json
    python tools/reference/migrated.py --check    # exit 1 when the recording no longer matches today's codemod

Runs in the project's venv (it imports ``codemods`` and ``tests.parity.real_target``); the recording itself runs in
the throwaway venv of the newest 2.x release through ``generate.py --cases-json``. Each recorded case keeps the
migrated ``source`` and the rules that left a TODO, so ``tests/parity/test_real_target.py`` can tell a stale
recording (the codemod changed since) from a real difference. Rerun after every codemod change that alters a
migrated call; ``--check`` says whether one did (about 20 s, no Lightning needed).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.parity import harness, real_target  # noqa: E402

#: The newest 2.x release the project records (make_venvs.py pins it; the default --target-version follows it).
VERSION = "2.6.6"
OUT = ROOT / "tests" / "data" / f"lightning-{VERSION}-migrated.json"


def cases() -> dict[str, dict[str, Any]]:
    """Case id (the 1.5.10 one) -> the migrated case, for every 1.5.10 case the release could run."""
    reference = harness.load("1.5.10")
    return {
        case_id: real_target.migrated_case(record["case"])
        for case_id, record in sorted(reference.items())
        if record["outcome"] != "unavailable"
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare the recording with today's codemod")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    fresh = cases()
    if args.check:
        data = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
        changed = real_target.stale(data, fresh)
        for case_id in changed[:20]:
            print(f"stale: {case_id}", file=sys.stderr)
        print(f"{len(changed)} of {len(fresh)} cases differ from the recording", file=sys.stderr)
        return 1 if changed else 0
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import generate

    with tempfile.TemporaryDirectory(prefix="plref-migrated-") as tmp:
        path = Path(tmp) / "migrated-cases.json"
        path.write_text(json.dumps(fresh, sort_keys=True, indent=1), encoding="utf-8")
        generate.generate(VERSION, OUT, args.jobs, None, ["(run by tools/reference/migrated.py)"], cases_json=path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
