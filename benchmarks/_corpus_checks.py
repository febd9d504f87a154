"""Checks on a migrated tree: comments kept, output that still parses, YAML diff lines touching no migrated
key, uses of a removed config key left dangling, two strategies for one Trainer."""

from __future__ import annotations

import ast
import difflib
import io
import os
import re
import tokenize
from collections import Counter
from collections.abc import Iterable

from _corpus_detect import _ALT_PLUGINS, RE_PLUGIN, _const_str, _dotted, _is_trainer_call
from _corpus_todo import TODO_MARK
from _corpus_trees import file_kind

from legacy_api.removed_arguments import REMOVED_ARGUMENTS

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
    # Trainer flag values 2.x spells otherwise (codemods rule trainer_flag_values: max_steps: null -> -1)
    "max_steps",
    "max_epochs",
    "accumulate_grad_batches",
)


def _comments_py(text: str) -> Counter[str]:
    out: Counter[str] = Counter()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT and tok.string.strip() != "#":  # an empty "#" goes with its argument
                out[tok.string.strip()] += 1
    except (tokenize.TokenError, IndentationError, SyntaxError):
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.startswith("#") and stripped != "#":
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
    TODO finding of the run on a line of the command it is part of (``flagged``: (path, line); a Markdown table
    cannot hold a comment). A Python
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
                # (a finding on any line of the command: the run reports a command's TODO at its first override)
                command = range(start, lineno + 1)
                if TODO_MARK in line or TODO_MARK in above or any((rel, at) in flagged for at in command):
                    continue
                if python and line.lstrip().startswith("#"):
                    continue
                if any(p.search(line) for p in patterns) and not _new_meaning(key, line):
                    found.append({"key": key, "path": rel, "line": lineno})
    return found


#: What 2.x's ``accelerator`` takes: an override setting one of these is a use of the key's new meaning (the device),
#: written by the run over configs that have the key again, not a dangling use of the 1.x strategy name.
_DEVICES = r"(?:auto|cpu|gpu|cuda|tpu|mps|hpu|ipu)"
_NEW_ACCELERATOR = re.compile(rf"""trainer\.accelerator=["']?{_DEVICES}["']?(?:\s|$|\\)""")


def _new_meaning(key: str, line: str) -> bool:
    """Whether every use of ``key`` on ``line`` sets its 2.x meaning (``trainer.accelerator=gpu``)."""
    if key != "accelerator":
        return False
    return len(_NEW_ACCELERATOR.findall(line)) == len(re.findall(r"trainer\.accelerator\b", line))


STRATEGY_CLASS = re.compile(r"\b\w*(?:Strategy|" + _ALT_PLUGINS + r")\b")
STRATEGY_OBJECT = re.compile(r"\b\w*Strategy\(")


_HYDRA_PRIMARY = re.compile(r"config_path\s*=\s*[\"']([^\"']*)[\"']\s*,\s*config_name\s*=\s*[\"']([^\"']+)[\"']")
_DEFAULT_ENTRY = re.compile(r"^\s+-\s+(?:override\s+)?/?([\w./-]+)(?:@[\w.]*)?(?:\s*:\s*([\w./-]+))?\s*(?:#.*)?$", re.M)


def hydra_configs(text: str, rel: str, yaml_texts: dict[str, str]) -> set[str] | None:
    """The YAML files a script's ``@hydra.main(config_path=, config_name=)`` (or NeMo's ``hydra_runner``) loads: its
    primary config and what that config's defaults list names, one level deep (Hydra's own semantics, not the tool's);
    None where the script names no such pair (it may load anything)."""
    match = _HYDRA_PRIMARY.search(text)
    if match is None:
        return None
    folder = os.path.normpath(os.path.join(os.path.dirname(rel), match.group(1)))
    name = match.group(2) if match.group(2).endswith((".yaml", ".yml")) else match.group(2) + ".yaml"
    primary = os.path.normpath(os.path.join(folder, name))
    found = {primary}
    defaults = yaml_texts.get(primary, "")
    for group, option in _DEFAULT_ENTRY.findall(defaults.split("defaults:", 1)[1] if "defaults:" in defaults else ""):
        leaf = f"{group}/{option}" if option else group
        found.add(os.path.normpath(os.path.join(folder, leaf + ".yaml")))
    return found


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
