"""Regenerate ``tests/data/lightning-<version>.json`` from the real Lightning releases.

The one command::

    python tools/reference/generate.py            # every release (1.5.10, 1.6.5, 2.6.6), writes tests/data/
    python tools/reference/generate.py 1.6.5      # one release
    python tools/reference/generate.py --only '^precision'  --out-dir /tmp/ref   # a slice, elsewhere
    python tools/reference/generate.py 2.6.6 --cases-json cases.json --out tests/data/NAME.json  # given cases

It builds the throwaway venvs when missing (``make_venvs.py``), runs ``record.py`` inside each
venv over every case of ``cases.py`` (or of a ``--cases-json`` file, see ``extra_cases.py``) and writes
one JSON file per release: a header (versions, pins, patches, date, command) and one line per case,
sorted by case id, so a regeneration diffs line by line. Real Lightning is never imported by this process.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

import case_model  # noqa: E402
import cases as case_table  # noqa: E402
import extra_cases  # noqa: E402
import make_venvs  # noqa: E402
import record_2x  # noqa: E402  (stdlib at import; its field notes only)

DEFAULT_OUT = REPO / "tests" / "data"

FIELDS = {
    "case": "the inputs: group, Trainer kwargs (instances as {'__class__', 'args', 'kwargs'}), faked hardware,"
    " cluster env vars, interactive flag; BASE_KWARGS in the header are added to every call",
    "outcome": "'ok' (Trainer built), 'error' (it raised), 'unavailable' (a class the case names does not exist"
    " in this release; nothing was run)",
    "error": "{type, message} of the exception; 'phase' says whether building an instance or the Trainer raised",
    "warnings": "warnings raised while building the Trainer, {category, message}, first occurrence order, deduplicated",
    "instance_warnings": "warnings raised while building the instances passed in the kwargs (e.g. 1.6 *Plugin"
    " deprecations)",
    "logs": "INFO+ records of the pytorch_lightning loggers (rank_zero_info), deduplicated",
    "selected.strategy": "class name of trainer.training_type_plugin (1.5) / trainer.strategy (1.6)",
    "selected.accelerator": "class name of trainer.accelerator",
    "selected.precision_plugin": "class name; precision_plugin_{precision,device,backend,amp_level} when present",
    "selected.cluster_environment": "class name of strategy.cluster_environment (null: the strategy has none);"
    " connector_cluster_environment is what the accelerator connector selected",
    "selected.parallel_devices": "str() of strategy.parallel_devices (1.5 TPU: core indices)",
    "selected.root_device": "str(strategy.root_device)",
    "selected.find_unused_parameters": "strategy._ddp_kwargs at construction; '<unset>' means DDP's"
    " pre_configure_ddp() fills in True at setup",
    "selected.launcher*": "1.6: launcher class, its start method and is_interactive_compatible",
    "selected.trainer": "Trainer-level properties, old and new names (read with deprecation warnings silenced)",
}


def _run_record(version: str, jobs: int, only: str | None, cases_json: Path | None) -> dict[str, Any]:
    python = make_venvs.make_venv(version)
    with tempfile.TemporaryDirectory(prefix="plref-") as tmp:
        raw = Path(tmp) / f"{version}.json"
        cmd = [str(python), str(HERE / "record.py"), version, "--out", str(raw), "--jobs", str(jobs)]
        if only:
            cmd += ["--only", only]
        if cases_json:
            cmd += ["--cases-json", str(cases_json.resolve())]
        subprocess.run(cmd, check=True, cwd=tmp)
        return json.loads(raw.read_text())


def _versions(python: Path) -> dict[str, str]:
    probe = (
        "import json, importlib.metadata as m\n"
        "names = ['pytorch-lightning', 'torch', 'torchmetrics', 'numpy', 'setuptools', 'fairscale', 'pyDeprecate',"
        " 'tensorboard', 'protobuf', 'fsspec', 'PyYAML', 'tqdm', 'packaging', 'typing_extensions', 'future',"
        " 'lightning-utilities', 'aiohttp']\n"
        "out = {}\n"
        "for n in names:\n"
        "    try: out[n] = m.version(n)\n"
        "    except m.PackageNotFoundError: pass\n"
        "print(json.dumps(out))\n"
    )
    return json.loads(subprocess.run([str(python), "-c", probe], check=True, capture_output=True, text=True).stdout)


def write_reference(path: Path, header: dict[str, Any], results: dict[str, Any]) -> None:
    """Header pretty-printed, then one line per case: small, deterministic, line-diffable."""
    lines = ["{", '"header": ' + json.dumps(header, sort_keys=True, indent=1) + ",", '"results": {']
    items = sorted(results.items())
    for i, (case_id, result) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(json.dumps(case_id) + ": " + json.dumps(result, sort_keys=True) + comma)
    lines += ["}", "}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def generate(
    version: str, out: Path, jobs: int, only: str | None, argv: list[str], cases_json: Path | None = None
) -> Path:
    """Record ``version`` and write ``out`` (a file path)."""
    started = time.monotonic()
    raw = _run_record(version, jobs, only, cases_json)
    meta = raw["meta"]
    by_id: dict[str, case_model.Case | extra_cases.ExtraCase]
    if cases_json:
        by_id = {case.id: case for case in extra_cases.load(cases_json)[0]}
    else:
        by_id = {case.id: case for case in case_table.all_cases()}
    results = {}
    counts: dict[str, int] = {}
    for case_id, result in raw["results"].items():
        results[case_id] = {"case": by_id[case_id].as_dict(), **result}
        counts[result["outcome"]] = counts.get(result["outcome"], 0) + 1
    installed = _versions(make_venvs.venv_python(version))
    header = {
        "lightning_version": meta["lightning_version"],
        "torch_version": meta["torch_version"],
        "python_version": meta["python_version"],
        "installed": installed,
        "pins": make_venvs.pins(version),
        "patches": meta["patches"],
        "ignored_warning_patterns": meta["ignored_warning_patterns"],
        "scrubbed_env": meta["scrubbed_env"],
        "registries": meta["registries"],
        "base_kwargs": case_model.BASE_KWARGS,
        "date": datetime.date.today().isoformat(),
        "generator_command": " ".join(["python", "tools/reference/generate.py", *argv]).strip(),
        "case_count": len(results),
        "outcome_counts": dict(sorted(counts.items())),
        "fields": {**FIELDS, **record_2x.FIELD_NOTES} if int(version.split(".")[0]) >= 2 else FIELDS,
        "note": "Recorded by constructing pytorch_lightning.Trainer with faked hardware; see tools/reference/README.md."
        " Cases whose kwargs contain distributed_backend were passed as accelerator= (1.4 semantics).",
    }
    if cases_json:
        header["cases_json"] = cases_json.name
        header["not_recorded"] = meta["not_recorded"]
    path = out
    path.parent.mkdir(parents=True, exist_ok=True)
    write_reference(path, header, results)
    size = path.stat().st_size
    print(
        f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}: {len(results)} cases {counts},"
        f" {size / 1e6:.2f} MB, {time.monotonic() - started:.0f}s",
        file=sys.stderr,
    )
    return path


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*", default=list(make_venvs.VERSIONS), metavar="VERSION")
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT, help="default: tests/data")
    parser.add_argument("--jobs", type=int, default=2, help="cases recorded at once per release (default 2)")
    parser.add_argument("--only", default=None, help="regex over case ids (partial files: use with --out-dir)")
    parser.add_argument(
        "--cases-json", type=Path, default=None, help="record the cases of this file instead (extra_cases.py format)"
    )
    parser.add_argument("--out", type=Path, default=None, help="output file; required with --cases-json")
    args = parser.parse_args(argv)
    unknown = set(args.versions) - set(make_venvs.VERSIONS)
    if unknown:
        parser.error(f"unknown version(s) {sorted(unknown)}; known: {list(make_venvs.VERSIONS)}")
    if args.only and args.out_dir.resolve() == DEFAULT_OUT.resolve():
        parser.error("--only writes partial files; pass --out-dir somewhere else")
    if args.cases_json:
        if len(args.versions) != 1 or args.out is None:
            parser.error("--cases-json records one release into one file: pass one VERSION and --out FILE")
        try:
            extra_cases.load(args.cases_json)
        except (OSError, ValueError) as error:
            parser.error(f"--cases-json {args.cases_json}: {error}")
        generate(args.versions[0], args.out, args.jobs, args.only, argv, args.cases_json)
        return 0
    if args.out is not None:
        parser.error("--out goes with --cases-json; the standard files go to --out-dir")
    for version in args.versions:
        generate(version, args.out_dir / f"lightning-{version}.json", args.jobs, args.only, argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
