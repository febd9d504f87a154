"""migrate-trainer on real public projects written for Lightning <= 1.5 (issue 10, item 7).

    python benchmarks/bench_corpus.py [--mirrors /work/.mirror] [--project NAME ...] [--heldout]
                                      [--keep DIR] [--json PATH] [--target-version 2.6]

The projects are listed in ``benchmarks/corpus/manifest.json`` (repository, commit, sub-folders); their code is
never committed here. Each one is materialised from a git mirror (``git archive <commit> | tar -x``; the
``fetch`` tool puts mirrors under ``/work/.mirror/<owner>+<name>/``), copied fresh three times and rewritten in
place by ``python -m codemods.cli`` (at its default target) with ``-j1``, ``-j2`` and ``-j1`` again; the first
result is then rewritten once more. Reported per project and in total:

* files (py / yaml / other) and how many the first run changed;
* legacy uses before and after, by this script's own detector (``ast`` for Python, regexes elsewhere), so a
  miss of the codemod is not hidden by sharing its notion of "legacy";
* ``TODO(migrate-trainer)`` markers left;
* wrong-looking outputs: (a) a config key that was removed or renamed in a YAML file while the project still
  reads it (``cfg.trainer.gpus``, ``cfg["trainer"]["gpus"]``, ``trainer.gpus=`` overrides); (b) two strategies
  for one Trainer (``strategy`` next to a strategy object in ``plugins``, or ``strategy=`` beside
  ``**cfg.trainer`` while a YAML config sets ``strategy:``); (c) Python or YAML that parsed before and not after;
  YAML diff lines that touch no migrated key; ``#`` comments present before and missing after;
* determinism (the three runs byte-identical) and idempotency (the second write run changes nothing);
* wall time of each run.

Missing mirrors are listed and skipped; the script then still exits 0 (CI does not run it).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tokenize
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_coverage import Coverage, measure

from codemods.files import RUN_ARTEFACTS
from legacy_api.removed_arguments import REMOVED_ARGUMENTS
from legacy_api.renames import DEFAULT_TARGET

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "benchmarks" / "corpus" / "manifest.json"
DEFAULT_MIRRORS = Path("/work/.mirror")
TODO_MARK = "TODO(migrate-trainer)"
RE_TODO_RULE = re.compile(r"TODO\(migrate-trainer\):.*\[([a-z_]+)\]\s*$", re.M)
LIST_CAP = 200  # entries kept per list in the JSON report

# ---------------------------------------------------------------------------------------------------------
# Why a TODO finding is there (the "TODO findings" column). "removed": the target removed or changed what the
# finding concerns and nothing in it keeps the 1.x meaning exactly (argparse helpers, ``Trainer.num_gpus``-style
# properties whose 2.x value differs, arguments 2.0 dropped, apex, FairScale, the CPU default); the tool read
# everything, and the choice is the user's. "unread": the tool's own limit, a TODO it could have avoided: a value
# it could not read (not a literal, a flag that may name a strategy, flags not visible here, a sweep), or a change
# it left for the user to coordinate (a config key that code elsewhere still reads: rule ``project_guard``).
# First match wins, so a tool limit stays "unread" where its message also says when the argument went away
# ("distributed_backend=x is not a literal (distributed_backend= was removed in 1.5)"); no match is "unread".

#: (cause, rule or "" for any, pattern searched in the message), tried in order.
TODO_CAUSES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("unread", "project_guard", re.compile("")),  # a key code elsewhere reads, an override it left, two strategies
    ("unread", "", re.compile(r"\bnot a literal\b|\bnot visible\b|\bmay (?:name|hold|come from|choose)\b")),
    ("unread", "", re.compile(r"\bcannot (?:tell|read|be written)\b|\bdoes not parse\b|\bnot migrated\b")),
    ("unread", "", re.compile(r"\bleft as it is\b|\bmigrate them together\b")),  # overrides, stores, subclasses
    ("unread", "", re.compile(r"(?:^|; )trainer\.\w+=\S* is (?:an? |None, )")),  # an override value it cannot read
    ("unread", "", re.compile(r"\bdrop it for native AMP\b|\bif it is 16\b")),  # amp_backend=x, precision=x
    ("removed", "", re.compile(r"\bgone\b|\bremoved\b|\bno longer\b|\bdeprecated in\b|\bapex\b")),
    ("removed", "", re.compile(r"\bmoved (?:out of|to the)\b|\bleft Lightning\b|\bhas no strategy in\b")),
    ("removed", "", re.compile(r"\b2\.0 defaults to\b|\bselects differently\b|\brefuses\b|\bnot FairScale\b")),
    ("removed", "", re.compile(r"\bcannot run in a notebook\b|\bwhich needs torch_xla\b")),
)
TODO_CAUSE_DEFAULT = "unread"


def todo_cause(rule: str, message: str) -> str:
    """``removed`` or ``unread`` for one TODO finding of the CLI (``TODO_CAUSES``)."""
    for cause, only, pattern in TODO_CAUSES:
        if (not only or only == rule) and pattern.search(message):
            return cause
    return TODO_CAUSE_DEFAULT


PY_SUFFIXES = (".py",)
YAML_SUFFIXES = (".yaml", ".yml")
TEXT_SUFFIXES = (".md", ".rst", ".txt", ".sh", ".bash", ".cfg", ".ini", ".toml", ".ipynb", ".json", ".slurm", "")
SKIP_DIRS = {".git", "__pycache__", ".mypy_cache", ".pytest_cache", "node_modules"}

# ---------------------------------------------------------------------------------------------------------
# The legacy detector (independent of codemods: it must be able to disagree with the codemod).

PLUGIN_CLASSES = (
    "DDPPlugin",
    "DDP2Plugin",
    "DDPSpawnPlugin",
    "DDPShardedPlugin",
    "DDPSpawnShardedPlugin",
    "DDPFullyShardedPlugin",
    "FullyShardedPlugin",
    "DeepSpeedPlugin",
    "DataParallelPlugin",
    "HorovodPlugin",
    "TPUSpawnPlugin",
    "SingleTPUPlugin",
    "SingleDevicePlugin",
    "ParallelPlugin",
    "TrainingTypePlugin",
    "IPUPlugin",
    "ShardedPlugin",
)
FLAG_NAMES = ("gpus", "tpu_cores", "ipus", "num_processes", "distributed_backend", "amp_backend", "amp_level")
ENUM_NAMES = ("DistributedType", "DeviceType", "_StrategyType", "DeviceType")
STRATEGY_STRINGS = (
    "ddp",
    "ddp_spawn",
    "ddp2",
    "dp",
    "ddp_cpu",
    "ddp_sharded",
    "ddp_sharded_spawn",
    "ddp_fully_sharded",
    "ddp_spawn_find_unused_parameters_false",
    "ddp_find_unused_parameters_false",
    "deepspeed",
    "horovod",
    "tpu_spawn",
    "fsdp",
)
# Trainer properties that Lightning 1.6-2.0 deprecated or removed (read on a trainer object).
TRAINER_PROPERTIES = (
    "gpus",
    "num_gpus",
    "root_gpu",
    "tpu_cores",
    "ipus",
    "num_processes",
    "data_parallel_device_ids",
    "training_type_plugin",
    "distributed_backend",
    "use_amp",
    "_distrib_type",
    "_device_type",
    "devices",
    "accelerator_connector",
)
TRAINER_OWNERS = ("self", "pl_module", "module", "model", "lightning_module", "self.model", "self.pl_module")
# YAML keys that a migration may rewrite; a diff line touching none of them is churn.
MIGRATED_KEYS = (
    "gpus",
    "tpu_cores",
    "ipus",
    "num_processes",
    "accelerator",
    "strategy",
    "devices",
    "distributed_backend",
    "amp_backend",
    "amp_level",
    "plugins",
    "precision",
    "auto_select_gpus",
    "replace_sampler_ddp",
    "use_distributed_sampler",
    "class_path",
    "_target_",
    # Trainer arguments later releases removed (codemods rule removed_arguments) and the flags they became
    *(row.name for row in REMOVED_ARGUMENTS),
    *(row.renamed for row in REMOVED_ARGUMENTS if row.renamed),
)

_ALT_PLUGINS = "|".join(PLUGIN_CLASSES)
_ALT_FLAGS = "|".join(FLAG_NAMES)
_ALT_STRATS = "|".join(sorted(STRATEGY_STRINGS, key=len, reverse=True))
RE_PLUGIN = re.compile(rf"\b(?:{_ALT_PLUGINS})\b")
RE_ENUM = re.compile(r"\b(?:DistributedType|DeviceType|_StrategyType)\b")
RE_TTP = re.compile(r"\btraining_type_plugin\b")
RE_FLAG_KW = re.compile(rf"(?<![\w.\-])(?:{_ALT_FLAGS})\s*=(?!=)")
RE_CLI_FLAG = re.compile(rf"(?<![\w.])--(?:{_ALT_FLAGS})\b(?!\.)")
RE_ACC_STRAT = re.compile(rf"""\baccelerator\s*[=:]\s*['"]?(?:{_ALT_STRATS})['"]?(?![\w])""")
RE_OVERRIDE = re.compile(rf"""(?:^|[\s'"(\[,])[+~]{{0,2}}trainer\.(?:{_ALT_FLAGS})=""")
RE_OVERRIDE_ACC = re.compile(rf"""(?:^|[\s'"(\[,])[+~]{{0,2}}trainer\.accelerator=['"]?(?:{_ALT_STRATS})\b""")
RE_YAML_KEY = re.compile(rf"^\s*(?:-\s+)?(?:{_ALT_FLAGS})\s*:")
RE_YAML_ACC = re.compile(rf"""^\s*(?:-\s+)?accelerator\s*:\s*['"]?(?:{_ALT_STRATS})['"]?\s*(?:#.*)?$""")
RE_PROP_TEXT = re.compile(rf"\b(?:self\.)?trainer\.(?:{'|'.join(TRAINER_PROPERTIES[:9])})\b(?!\s*=)")


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    if isinstance(node, ast.Call):
        return _dotted(node.func) + "()"
    return ""


def _is_trainer_call(call: ast.Call) -> bool:
    name = _dotted(call.func).rsplit(".", 1)[-1]
    return "Trainer" in name or name in ("from_argparse_args", "from_argparse_args()") or name.endswith("CLI")


def _const_str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class _PyDetector(ast.NodeVisitor):
    """Legacy uses in one module; each hit keeps its line and the line of the statement holding it."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.hits: list[tuple[str, str, int, int]] = []
        self._stmt = 1

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            outer, self._stmt = self._stmt, node.lineno
            super().visit(node)
            self._stmt = outer
        else:
            super().visit(node)

    def _hit(self, category: str, node: ast.AST, n: int = 1, name: str = "") -> None:
        self.counts[category] += n
        self.hits += [(category, name, getattr(node, "lineno", self._stmt), self._stmt)] * n

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in PLUGIN_CLASSES:
            self._hit("plugin_class", node, name=node.id)
        elif node.id in ENUM_NAMES:
            self._hit("enum", node, name=node.id)

    def visit_alias(self, node: ast.alias) -> None:
        base = node.name.rsplit(".", 1)[-1]
        if base in PLUGIN_CLASSES:
            self._hit("plugin_class", node, name=base)
        elif base in ENUM_NAMES:
            self._hit("enum", node, name=base)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in PLUGIN_CLASSES:
            self._hit("plugin_class", node, name=node.attr)
        elif node.attr in ENUM_NAMES:
            self._hit("enum", node, name=node.attr)
        elif node.attr in TRAINER_PROPERTIES and isinstance(node.ctx, ast.Load):
            owner = _dotted(node.value)
            last = owner.rsplit(".", 1)[-1]
            if node.attr == "training_type_plugin":
                self._hit("trainer_property", node, name=node.attr)
            elif last == "trainer" or last.endswith("_trainer"):
                root = owner.rsplit(".", 1)[0] if "." in owner else ""
                if owner == "trainer" or root in TRAINER_OWNERS or last.endswith("_trainer"):
                    self._hit("trainer_property", node, name=node.attr)
                elif node.attr in FLAG_NAMES:
                    self._hit("config_read", node, name=node.attr)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _is_trainer_call(node):
            for kw in node.keywords:
                if kw.arg in FLAG_NAMES:
                    self._hit("flag_kwarg", kw, name=kw.arg)
                elif kw.arg == "accelerator" and _const_str(kw.value) in STRATEGY_STRINGS:
                    self._hit("accelerator_strategy", kw, name="accelerator")
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        for key, value in zip(node.keys, node.values, strict=True):
            name = _const_str(key)
            if name in FLAG_NAMES and key is not None:
                self._hit("flag_key", key, name=name)
            elif name == "accelerator" and key is not None and _const_str(value) in STRATEGY_STRINGS:
                self._hit("accelerator_strategy", key, name="accelerator")
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if (
                isinstance(target, ast.Subscript)
                and _const_str(target.slice) == "accelerator"
                and _const_str(node.value) in STRATEGY_STRINGS
            ):
                self._hit("accelerator_strategy", target, name="accelerator")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        name = _const_str(node.slice)
        if name in FLAG_NAMES:
            inner = node.value
            if isinstance(inner, ast.Subscript) and _const_str(inner.slice) == "trainer":
                self._hit("config_read", node, name=name)
            elif isinstance(node.ctx, ast.Store):
                self._hit("flag_key", node, name=name)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            text = node.value
            n = len(RE_OVERRIDE.findall(text)) + len(RE_OVERRIDE_ACC.findall(text))
            if n:
                self._hit("override", node, n)


def _py_hits(text: str) -> _PyDetector | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    det = _PyDetector()
    det.visit(tree)
    return det


def detect(rel: str, text: str) -> Counter[str]:
    """Legacy uses in one file, by category."""
    text = _code_lines(rel, text)
    kind = file_kind(rel)
    if kind == "py":
        det = _py_hits(text)
        return det.counts if det is not None else _detect_text(text, yaml=False)
    return _detect_text(text, yaml=kind == "yaml")


def _has_todo_near(lines: Sequence[str], name: str, hit_line: int, stmt_line: int) -> bool:
    """A TODO marker naming ``name`` right above the statement, or between its start and the hit."""
    near: list[str] = []
    i = stmt_line - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        near.append(lines[i])
        i -= 1
    near += lines[max(stmt_line - 1, 0) : hit_line]
    return any(TODO_MARK in line and name in line for line in near)


def silent_legacy(rel: str, text: str) -> list[dict[str, object]]:
    """Legacy uses left in a Python file with no TODO(migrate-trainer) marker on them."""
    det = _py_hits(text)
    if det is None:
        return []
    lines = text.splitlines()
    return [
        {"path": rel, "line": line, "what": f"{category} {name}".strip()}
        for category, name, line, stmt in det.hits
        if category != "override" and not _has_todo_near(lines, name, line, stmt)
    ]


def use_lines(rel: str, text: str) -> Iterator[int]:
    """The line of each legacy use :func:`detect` counts in one file (a line once per use)."""
    text = _code_lines(rel, text)
    kind = file_kind(rel)
    det = _py_hits(text) if kind == "py" else None
    if det is not None:
        for _category, _name, line, _stmt in det.hits:
            yield line
        return
    for number, counts in enumerate(_detect_lines(text, yaml=kind == "yaml"), 1):
        for _ in range(sum(counts.values())):
            yield number


#: A shell variable assignment (``gpus=0`` in run.sh is the script's own variable, not a Trainer flag).
RE_SHELL_VAR = re.compile(r"^\s*(?:export\s+|local\s+)?\w+=")


def _detect_text(text: str, yaml: bool) -> Counter[str]:
    total: Counter[str] = Counter()
    for counts in _detect_lines(text, yaml):
        total.update(counts)
    return +total


def _detect_lines(text: str, yaml: bool) -> Iterator[Counter[str]]:
    """The legacy uses of each line of ``text``, one Counter per line (empty for a line without any)."""
    docker = False  # the command this line continues (backslash continuations) is a ``docker run``
    for line in text.splitlines():
        counts: Counter[str] = Counter()
        docker = docker or "docker" in line
        continued, docker = docker, docker and line.rstrip().endswith("\\")
        if not yaml and (line.lstrip().startswith(("#", "//")) or RE_SHELL_VAR.match(line)):
            yield counts  # a comment (commented-out code in a script or a doc's code block), or a shell variable
            continue
        if yaml:
            if RE_YAML_KEY.search(line):
                counts["yaml_key"] += 1
            if RE_YAML_ACC.search(line):
                counts["accelerator_strategy"] += 1
        else:
            counts["flag_kwarg"] += len(RE_FLAG_KW.findall(line))
            if not continued:  # ``docker run --gpus all`` is Docker's own flag, on any line of that command
                counts["cli_flag"] += len(RE_CLI_FLAG.findall(line))
            counts["accelerator_strategy"] += len(RE_ACC_STRAT.findall(line))
            counts["trainer_property"] += len(RE_PROP_TEXT.findall(line))
        counts["plugin_class"] += len(RE_PLUGIN.findall(line))
        counts["enum"] += len(RE_ENUM.findall(line))
        counts["override"] += len(RE_OVERRIDE.findall(line)) + len(RE_OVERRIDE_ACC.findall(line))
        if yaml:
            counts["trainer_property"] += len(RE_TTP.findall(line))
        yield +counts


# ---------------------------------------------------------------------------------------------------------
# Trees


def file_kind(rel: str) -> str:
    lower = rel.lower()
    if lower.endswith(PY_SUFFIXES):
        return "py"
    if lower.endswith(YAML_SUFFIXES):
        return "yaml"
    return "other"


def _is_text_candidate(rel: str) -> bool:
    suffix = os.path.splitext(rel)[1].lower()
    if set(rel.split("/")[:-1]) & RUN_ARTEFACTS:
        return False  # configs saved by past runs: records, not sources (migrate-trainer skips them too)
    return file_kind(rel) != "other" or suffix in TEXT_SUFFIXES


def _code_lines(rel: str, text: str) -> str:
    """The text the detectors read: a notebook's code cell sources only (outputs and markdown are records and
    prose), other lines blanked so that line numbers stay those of the file."""
    if not rel.endswith(".ipynb"):
        return text
    out, cell, source_indent = [], "", None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith('"cell_type":'):
            cell = stripped
        if source_indent is not None and line[: len(source_indent) + 1].strip() == "]":
            source_indent = None
        keep = source_indent is not None and '"code"' in cell
        out.append(line if keep else "")
        if stripped.startswith('"source": ['):
            source_indent = line[: len(line) - len(line.lstrip())]
    return "\n".join(out)


def walk(root: Path) -> Iterator[str]:
    """Relative paths of the regular files under ``root``, sorted."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in filenames:
            full = os.path.join(dirpath, name)
            if os.path.isfile(full) and not os.path.islink(full):
                found.append(os.path.relpath(full, root).replace(os.sep, "/"))
    yield from sorted(found)


def snapshot(root: Path) -> dict[str, bytes]:
    return {rel: (root / rel).read_bytes() for rel in walk(root)}


def digest(tree: dict[str, bytes]) -> dict[str, str]:
    return {rel: hashlib.sha256(data).hexdigest() for rel, data in tree.items()}


def _text(data: bytes) -> str | None:
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def find_mirror(mirrors: Path, repo: str) -> Path | None:
    base = mirrors / repo.replace("/", "+")
    for cand in (base / "repo" / ".git", base / "repo", base / ".git", base):
        if (cand / "HEAD").is_file() and (cand / "objects").is_dir():
            return cand
    return None


def materialise(git_dir: Path, commit: str, paths: Sequence[str], dest: Path) -> list[str]:
    """Extract ``commit`` (restricted to ``paths``) into ``dest``; the blobs the mirror lacks are listed.

    ``git archive`` first; a mirror without the largest blobs (snapshots omit files of 4 MiB and more) makes
    it fail, and then every blob it has is written one by one.
    """
    dest.mkdir(parents=True, exist_ok=True)
    spec = ["--", *paths] if paths else []
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", commit, *spec], capture_output=True
    )
    if archive.returncode == 0:
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
        return []
    listing = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", "--full-tree", commit, *spec],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    missing: list[str] = []
    for entry in listing:
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        rel = raw_path.decode("utf-8", "surrogateescape")
        if kind != "blob" or mode == "120000":
            continue
        blob = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "blob", sha], capture_output=True)
        if blob.returncode != 0:
            missing.append(rel)
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
        if mode == "100755":
            target.chmod(0o755)
    return missing


# ---------------------------------------------------------------------------------------------------------
# Checks on a migrated tree


def _comments_py(text: str) -> Counter[str]:
    out: Counter[str] = Counter()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.string.strip()] += 1
    except (tokenize.TokenError, IndentationError, SyntaxError):
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.startswith("#"):
                out[stripped] += 1
    return out


RE_YAML_COMMENT = re.compile(r"(?:^|\s)(#.*)$")


def _comments_yaml(text: str) -> Counter[str]:
    out: Counter[str] = Counter()
    for line in text.splitlines():
        match = RE_YAML_COMMENT.search(line)
        if match:
            out[match.group(1).strip()] += 1
    return out


def comments(rel: str, text: str) -> Counter[str]:
    kind = file_kind(rel)
    if kind == "py":
        return _comments_py(text)
    if kind == "yaml":
        return _comments_yaml(text)
    return Counter(line.strip() for line in text.splitlines() if line.strip().startswith("#"))


def py_parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def yaml_loads(text: str) -> bool | None:
    """True/False, or None where ruamel.yaml is not installed."""
    try:
        from ruamel.yaml import YAML
    except ImportError:  # pragma: no cover - a dependency of the project
        return None
    try:
        list(YAML(typ="safe", pure=True).load_all(text))
    except Exception:
        return False
    return True


RE_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z_][\w\-]*)\s*:(?:\s|$)")


def yaml_keys(text: str) -> Counter[str]:
    keys: Counter[str] = Counter()
    for line in text.splitlines():
        match = RE_KEY_LINE.match(line)
        if match and not line.lstrip().startswith("#"):
            keys[match.group(2)] += 1
    return keys


_MIGRATED_RE = re.compile(rf"\b(?:{'|'.join(MIGRATED_KEYS)})\b|TODO")


def unrelated_yaml_lines(before: str, after: str) -> list[str]:
    """Diff lines touching no migrated key; a line that only gained a trailing TODO comment is not churn."""
    diff = [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if not line.startswith(("---", "+++", "@@"))
    ]
    todo_added = [line[1:] for line in diff if line.startswith("+") and TODO_MARK in line]
    out = []
    for line in diff:
        if _MIGRATED_RE.search(line):
            continue
        if line.startswith("-") and any(t.startswith(line[1:].rstrip()) for t in todo_added):
            continue
        out.append(line)
    return out


def _use_patterns(key: str) -> list[re.Pattern[str]]:
    k = re.escape(key)
    return [
        re.compile(rf"\b(?!self\b|pl_module\b)\w+\.trainer\.{k}\b"),
        re.compile(rf"""\[\s*['"]trainer['"]\s*\]\s*\[\s*['"]{k}['"]\s*\]"""),
        re.compile(rf"""\[\s*['"]trainer['"]\s*\]\s*\.get\(\s*['"]{k}['"]"""),
        re.compile(rf"""\.trainer\.get\(\s*['"]{k}['"]"""),
        re.compile(rf"""(?:^|[\s'"(\[,])[+~]{{0,2}}trainer\.{k}="""),
        re.compile(rf"""\$\{{\s*trainer\.{k}\s*\}}"""),
    ]


def dangling_uses(
    removed: Iterable[str], after: dict[str, str], flagged: frozenset[tuple[str, int]] = frozenset()
) -> list[dict[str, object]]:
    """Uses of a config key some YAML file lost, left in the output without a TODO: one written on the line, or a
    TODO finding of the run there (``flagged``: (path, line); a Markdown table cannot hold a comment). A Python
    comment line is no use (commented-out code)."""
    found: list[dict[str, object]] = []
    for key in sorted(set(removed)):
        patterns = _use_patterns(key)
        for rel in sorted(after):
            python = file_kind(rel) == "py"
            lines = after[rel].splitlines()
            for lineno, line in enumerate(lines, 1):
                start = lineno  # a command continued with backslashes is flagged where it starts
                while start > 1 and lines[start - 2].rstrip().endswith("\\"):
                    start -= 1
                above = lines[start - 2] if start > 1 else ""
                if TODO_MARK in line or TODO_MARK in above or (rel, start) in flagged or (rel, lineno) in flagged:
                    continue
                if python and line.lstrip().startswith("#"):
                    continue
                if any(p.search(line) for p in patterns):
                    found.append({"key": key, "path": rel, "line": lineno})
    return found


STRATEGY_CLASS = re.compile(r"\b\w*(?:Strategy|" + _ALT_PLUGINS + r")\b")
STRATEGY_OBJECT = re.compile(r"\b\w*Strategy\(")


def _call_has_two_strategies(call: ast.Call, yaml_sets_strategy: bool) -> str | None:
    kwargs = {kw.arg for kw in call.keywords if kw.arg is not None}
    splat = [kw.value for kw in call.keywords if kw.arg is None]
    plugins = next((kw.value for kw in call.keywords if kw.arg == "plugins"), None)
    if "strategy" in kwargs and plugins is not None and STRATEGY_CLASS.search(ast.unparse(plugins)):
        return "strategy= and a strategy in plugins="
    if "strategy" in kwargs and yaml_sets_strategy and any("trainer" in ast.unparse(s) for s in splat):
        return "strategy= beside **<trainer config> whose YAML sets strategy:"
    defaults = next((kw.value for kw in call.keywords if kw.arg == "trainer_defaults"), None)
    if isinstance(defaults, ast.Dict) and yaml_sets_strategy and "strategy" in {_const_str(k) for k in defaults.keys}:
        return "trainer_defaults sets strategy while a YAML config sets strategy: too"
    if plugins is not None and STRATEGY_OBJECT.search(ast.unparse(plugins)) and (yaml_sets_strategy or splat):
        return "a strategy object in plugins= while the config can also set strategy"
    return None


def _strategy_variables(tree: ast.AST) -> set[str]:
    """Names the module binds to a ``...Strategy(...)`` object somewhere."""
    names: set[str] = set()
    for node in ast.walk(tree):
        call = node.value if isinstance(node, ast.Assign) else None
        if isinstance(call, ast.Call) and _dotted(call.func).endswith("Strategy"):
            assert isinstance(node, ast.Assign)
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def two_strategies_py(text: str, yaml_sets_strategy: bool) -> list[str]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out = []
    strategy_vars = _strategy_variables(tree)
    for node in ast.walk(tree):
        kwargs_dict = isinstance(node, ast.Call) and _dotted(node.func) == "dict"
        if isinstance(node, ast.Call) and (_is_trainer_call(node) or kwargs_dict):
            why = _call_has_two_strategies(node, yaml_sets_strategy)
            plugins = next((kw.value for kw in node.keywords if kw.arg == "plugins"), None)
            if why is None and plugins is not None:
                used = {n.id for n in ast.walk(plugins) if isinstance(n, ast.Name)}
                if used & strategy_vars or STRATEGY_OBJECT.search(ast.unparse(plugins)):
                    why = "a strategy object passed in plugins= (2.0 takes strategies only in strategy=)"
            if why:
                out.append(f"{node.lineno}: {why}")
        elif isinstance(node, ast.Dict):
            keys = {_const_str(k) for k in node.keys if k is not None}
            if "plugins" in keys:
                value = node.values[[_const_str(k) for k in node.keys].index("plugins")]
                if "strategy" in keys and STRATEGY_CLASS.search(ast.unparse(value)):
                    out.append(f"{node.lineno}: dict with strategy and a strategy in plugins")
                elif (
                    STRATEGY_OBJECT.search(ast.unparse(value))
                    or {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} & strategy_vars
                ):
                    out.append(f"{node.lineno}: a strategy object under 'plugins' (2.0 takes it only as strategy)")
    return out


RE_YAML_PLUGIN_STRATEGY = re.compile(r"class_path:\s*\S*(?:Strategy|" + _ALT_PLUGINS + r")\b")


def two_strategies_yaml(text: str) -> list[str]:
    """A mapping (same indentation block) with ``strategy:`` and a strategy class under ``plugins:``."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        match = re.match(r"^(\s*)plugins\s*:", line)
        if not match:
            continue
        indent = len(match.group(1))
        # the block of the mapping holding ``plugins``: siblings at the same indentation until a dedent
        start = i
        while start > 0 and (not lines[start - 1].strip() or _indent(lines[start - 1]) >= indent):
            start -= 1
        end = i + 1
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
            end += 1
        sub = "\n".join(lines[i:end])
        block_end = end
        while block_end < len(lines) and (not lines[block_end].strip() or _indent(lines[block_end]) >= indent):
            block_end += 1
        siblings = [ln for ln in lines[start:block_end] if _indent(ln) == indent and ln.strip()]
        has_strategy = any(re.match(r"^\s*strategy\s*:", ln) for ln in siblings)
        if has_strategy and (RE_YAML_PLUGIN_STRATEGY.search(sub) or RE_PLUGIN.search(sub)):
            out.append(f"{i + 1}: strategy: next to a strategy class under plugins:")
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


# ---------------------------------------------------------------------------------------------------------
# One project


@dataclass
class Project:
    name: str
    repo: str
    commit: str
    paths: list[str]
    why: str
    heldout: bool


@dataclass
class Run:
    jobs: int
    seconds: float
    exit_code: int
    failed: list[str] = field(default_factory=list)
    #: The CLI's JSON findings (kept for the first run only: the coverage is measured on it).
    rows: list[dict[str, object]] = field(default_factory=list, repr=False)


@dataclass
class ProjectReport:
    name: str
    repo: str
    commit: str
    heldout: bool
    missing_blobs: list[str] = field(default_factory=list)
    files: dict[str, int] = field(default_factory=dict)
    changed: dict[str, int] = field(default_factory=dict)
    legacy_before: dict[str, int] = field(default_factory=dict)
    legacy_after: dict[str, int] = field(default_factory=dict)
    legacy_by_kind_before: dict[str, int] = field(default_factory=dict)
    legacy_by_kind_after: dict[str, int] = field(default_factory=dict)
    legacy_left: list[dict[str, object]] = field(default_factory=list)
    silent_legacy: list[dict[str, object]] = field(default_factory=list)
    todo_rules: dict[str, int] = field(default_factory=dict)
    #: The CLI's TODO findings (first run): rule, message, path, line and ``todo_cause``; and their count by cause.
    todo_findings: list[dict[str, object]] = field(default_factory=list)
    todo_causes: dict[str, int] = field(default_factory=dict)
    todos: int = 0
    todo_files: list[str] = field(default_factory=list)
    dangling: list[dict[str, object]] = field(default_factory=list)
    removed_keys: list[str] = field(default_factory=list)
    two_strategies: list[str] = field(default_factory=list)
    unparseable: list[str] = field(default_factory=list)
    yaml_unrelated: list[dict[str, object]] = field(default_factory=list)
    comments_lost: list[dict[str, object]] = field(default_factory=list)
    nondeterministic: list[str] = field(default_factory=list)
    not_idempotent: list[str] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    second_run: Run | None = None
    coverage: Coverage = field(default_factory=Coverage)
    #: The project's own later history (the mirror's newest commit), on the files both commits have: the legacy
    #: uses the maintainers removed by hand, and the ones this run handles in those files.
    maintainers: dict[str, object] = field(default_factory=dict)


CODEMODS_PATH: Path | None = None  # --codemods: run the CLI from this folder's ``codemods`` package instead


def run_cli(tree: Path, jobs: int, target: str) -> Run:
    argv = [sys.executable, "-m", "codemods.cli", "--target-version", target, "-j", str(jobs), "--no-progress"]
    argv += ["--format", "json", "."]
    start = time.perf_counter()
    env = dict(os.environ)
    if CODEMODS_PATH is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CODEMODS_PATH), env.get("PYTHONPATH", "")]))
    proc = subprocess.run(argv, cwd=tree, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    failed: list[str] = []
    rows: list[dict[str, object]] = []
    try:
        rows = json.loads(proc.stdout) if proc.stdout.strip() else []
        failed = sorted({f"{r['path']}: {r['message']}" for r in rows if r.get("kind") == "error"})
    except json.JSONDecodeError:
        failed = [proc.stdout[-500:]]
    if proc.returncode not in (0, 1, 3):
        failed.append(f"exit {proc.returncode}: {proc.stderr[-2000:]}")
    kept = rows if isinstance(rows, list) else []
    return Run(jobs=jobs, seconds=round(seconds, 3), exit_code=proc.returncode, failed=failed, rows=kept)


def _texts(tree: dict[str, bytes]) -> dict[str, str]:
    out = {}
    for rel, data in tree.items():
        if not _is_text_candidate(rel):
            continue
        text = _text(data)
        if text is not None:
            out[rel] = text
    return out


def _legacy(texts: dict[str, str]) -> tuple[Counter[str], Counter[str], dict[str, Counter[str]]]:
    total: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    per_file: dict[str, Counter[str]] = {}
    for rel, text in texts.items():
        counts = detect(rel, text)
        if counts:
            per_file[rel] = counts
            total.update(counts)
            by_kind[file_kind(rel)] += sum(counts.values())
    return total, by_kind, per_file


def maintainers(
    git_dir: Path,
    project: Project,
    scratch: Path,
    texts_before: dict[str, str],
    texts_after: dict[str, str],
    rows: list[dict[str, object]],
) -> dict[str, object]:
    """What the maintainers did by hand since the pinned commit, against what this run did, on the same files."""
    head = subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], capture_output=True, text=True)
    commit = head.stdout.strip()
    if head.returncode != 0 or not commit or commit == project.commit:
        return {}
    later = scratch / "later"
    materialise(git_dir, commit, project.paths, later)
    texts_later = _texts(snapshot(later))
    common = sorted(set(texts_before) & set(texts_later))
    before = sum(sum(detect(rel, texts_before[rel]).values()) for rel in common)
    by_hand = before - sum(sum(detect(rel, texts_later[rel]).values()) for rel in common)
    ours = measure(before, {rel: texts_after[rel] for rel in common if rel in texts_after}, use_lines, rows, TODO_MARK)
    return {"commit": commit, "files": len(common), "legacy": before, "by_hand": by_hand, "ours": ours.handled}


def evaluate(project: Project, git_dir: Path, scratch: Path, target: str, keep: Path | None) -> ProjectReport:
    report = ProjectReport(project.name, project.repo, project.commit, project.heldout)
    source = scratch / "source"
    report.missing_blobs = materialise(git_dir, project.commit, project.paths, source)
    before = snapshot(source)
    report.files = dict(Counter(file_kind(rel) for rel in before))

    trees = []
    for i, jobs in enumerate((1, 2, 1)):
        copy = scratch / f"run{i}"
        shutil.copytree(source, copy, symlinks=True)
        report.runs.append(run_cli(copy, jobs, target))
        trees.append(snapshot(copy))
    after = trees[0]
    hashes = [digest(t) for t in trees]
    report.nondeterministic = sorted(rel for rel in set().union(*hashes) if len({h.get(rel) for h in hashes}) > 1)

    second = scratch / "second"
    shutil.copytree(scratch / "run0", second, symlinks=True)
    report.second_run = run_cli(second, 1, target)
    twice = snapshot(second)
    report.not_idempotent = sorted(rel for rel in set(after) | set(twice) if after.get(rel) != twice.get(rel))

    changed = sorted(rel for rel in set(before) | set(after) if before.get(rel) != after.get(rel))
    report.changed = dict(Counter(file_kind(rel) for rel in changed))
    texts_before, texts_after = _texts(before), _texts(after)

    legacy_b, kind_b, _ = _legacy(texts_before)
    legacy_a, kind_a, per_file_a = _legacy(texts_after)
    report.legacy_before, report.legacy_after = dict(legacy_b), dict(legacy_a)
    report.legacy_by_kind_before, report.legacy_by_kind_after = dict(kind_b), dict(kind_a)
    report.legacy_left = [{"path": rel, **dict(c)} for rel, c in sorted(per_file_a.items())]

    report.coverage = measure(_n(report.legacy_before), texts_after, use_lines, report.runs[0].rows, TODO_MARK)
    report.maintainers = maintainers(git_dir, project, scratch, texts_before, texts_after, report.runs[0].rows)
    report.silent_legacy = [hit for rel in sorted(texts_after) for hit in silent_legacy(rel, texts_after[rel])]
    report.silent_legacy = [h for h in report.silent_legacy if file_kind(str(h["path"])) == "py"]
    report.todo_rules = dict(
        sorted(Counter(m for text in texts_after.values() for m in RE_TODO_RULE.findall(text)).items())
    )
    report.todo_findings = [
        {
            "rule": str(row.get("rule", "")),
            "message": str(row.get("message", "")),
            "path": str(row.get("path", "")),
            "line": row.get("line"),
            "cause": todo_cause(str(row.get("rule", "")), str(row.get("message", ""))),
        }
        for row in report.runs[0].rows
        if row.get("kind") == "todo"
    ]
    report.todo_causes = dict(Counter(str(f["cause"]) for f in report.todo_findings))
    todo_counts = {rel: text.count(TODO_MARK) for rel, text in texts_after.items() if TODO_MARK in text}
    report.todos = sum(todo_counts.values())
    report.todo_files = sorted(todo_counts)

    removed: list[str] = []
    yaml_sets_strategy = False
    for rel in sorted(texts_after):
        text_a = texts_after[rel]
        text_b = texts_before.get(rel)
        if file_kind(rel) == "yaml":
            if re.search(r"^\s*strategy\s*:", text_a, re.M):
                yaml_sets_strategy = True
            if text_b is not None and text_b != text_a:
                lost_keys = yaml_keys(text_b) - yaml_keys(text_a)
                removed += [k for k in lost_keys if k in MIGRATED_KEYS]
    report.removed_keys = sorted(set(removed))
    flagged = frozenset(
        (os.path.normpath(str(row["path"])), int(str(row["line"])))
        for row in report.runs[0].rows
        if row.get("kind") == "todo" and "line" in row
    )
    report.dangling = dangling_uses(report.removed_keys, texts_after, flagged)

    for rel in changed:
        old_text, new_text = texts_before.get(rel), texts_after.get(rel)
        if old_text is None or new_text is None:
            continue
        text_b, text_a = old_text, new_text
        kind = file_kind(rel)
        if kind == "py":
            if py_parses(text_b) and not py_parses(text_a):
                report.unparseable.append(rel)
            two_b = len(two_strategies_py(text_b, yaml_sets_strategy))
            report.two_strategies += [f"{rel}:{w}" for w in two_strategies_py(text_a, yaml_sets_strategy)[two_b:]]
        elif kind == "yaml":
            if yaml_loads(text_b) and yaml_loads(text_a) is False:
                report.unparseable.append(rel)
            two_b = len(two_strategies_yaml(text_b))
            report.two_strategies += [f"{rel}:{w}" for w in two_strategies_yaml(text_a)[two_b:]]
            report.yaml_unrelated += [{"path": rel, "line": ln} for ln in unrelated_yaml_lines(text_b, text_a)]
        lost = comments(rel, text_b) - comments(rel, text_a)
        report.comments_lost += [{"path": rel, "comment": c, "count": n} for c, n in sorted(lost.items())]

    if keep is not None:
        dest = keep / project.name
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        shutil.copytree(source, dest / "before", symlinks=True)
        shutil.copytree(scratch / "run0", dest / "after", symlinks=True)
        if report.not_idempotent:
            shutil.copytree(second, dest / "second", symlinks=True)
        for i in (1, 2):
            if any(digest(trees[i]).get(rel) != hashes[0].get(rel) for rel in report.nondeterministic):
                shutil.copytree(scratch / f"run{i}", dest / f"run{i}", symlinks=True)
    return report


# ---------------------------------------------------------------------------------------------------------
# Table and JSON


def _n(counts: dict[str, int]) -> int:
    return sum(counts.values())


def _comments_lost_count(r: ProjectReport) -> int:
    return sum(int(str(c["count"])) for c in r.comments_lost)


def _yes_no(bad: int) -> str:
    return "yes" if not bad else f"no ({bad})"


def _coverage(reports: Sequence[ProjectReport]) -> Coverage:
    total = Coverage()
    for r in reports:
        total.add(r.coverage)
    return total


def _todo_load(reports: Sequence[ProjectReport]) -> str:
    """``todo (removed / unread) / fixes (1:fixes per TODO, unread 1:fixes per unread TODO)``."""
    cov = _coverage(reports)
    removed = sum(r.todo_causes.get("removed", 0) for r in reports)
    unread = sum(r.todo_causes.get("unread", 0) for r in reports)
    ratios = [f"1:{cov.fixes / cov.todo_findings:.1f}"] if cov.todo_findings else []
    if unread:
        ratios.append(f"unread 1:{cov.fixes / unread:.1f}")
    tail = f" ({', '.join(ratios)})" if ratios else ""
    return f"{cov.todo_findings} ({removed} / {unread}) / {cov.fixes}{tail}"


def _by_hand(reports: Sequence[ProjectReport]) -> str:
    done = [r.maintainers for r in reports if r.maintainers]
    if not done:
        return "—"
    return f"{sum(int(str(m['by_hand'])) for m in done)} / {sum(int(str(m['ours'])) for m in done)}"


def _row(name: str, reports: Sequence[ProjectReport]) -> list[str]:
    files = Counter[str]()
    changed = Counter[str]()
    for r in reports:
        files.update(r.files)
        changed.update(r.changed)
    walls = [sum(r.runs[i].seconds for r in reports if len(r.runs) > i) for i in range(3)]
    failed = sum(len(run.failed) for r in reports for run in r.runs[:1])
    return [
        name,
        f"{files['py']}/{files['yaml']}/{files['other']}",
        f"{changed['py']}/{changed['yaml']}/{changed['other']}",
        f"{sum(_n(r.legacy_before) for r in reports)} → {sum(_n(r.legacy_after) for r in reports)}",
        str(sum(len(r.silent_legacy) for r in reports)),
        _coverage(reports).share(),
        _todo_load(reports),
        _by_hand(reports),
        str(sum(r.todos for r in reports)),
        str(sum(len(r.dangling) for r in reports)),
        str(sum(len(r.two_strategies) for r in reports)),
        str(sum(len(r.unparseable) for r in reports)),
        str(sum(len(r.yaml_unrelated) for r in reports)),
        str(sum(_comments_lost_count(r) for r in reports)),
        str(failed),
        _yes_no(sum(len(r.nondeterministic) for r in reports)),
        _yes_no(sum(len(r.not_idempotent) for r in reports)),
        " / ".join(f"{w:.1f}" for w in walls),
    ]


HEADER = [
    "project",
    "files py/yaml/other",
    "changed py/yaml/other",
    "legacy before → after",
    "silent legacy (py, no TODO)",
    "rewritten or flagged",
    "TODO findings (removed / unread) / fixes",
    "maintainers by hand / this run (same files)",
    "TODOs",
    "(a) dangling key uses",
    "(b) two strategies",
    "(c) unparseable",
    "YAML unrelated lines",
    "comments lost",
    "files failed",
    "deterministic",
    "idempotent",
    "wall s -j1/-j2/-j1",
]


def print_table(reports: Sequence[ProjectReport]) -> None:
    rows = [_row(r.name + (" (held out)" if r.heldout else ""), [r]) for r in reports]
    working = [r for r in reports if not r.heldout]
    heldout = [r for r in reports if r.heldout]
    if working and heldout:
        rows.append(_row("**working**", working))
        rows.append(_row("**held out**", heldout))
    rows.append(_row("**total**", reports))
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(HEADER))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    categories = sorted({k for r in reports for k in (*r.legacy_before, *r.legacy_after)})
    if categories:
        print()
        print("| legacy use (detector) | before | after |")
        print("|---|---:|---:|")
        for cat in categories:
            b = sum(r.legacy_before.get(cat, 0) for r in reports)
            a = sum(r.legacy_after.get(cat, 0) for r in reports)
            print(f"| {cat} | {b} | {a} |")
        for kind in ("py", "yaml", "other"):
            b = sum(r.legacy_by_kind_before.get(kind, 0) for r in reports)
            a = sum(r.legacy_by_kind_after.get(kind, 0) for r in reports)
            print(f"| (in {kind} files) | {b} | {a} |")


def _capped(report: ProjectReport) -> dict[str, object]:
    data = asdict(report)
    for run in data["runs"]:
        run.pop("rows", None)
    if data.get("second_run"):
        data["second_run"].pop("rows", None)
    data["coverage"]["handled"] = report.coverage.handled
    for key, value in list(data.items()):
        if isinstance(value, list) and len(value) > LIST_CAP:
            data[key] = value[:LIST_CAP]
            data[f"{key}_total"] = len(value)
    return data


def codemods_version() -> dict[str, str]:
    """The commit and a digest of ``codemods/`` as run: the package is edited in place while others work."""
    base = CODEMODS_PATH if CODEMODS_PATH is not None else ROOT
    sources = sorted((base / "codemods").rglob("*.py"))
    tree = hashlib.sha256(b"".join(p.relative_to(base).as_posix().encode() + p.read_bytes() for p in sources))
    if CODEMODS_PATH is not None:
        return {"codemods_path": str(CODEMODS_PATH), "codemods_sha256": tree.hexdigest()}
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--", "codemods"], capture_output=True, text=True
    )
    return {
        "head": head.stdout.strip(),
        "codemods_dirty": "yes" if dirty.stdout.strip() else "no",
        "codemods_sha256": tree.hexdigest(),
    }


def load_manifest(path: Path) -> list[Project]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [
        Project(
            name=str(row["name"]),
            repo=str(row["repo"]),
            commit=str(row["commit"]),
            paths=[str(p) for p in row.get("paths", [])],
            why=str(row.get("why", "")),
            heldout=bool(row.get("heldout", False)),
        )
        for row in rows
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS, help="folder of git mirrors (owner+name)")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--project", action="append", default=[], help="run only this project (repeatable)")
    parser.add_argument("--heldout", action="store_true", help="include the held-out projects")
    parser.add_argument("--keep", type=Path, help="keep before/after trees here (DIR/<project>/{before,after})")
    parser.add_argument("--json", type=Path, help="write the full report here")
    parser.add_argument("--target-version", default=DEFAULT_TARGET, help=f"default: {DEFAULT_TARGET}, the tool's")
    parser.add_argument(
        "--codemods",
        type=Path,
        help="a checkout (`git archive <commit>` extracted) whose codemods run instead of the installed ones",
    )
    args = parser.parse_args(argv)
    global CODEMODS_PATH
    CODEMODS_PATH = args.codemods.resolve() if args.codemods is not None else None

    projects = load_manifest(args.manifest)
    if args.project:
        unknown = sorted(set(args.project) - {p.name for p in projects})
        if unknown:
            parser.error(f"unknown project(s): {', '.join(unknown)}")
        projects = [p for p in projects if p.name in args.project]
    elif not args.heldout:
        projects = [p for p in projects if not p.heldout]

    missing = [p for p in projects if find_mirror(args.mirrors, p.repo) is None]
    for p in missing:
        print(f"mirror missing: {p.repo} (expected under {args.mirrors / p.repo.replace('/', '+')}); skipped")
    reports: list[ProjectReport] = []
    for project in projects:
        git_dir = find_mirror(args.mirrors, project.repo)
        if git_dir is None:
            continue
        with tempfile.TemporaryDirectory(prefix=f"corpus-{project.name}-") as tmp:
            try:
                report = evaluate(project, git_dir, Path(tmp), args.target_version, args.keep)
            except subprocess.CalledProcessError as exc:
                print(f"{project.name}: could not materialise {project.commit}: {exc}", file=sys.stderr)
                continue
        reports.append(report)
        print(f"done {project.name}: {sum(r.seconds for r in report.runs):.1f} s", file=sys.stderr, flush=True)
    if reports:
        print_table(reports)
    else:
        print("no project could be run")
    if args.json is not None:
        payload = {
            "target_version": args.target_version,
            "codemods": codemods_version(),
            "missing_mirrors": [p.repo for p in missing],
            "projects": [_capped(r) for r in reports],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
