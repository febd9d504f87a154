"""Regenerate ``legacy_api/data/surface_vocabulary.json`` from the recorded surfaces (see ``legacy_api.vocabulary``).

    python tools/reference/surface_vocabulary.py          # write it
    python tools/reference/surface_vocabulary.py --check  # exit 1 if it is out of date

Run it after ``surface_generate.py`` re-recorded ``legacy_api/data/api_surface.json``, or after editing
``legacy_api/hooks.py`` or ``legacy_api/keywords.py``. Seconds; nothing is installed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from legacy_api.vocabulary import PATH, build  # noqa: E402


def render() -> str:
    return json.dumps(build(), indent=0, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is out of date")
    args = parser.parse_args()
    target = ROOT / "legacy_api" / PATH
    text = render()
    if args.check:
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            print(f"{target.relative_to(ROOT)} is out of date: run python tools/reference/surface_vocabulary.py")
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
