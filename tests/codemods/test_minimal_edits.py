"""A rewrite changes only what it migrates: on every Python fixture, each non-blank line of the input that names
nothing the rules look for (no legacy name, flag, property or Trainer word) is still in the output, unchanged
and in the same order. (YAML fixtures have the byte-level version of this in test_yaml_edits.py.) The lines of a
``.fit(...)`` call are the exception where the file moves ``resume_from_checkpoint`` to ``fit(ckpt_path=)``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from codemods.runner import transform_text
from legacy_api.hooks import GONE_PARAMETERS, SUCCESSORS
from legacy_api.keywords import FOLDED, RENAMED
from legacy_api.lightning15 import LEGACY_FLAGS
from legacy_api.removed_arguments import REMOVED_ARGUMENTS
from legacy_api.renames import ENUM_MEMBERS, RENAMES, STRATEGY_CLASSES, TRAINER_PROPERTIES
from tests.codemods.test_fixtures import CASES, _options

_WORDS = (
    set(LEGACY_FLAGS)
    | {row.name for row in REMOVED_ARGUMENTS}
    | set(STRATEGY_CLASSES)
    | {word for row in RENAMES for word in re.findall(r"\w+", row.old)}
    | {word for prop in TRAINER_PROPERTIES for word in re.findall(r"\w+", prop.old)}
    | {word for name in ENUM_MEMBERS for word in re.findall(r"\w+", name)}
    | {"accelerator", "strategy", "plugins", "precision", "devices", "Plugin", "pytorch_lightning", "compat"}
    | {"Trainer", "trainer", "LightningCLI", "trainer_defaults", "TODO"}
    | {keyword for _, keyword in RENAMED}
    | {keyword for _, keyword in FOLDED}  # save_config_overwrite= -> save_config_kwargs={...} (removed_keywords)
    | {hook for _, hook in SUCCESSORS}  # a removed hook's def is renamed (epoch_end_hooks)
    | {name for gone in GONE_PARAMETERS.values() for name in gone}
    | {"optimizer_step", "optimizer_idx", "on_tpu", "using_native_amp", "using_lbfgs"}  # optimizer_step_hook
    | {"size"}  # dm.size() -> dm.dims (datamodule_size)
    | {"_six"}  # from torch._six import ... -> the values and the import it bound (torch_six)
    | {"hparams"}  # self.hparams = x -> self.save_hyperparameters(x) (hparams_setter)
)
_MIGRATED = re.compile(
    r"\b(?:" + "|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)) + r")\b"
    r"|^\s*for \w+ in [\w.]+\.logger:$"  # the loop over 1.5's LoggerCollection (logger_collection_checks)
)
PY_CASES = [case for case in CASES if (case / "before.py").is_file()]


@pytest.mark.parametrize("case", PY_CASES, ids=[c.name for c in PY_CASES])
def test_lines_that_migrate_nothing_stay_as_they_were(case: Path) -> None:
    before = case / "before.py"
    text = before.read_text(encoding="utf-8")
    output = transform_text(text, before.name, _options(case, before)).source.splitlines()
    rest = iter(output)
    fits = _fit_call_lines(text)
    lines = [line for number, line in enumerate(text.splitlines(), 1) if number not in fits]
    # A line naming a class the file imports from Lightning may be migrated too (its call's arguments).
    imported = {
        alias.asname or alias.name
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pytorch_lightning")
        for alias in node.names
    }
    names = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, imported))) + r")\b") if imported else None
    missing = [
        line
        for line in lines
        if line.strip() and not _MIGRATED.search(line) and not (names and names.search(line))
    ]
    missing = [line for line in missing if not any(line == out for out in rest)]
    assert not missing, f"lines that name nothing to migrate changed or moved: {missing[:5]}"


def _fit_call_lines(text: str) -> set[int]:
    """The lines of each ``x.fit(...)`` call, in a file that passes ``resume_from_checkpoint`` (it may move there)."""
    if "resume_from_checkpoint" not in text:
        return set()
    calls = [
        node
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fit"
    ]
    return {line for call in calls for line in range(call.lineno, (call.end_lineno or call.lineno) + 1)}
