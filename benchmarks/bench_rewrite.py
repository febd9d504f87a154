"""The rewrite path of migrate-trainer against bare libcst, LibCST's own codemod CLI and grep.

    python benchmarks/bench_rewrite.py [--files 40] [--check-files 5] [--cli-files 10] [--rounds 3] [--only abcde]

Prints markdown tables (medians of interleaved rounds, ratios to a baseline measured in the same run):

a. in-process, on the generated legacy files: ``libcst.parse_module(text).code`` vs ``transform_python``
   (target: migrate-trainer within 1.25x of bare parse+codegen);
b. whole commands: ``migrate-trainer -j2`` vs ``python -m libcst.tool codemod -j2`` running the same renames
   (``libcst_equivalent.py``), rewriting a fresh copy of the legacy files, and in check mode (``-u 0``, no
   writes) on a mostly clean tree (a few legacy files plus the ruamel.yaml sources) (targets: 3x, 20x faster);
c. ``migrate-trainer --check`` vs ``grep -rlE <trigger>`` on a mostly clean tree (the torch sources plus a
   few legacy files) (target: within 3x);
d. ``--check -j1`` vs ``-j2`` on the legacy files (target: 1.7x on two cores);
e. peak RSS of the worker processes for a tree and a 4x larger one (target: flat).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _table import Result, interleaved, print_table, time_call, time_command
from make_tree import make_tree

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
MIGRATE = [str(BIN / "migrate-trainer"), "--no-progress"]
LIBCST = [sys.executable, "-m", "libcst.tool", "codemod", "-x", "libcst_equivalent.LegacyRenamesCommand", "--no-format"]
#: Every Python subprocess runs from bytecode, as an installed tool does (pip compiles it): a shell with
#: PYTHONDONTWRITEBYTECODE=1 would otherwise time the compilation of every module at every run (70 ms of a
#: --check). The cache lives outside the tree; :func:`_warm_bytecode` fills it before anything is timed.
BYTECODE = {
    **{key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONPYCACHEPREFIX": str(Path.home() / ".cache" / "lightning-migrate" / "pycache"),
}
ENV = {**BYTECODE, "PYTHONPATH": f"{ROOT / 'benchmarks'}{os.pathsep}{ROOT}"}


def _ok(argv: list[str], rounds: int, **kwargs: object) -> tuple[float, ...]:
    """Time a command whose exit status says "would change" (1) as often as it says "clean" (0)."""
    kwargs.setdefault("env", BYTECODE)
    return time_command(["sh", "-c", '"$@" >/dev/null 2>&1; [ $? -le 1 ]', "sh", *argv], rounds, **kwargs)


def _warm_bytecode(legacy: Path) -> None:
    """Run each kind of command once, untimed, so that the bytecode cache holds every module they load."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = _fresh_copy(legacy, Path(tmp))
        for flags in (["--check", "-j2"], ["--diff", "-j1"], ["-j2"]):
            subprocess.run([*MIGRATE, *flags, str(copy)], env=BYTECODE, capture_output=True, check=False)
    subprocess.run([sys.executable, "-c", "import libcst.tool, libcst.codemod"], env=ENV, check=True)


def in_process(legacy: Path, rounds: int) -> None:
    import libcst as cst

    from codemods.frontends.python import transform_python
    from codemods.model import Options

    texts = [path.read_text(encoding="utf-8") for path in sorted(legacy.rglob("*.py"))]
    lines = sum(text.count("\n") for text in texts)
    subjects = {
        "libcst parse+code": lambda: time_call(lambda: [cst.parse_module(t).code for t in texts], 1),
        "migrate-trainer 1.6": lambda: time_call(lambda: [transform_python(t, Options("1.6")) for t in texts], 1),
        "migrate-trainer 2.0": lambda: time_call(lambda: [transform_python(t, Options("2.0")) for t in texts], 1),
        "migrate-trainer 2.6": lambda: time_call(lambda: [transform_python(t, Options("2.6")) for t in texts], 1),
    }
    results = interleaved(subjects, rounds)
    print_table(f"a. In-process, {len(texts)} legacy files, {lines} lines", results, "libcst parse+code")


def _fresh_copy(source: Path, scratch: Path) -> Path:
    target = scratch / "copy"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    return target


def commands(legacy: Path, mostly_clean: Path, rounds: int, libcst_cli: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        subjects = {
            "migrate-trainer -j2": lambda: _ok([*MIGRATE, "-j2", str(_fresh_copy(legacy, scratch))], 1),
        }
        if libcst_cli:
            subjects["libcst.tool codemod -j2"] = lambda: _ok(
                [*LIBCST, "-j2", str(_fresh_copy(legacy, scratch))], 1, env=ENV
            )
        print_table(
            "b1. Rewrite the legacy files in place (fresh copy each time)",
            interleaved(subjects, rounds),
            "migrate-trainer -j2",
            unit="s",
            scale=1,
        )
    subjects = {"migrate-trainer --check -j2": lambda: _ok([*MIGRATE, "--check", "-j2", str(mostly_clean)], 1)}
    results = interleaved(subjects, rounds)
    if libcst_cli:  # minutes per run: measured once, right after
        samples = _ok([*LIBCST, "-j2", "-u", "0", str(mostly_clean)], 1, env=ENV)
        results.append(Result("libcst.tool codemod -u 0 -j2", samples))
    print_table(
        f"b2. Check a mostly clean tree ({mostly_clean.name})",
        results,
        "migrate-trainer --check -j2",
        unit="s",
        scale=1,
    )


_PARSE_MATCHES = (
    "import sys, libcst; [libcst.parse_module(open(p.strip(), encoding=chr(117)+chr(116)+chr(102)+chr(56)).read()).code"
    " for p in sys.stdin if p.strip().endswith(chr(46)+chr(112)+chr(121))]"
)


def check_vs_grep(tree: Path, rounds: int) -> None:
    from codemods.project.prefilter import grep_pattern

    pattern, clean = grep_pattern(), str(tree / "clean")
    _ok([*MIGRATE, "--check", "-j2", str(tree)], 1)  # untimed: its docs and text files' modules into the cache
    floor = f"grep -rlE '{pattern}' {tree} | {sys.executable} -c '{_PARSE_MATCHES}'"
    subjects = {
        "grep -rlE trigger": lambda: _ok(["grep", "-rlE", pattern, str(tree)], 1),
        "grep, then libcst parse+code of the matches": lambda: _ok(["sh", "-c", floor], 1),
        "migrate-trainer --check -j1": lambda: _ok([*MIGRATE, "--check", "-j1", str(tree)], 1),
        "migrate-trainer --check -j2": lambda: _ok([*MIGRATE, "--check", "-j2", str(tree)], 1),
        "grep -rlE trigger, clean part only": lambda: _ok(["grep", "-rlE", pattern, clean], 1),
        "migrate-trainer --check -j1, clean part only": lambda: _ok([*MIGRATE, "--check", "-j1", clean], 1),
    }
    print_table(
        f"c. --check vs grep on a mostly clean tree ({tree.name})", interleaved(subjects, rounds), "grep -rlE trigger"
    )


def _busy(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def jobs(legacy: Path, rounds: int) -> None:
    import multiprocessing

    subjects = {
        "--check -j1": lambda: _ok([*MIGRATE, "--check", "-j1", str(legacy)], 1),
        "--check -j2": lambda: _ok([*MIGRATE, "--check", "-j2", str(legacy)], 1),
    }
    print_table(
        "d. One worker vs two, on the legacy files", interleaved(subjects, rounds), "--check -j1", unit="s", scale=1
    )
    # What two processes can gain on this machine at all: the same pure-Python loop, serially and in parallel.
    serial = time_call(lambda: [_busy(10**7), _busy(10**7)], 1)[0]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        parallel = time_call(lambda: pool.map(_busy, [10**7, 10**7]), 1)[0]
    print(
        f"\nCalibration: a busy loop twice takes {serial:.2f} s serially, {parallel:.2f} s in two processes "
        f"(speed-up {serial / parallel:.2f}x is this machine's ceiling for -j2)."
    )


_PROBE = """
import resource, sys
from codemods.model import Options
from codemods.files import discover
from codemods.runner import run
paths = sorted({str(p) for p in discover([sys.argv[1]])})
run(paths, "check", Options(), jobs=2)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def rss(files: int, seed: int) -> None:
    print("\n### e. Peak RSS (KiB), --check -j2\n")
    print("| legacy files | largest worker | parent |")
    print("|---:|---:|---:|")
    for count in (files, 4 * files):
        legacy = make_tree(count, seed, "libcst") / "legacy"
        done = subprocess.run([sys.executable, "-c", _PROBE, str(legacy)], capture_output=True, text=True, check=True)
        worker, parent = done.stdout.split()
        print(f"| {count} | {worker} | {parent} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=40, help="legacy files of the rewrite tree")
    parser.add_argument("--check-files", type=int, default=5, help="legacy files in the mostly clean trees")
    parser.add_argument("--cli-files", type=int, default=10, help="legacy files for item b (LibCST's CLI is slow)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-libcst-cli", action="store_true", help="skip the (slow) LibCST CLI subjects")
    parser.add_argument("--only", default="abcde", help="which items to run, e.g. 'ac'")
    args = parser.parse_args()
    legacy = make_tree(args.files, args.seed, "libcst") / "legacy"
    _warm_bytecode(legacy)
    if "a" in args.only:
        in_process(legacy, args.rounds)
    if "b" in args.only:
        cli_legacy = make_tree(args.cli_files, args.seed, "libcst") / "legacy"
        mostly_clean = make_tree(args.check_files, args.seed, "ruamel.yaml")
        commands(cli_legacy, mostly_clean, args.rounds, not args.no_libcst_cli)
    if "c" in args.only:
        check_vs_grep(make_tree(args.check_files, args.seed, "torch"), max(args.rounds, 5))
    if "d" in args.only:
        jobs(legacy, args.rounds)
    if "e" in args.only:
        rss(args.files, args.seed)
    print(f"\nmaxrss of this script's children: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} KiB")


if __name__ == "__main__":
    main()
