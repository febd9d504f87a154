"""The legacy detector (independent of codemods: it must be able to disagree with the codemod).

Legacy uses in one file, by category: ``ast`` for Python, regexes for YAML and other text.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator, Sequence

from _corpus_todo import TODO_MARK
from _corpus_trees import _code_lines, file_kind
from corpus_coverage import REACH

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
    """A TODO marker naming ``name`` right above the statement, between its start and the hit, or within ``REACH``
    lines above the hit: the reach the coverage count gives a marker (a TODO above a decorator covers the class
    below it, one above the head of an idiom the lines of the idiom)."""
    near: list[str] = []
    i = stmt_line - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        near.append(lines[i])
        i -= 1
    near += lines[max(min(stmt_line, hit_line - REACH) - 1, 0) : hit_line]
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
