"""MIGRATION.md's generated tables match the rule registry and the renames table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_generated_tables_are_current() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "render_migration.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr or result.stdout
