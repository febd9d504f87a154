"""Record the API surface of every Lightning release and write ``legacy_api/data/api_surface.json``.

Usage::

    python tools/reference/surface_generate.py                 # all releases of surface_envs.RELEASE_PINS
    python tools/reference/surface_generate.py --date 2026-01-01 --out /tmp/s.json 1.5.10 2.6.6

Builds the environments (``surface_envs``), runs ``surface_record.py`` in each (two at a time), keeps each
full recording in ``--full-dir`` (outside the repository; the tests compare against them when present) and writes the
compact file: the first release in full, then each later release as its changes from the one before. The
layout is fixed (sorted keys, one value a line), so the same releases and date give the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import date as Date
from pathlib import Path
from typing import Any

import surface_envs

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
OUT = REPO / "legacy_api" / "data" / "api_surface.json"
FULL_DIR = surface_envs.ROOT / "surface-full"

#: map -> how one entry's value changes: "set" (a sorted list, stored as added/removed), "class" (``bases``
#: replaced whole, ``members`` as a set, ``signatures`` as a map of values), "value" (replaced whole).
#: ``unimportable`` is a set itself.
MAPS = {
    "modules": "set",
    "classes": "class",
    "aliases": "value",
    "graveyard": "value",
    "deprecated": "value",
}
SETS = ("unimportable",)


def canonical(surface: dict[str, Any]) -> str:
    """The text the digest is taken of: only the surface's maps, compact, sorted."""
    maps = {key: surface[key] for key in (*MAPS, *SETS)}
    return json.dumps(maps, sort_keys=True, separators=(",", ":"))


def digest(surface: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(surface).encode()).hexdigest()


def set_delta(old: list[str], new: list[str]) -> dict[str, list[str]]:
    delta = {"added": sorted(set(new) - set(old)), "removed": sorted(set(old) - set(new))}
    return {key: value for key, value in delta.items() if value}


def value_delta(kind: str, old: Any, new: Any) -> Any:
    if kind == "set":
        return set_delta(old, new)
    if kind == "class":
        delta: dict[str, Any] = {}
        if old["bases"] != new["bases"]:
            delta["bases"] = new["bases"]
        if old["members"] != new["members"]:
            delta["members"] = set_delta(old["members"], new["members"])
        if old["signatures"] != new["signatures"]:
            delta["signatures"] = map_delta("value", old["signatures"], new["signatures"])
        return delta
    return new


def map_delta(kind: str, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    delta = {
        "added": {key: new[key] for key in sorted(new.keys() - old.keys())},
        "removed": sorted(old.keys() - new.keys()),
        "changed": {
            key: value_delta(kind, old[key], new[key])
            for key in sorted(old.keys() & new.keys())
            if old[key] != new[key]
        },
    }
    return {key: value for key, value in delta.items() if value}


def changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {"release": new["release"]}
    for name, kind in MAPS.items():
        if delta := map_delta(kind, old[name], new[name]):
            found[name] = delta
    for name in SETS:
        if delta := set_delta(old[name], new[name]):
            found[name] = delta
    return found


def compact(recordings: list[dict[str, Any]], generator: str, when: str) -> dict[str, Any]:
    """The data file's content for ``recordings`` (oldest first)."""
    return {
        "format": 1,
        "root": "pytorch_lightning",
        "generator": generator,
        "date": when,
        "releases": [rec["release"] for rec in recordings],
        "pins": {rec["release"]: surface_envs.pins(rec["release"]) for rec in recordings},
        "patched": {rec["release"]: rec["patched"] for rec in recordings if rec["patched"]},
        "digests": {rec["release"]: digest(rec) for rec in recordings},
        "base": {key: recordings[0][key] for key in (*MAPS, *SETS)},
        "changes": [changes(old, new) for old, new in itertools.pairwise(recordings)],
    }


def dumps(data: dict[str, Any]) -> str:
    """One stable layout: sorted keys, each top-level entry and each map entry on a line of its own."""
    lines = ["{"]
    for index, key in enumerate(sorted(data)):
        comma = "," if index < len(data) - 1 else ""
        value = data[key]
        if key in ("base", "changes"):
            items = sorted(value.items()) if isinstance(value, dict) else list(enumerate(value))
            inner = [
                (f"{json.dumps(k)}:" if isinstance(value, dict) else "")
                + json.dumps(v, sort_keys=True, separators=(",", ":"))
                for k, v in items
            ]
            opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
            lines.append(f"{json.dumps(key)}:{opening}\n" + ",\n".join(inner) + f"\n{closing}{comma}")
        else:
            lines.append(f"{json.dumps(key)}:{json.dumps(value, sort_keys=True, separators=(',', ':'))}{comma}")
    return "\n".join(lines) + "\n}\n"


def record(version: str, full_dir: Path) -> dict[str, Any]:
    surface_envs.make_target(version)
    out = full_dir / f"{version}.json"
    cmd = [str(surface_envs.base_python()), str(HERE / "surface_record.py"), version, "--out", str(out)]
    print("+ recording", version, file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, env=surface_envs.child_env(version), cwd=full_dir)
    recording: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return recording


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*", default=list(surface_envs.VERSIONS), metavar="VERSION")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--full-dir", type=Path, default=FULL_DIR, help="where each full recording is kept")
    parser.add_argument("--date", help="the header's date (default: the existing file's, else today)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    versions = sorted(args.versions, key=lambda v: tuple(int(part) for part in v.split(".")))
    unknown = sorted(set(versions) - set(surface_envs.VERSIONS))
    if unknown:
        parser.error(f"no pins for {unknown}; known: {', '.join(surface_envs.VERSIONS)}")
    when = args.date
    if when is None and args.out.exists():
        when = json.loads(args.out.read_text(encoding="utf-8"))["date"]
    when = when or Date.today().isoformat()
    surface_envs.make_base()
    args.full_dir.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        recordings = list(pool.map(lambda version: record(version, args.full_dir), versions))
    chosen = "" if tuple(versions) == surface_envs.VERSIONS else " " + " ".join(versions)
    generator = f"python tools/reference/surface_generate.py --date {when}{chosen}"
    text = dumps(compact(recordings, generator, when))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {len(text.encode()):,} bytes, {len(versions)} releases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
