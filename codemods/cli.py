"""``migrate-trainer``: the command line. ``main(argv=None) -> int``."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from codemods import __version__
from legacy_api.renames import DEFAULT_TARGET, TARGET_VERSIONS

EXIT_CLEAN, EXIT_CHANGED, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3
_PROGRESS_MIN_FILES = 20

EPILOG = """\
exit codes:
  0  nothing to do
  1  files were changed (or would change, with --check/--diff); with --check, also while
     any TODO(migrate-trainer) is left (a comment in a file, or one a rule would write), and
     while a Trainer with no device flags is left that the target puts on every GPU instead
     of 1.x's one CPU (a report, not an error there), unless --accept-new-defaults
  2  usage error
  3  a file failed (it was left untouched); takes precedence over 1

configuration: [tool.migrate-trainer] in the nearest pyproject.toml, with keys
target-version, only, skip, exclude, jobs, respect-gitignore, accept-new-defaults (command-line
flags win).
"""


class _UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="migrate-trainer",
        description="Rewrite legacy (<= 1.5) Lightning code and configs to the strategy API.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders; '-' reads stdin, writes stdout")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--diff", action="store_true", help="print a unified diff instead of writing")
    mode.add_argument("--check", action="store_true", help="write nothing; exit 1 if anything would change")
    parser.add_argument("--only", action="append", metavar="RULE", help="run only this rule (repeatable)")
    parser.add_argument("--skip", action="append", metavar="RULE", help="do not run this rule (repeatable)")
    parser.add_argument("--list-rules", action="store_true", help="list the rules and exit")
    parser.add_argument("-j", "--jobs", type=int, default=None, help="parallel processes (default: all cores)")
    parser.add_argument(
        "--target-version",
        choices=TARGET_VERSIONS,
        default=None,
        help=f"apply deprecations up to this Lightning version (default: {DEFAULT_TARGET})",
    )
    parser.add_argument("--format", choices=("text", "json", "github", "sarif"), default="text", help="findings")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="text format: also list report-only findings (the summary counts them; json and sarif always carry them)",
    )
    parser.add_argument(
        "--accept-new-defaults",
        action="store_true",
        help="--check passes with Trainers left to the target's defaults (every GPU, with DDP, where 1.x used one CPU)",
    )
    parser.add_argument("--exclude", action="append", default=None, metavar="GLOB", help="skip matching paths")
    parser.add_argument("--no-gitignore", action="store_true", help="also process files .gitignore excludes")
    parser.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    parser.add_argument("--version", action="version", version=f"migrate-trainer {__version__}")
    return parser


def _config(start: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        return _read_config(start)
    return {}  # no TOML reader in the 3.10 standard library: no config file there


def _read_config(start: Path) -> dict[str, Any]:
    import tomllib  # type: ignore[import-not-found,unused-ignore]  # 3.11+, checked with python_version 3.10

    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise _UsageError(f"{candidate}: {exc}") from exc
            section = data.get("tool", {}).get("migrate-trainer", {})
            if not isinstance(section, dict):
                raise _UsageError(f"{candidate}: [tool.migrate-trainer] must be a table")
            return section
    return {}


def _as_list(value: Any, key: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise _UsageError(f"[tool.migrate-trainer] {key} must be a string or a list of strings")


def _selected_rules(only: list[str], skip: list[str]) -> frozenset[str] | None:
    if not only and not skip:
        return None  # without loading the rules (and libcst): a clean tree never needs them
    from codemods.rules import REGISTRY

    unknown = sorted(set(only + skip) - set(REGISTRY))
    if unknown:
        raise _UsageError(f"unknown rule(s): {', '.join(unknown)} (see --list-rules)")
    return frozenset(only or REGISTRY) - frozenset(skip)


def _list_rules() -> str:
    from codemods.rules import REGISTRY

    width = max(len(rule_id) for rule_id in REGISTRY)
    return "".join(f"{r.id:<{width}}  {r.deprecated_in:<4}  {r.description}\n" for r in REGISTRY.values())


class _Progress:
    """A one-line progress bar on stderr, only on a TTY and only when there are many files."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done = total, 0
        self.enabled = enabled and total >= _PROGRESS_MIN_FILES and sys.stderr.isatty()

    def __call__(self, _: object) -> None:
        self.done += 1
        if self.enabled:
            filled = 30 * self.done // self.total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total}")
            if self.done == self.total:
                sys.stderr.write("\r" + " " * 50 + "\r")
            sys.stderr.flush()


def _stdin(options: Any, mode: str, fmt: str, verbose: bool) -> int:
    from codemods.frontends.python import transform_python
    from codemods.report import count_todos, render
    from codemods.runner import FileResult, unified_diff

    text = sys.stdin.read()
    outcome = transform_python(text, options)
    status = "failed" if outcome.error else "changed" if outcome.changed else "unchanged"
    result = FileResult("-", status, outcome.findings, outcome.error)  # type: ignore[arg-type]
    if mode == "diff":
        sys.stdout.write(unified_diff("-", text, outcome.source))
    elif mode == "write":
        sys.stdout.write(outcome.source)
    sys.stderr.write(render([result], fmt, verbose))
    left = mode == "check" and count_todos([result]) > 0
    return EXIT_FAILED if outcome.error else EXIT_CHANGED if outcome.changed or left else EXIT_CLEAN


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``migrate-trainer`` console script."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.list_rules:
            sys.stdout.write(_list_rules())
            return EXIT_CLEAN
        if not args.paths:
            raise _UsageError("give at least one PATH (a file, a folder, or '-' for stdin)")
        config = _config(Path.cwd())
        from codemods.model import Options

        target = args.target_version or config.get("target-version", DEFAULT_TARGET)
        if target not in TARGET_VERSIONS:
            raise _UsageError(f"target-version {target!r}: choose one of {', '.join(TARGET_VERSIONS)}")
        only = args.only or _as_list(config.get("only"), "only")
        skip = args.skip or _as_list(config.get("skip"), "skip")
        options = Options(target=str(target), rules=_selected_rules(only, skip))
        mode = "diff" if args.diff else "check" if args.check else "write"
        if args.paths == ["-"]:
            return _stdin(options, mode, args.format, args.verbose)
        if "-" in args.paths:
            raise _UsageError("'-' (stdin) cannot be combined with other paths")
        missing = [p for p in args.paths if not os.path.exists(p)]
        if missing:
            raise _UsageError(f"no such file or folder: {', '.join(missing)}")
        jobs = args.jobs if args.jobs is not None else config.get("jobs")
        if jobs is not None and (not isinstance(jobs, int) or jobs < 1):
            raise _UsageError("--jobs must be a positive integer")
        excludes = (args.exclude or []) + _as_list(config.get("exclude"), "exclude")
        gitignore = not args.no_gitignore and bool(config.get("respect-gitignore", True))
        args.accept_new_defaults = args.accept_new_defaults or bool(config.get("accept-new-defaults", False))
    except _UsageError as exc:
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"migrate-trainer: error: {exc}\n")
        return EXIT_USAGE
    try:
        return _run(args, options, mode, jobs, excludes, gitignore)
    except BrokenPipeError:
        # The reader went away (``migrate-trainer src | head``): what was to be written is written; the rest of the
        # report has nowhere to go, and Python's flush at exit must not fail on it again (its documented recipe).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _run(args: Any, options: Any, mode: str, jobs: int | None, excludes: list[str], gitignore: bool) -> int:
    from codemods.files import discover_paths
    from codemods.report import count_new_defaults, count_todos, render, summary
    from codemods.runner import run

    paths = sorted(set(discover_paths(args.paths, excludes, gitignore, text=True)))
    progress = _Progress(len(paths), not args.no_progress)
    results = _with_yaml_todos(run(paths, mode, options, jobs, progress))  # type: ignore[arg-type]
    if mode == "diff":
        sys.stdout.write("".join(result.diff for result in results))
    stream = sys.stderr if mode == "diff" else sys.stdout
    stream.write(render(results, args.format, args.verbose))
    if args.format == "text":
        stream.write(summary(results, args.verbose))
    sys.stdout.flush()  # the closing line comes last also where stdout and stderr share a pipe
    changed = sum(result.status == "changed" for result in results)
    failed = sum(result.status == "failed" for result in results)
    verb = "rewrote" if mode == "write" else "would rewrite"
    todos = count_todos(results)
    left = f"; {todos} TODO(s) left" if todos else ""
    # A Trainer the target selects differently for without an error fails --check as a TODO does (issue 26).
    defaults = 0 if mode != "check" or args.accept_new_defaults else count_new_defaults(results)
    if defaults:
        left += f"; {defaults} Trainer(s) left to the target's defaults (--accept-new-defaults accepts them)"
    sys.stderr.write(f"migrate-trainer: {verb} {changed} of {len(results)} file(s){left}; {failed} failed\n")
    if failed:
        return EXIT_FAILED
    return EXIT_CHANGED if changed or (mode == "check" and (todos or defaults)) else EXIT_CLEAN


_YAML_TODO = re.compile(r"#\s*TODO\(migrate-trainer\):?\s*(?P<message>.*?)(?:\s+\[(?P<rule>[\w.-]+)\])?\s*$")


def _with_yaml_todos(results: list[Any]) -> list[Any]:
    """YAML files' TODO(migrate-trainer) comments from earlier runs, as todo findings (Python files get theirs
    from the rules): ``--check`` fails until they are acted on. A comment is a ``#`` after a line's start or
    after whitespace, outside quotes."""
    from dataclasses import replace

    from codemods.model import Finding
    from codemods.project.prefilter import TODO_MARKER

    out = []
    for result in results:
        if not result.path.endswith((".yaml", ".yml")) or result.status == "failed":
            out.append(result)
            continue
        try:
            text = Path(result.path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            out.append(result)
            continue
        if TODO_MARKER not in text:
            out.append(result)
            continue
        asked = {(f.rule, f.message) for f in result.findings if f.kind == "todo"}
        found = []
        for number, line in enumerate(text.splitlines(), 1):
            index = line.find("#")
            while index >= 0 and (line[:index].count('"') % 2 or line[:index].count("'") % 2):
                index = line.find("#", index + 1)  # inside a quoted scalar
            match = _YAML_TODO.match(line, index) if index >= 0 and TODO_MARKER in line[index:] else None
            if match is not None and (index == 0 or line[index - 1].isspace()):
                rule, message = match.group("rule") or "migrate-trainer", match.group("message")
                if (rule, message) not in asked:
                    found.append(Finding(rule, message, number, index + 1, "todo"))
        if found:
            findings = sorted((*result.findings, *found), key=lambda f: (f.line, f.column, f.rule, f.message))
            result = replace(result, findings=tuple(findings))
        out.append(result)
    return out


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
