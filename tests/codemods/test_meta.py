"""The renames table, the rule registry and MIGRATION.md agree; importing codemods never imports torch."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from codemods.rules import REGISTRY
from legacy_api import renames

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "codemods" / "rules"


def test_registry_lists_every_rule_module() -> None:
    modules = {p.stem for p in RULES_DIR.glob("*.py") if not p.stem.startswith("_")}
    assert modules == set(REGISTRY)


@pytest.mark.parametrize("rule_id", sorted(REGISTRY))
def test_rule_module_documents_itself(rule_id: str) -> None:
    doc = ast.get_docstring(ast.parse((RULES_DIR / f"{rule_id}.py").read_text()))
    rule = REGISTRY[rule_id]
    assert doc and rule.description and rule.deprecated_in in (*renames.TARGET_VERSIONS, "0.10", "1.1", "1.4", "1.5")


def test_every_rename_row_names_a_registered_rule() -> None:
    assert {row.rule for row in renames.RENAMES} <= set(REGISTRY)


def test_renames_table_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(renames.__file__).read_text())
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    } | {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= set(sys.stdlib_module_names) | {"__future__", "legacy_api"}


def test_rendered_table_has_a_line_per_row() -> None:
    text = renames.render_markdown()
    for row in renames.RENAMES:
        for root in row.roots:
            assert f"`{row.qualified(root)[0]}`" in text


def test_migration_md_embeds_the_rendered_table() -> None:
    migration = ROOT / "MIGRATION.md"
    if not migration.exists():
        pytest.skip("MIGRATION.md is not written yet (it embeds legacy_api.renames.render_markdown())")
    text = migration.read_text(encoding="utf-8")
    if renames.MARKER_START not in text:
        pytest.skip(f"MIGRATION.md has no {renames.MARKER_START} ... {renames.MARKER_END} block yet")
    assert renames.MARKER_END in text
    between = text.split(renames.MARKER_START, 1)[1].split(renames.MARKER_END, 1)[0]
    assert between.strip() == renames.render_markdown().strip()


def test_importing_codemods_and_running_the_cli_never_imports_torch(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("from pytorch_lightning import Trainer\nTrainer(accelerator='ddp')\n")
    code = (
        "import sys, codemods, legacy_api.renames, codemods.rules, codemods.frontends.python.context\n"
        "from codemods.cli import main\n"
        f"main(['--check', '-j', '1', {str(tmp_path)!r}])\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_every_rule_has_its_own_test_file() -> None:
    tests = {p.stem.removeprefix("test_") for p in (ROOT / "tests" / "codemods" / "rules").glob("test_*.py")}
    assert tests == set(REGISTRY)
