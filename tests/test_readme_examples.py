"""The README's Python examples run as written (each as its own script, as a user would paste it).

A block whose first line says it needs GPUs (``# On a machine with 2 GPUs:``) runs on a faked machine
with that many, through newcore's probe: the one place hardware is faked.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_python_block_runs(index: int, tmp_path: Path) -> None:
    block = BLOCKS[index]
    wanted = re.match(r"# On a machine with (\d+) GPUs", block)
    if wanted:
        block = (
            "from newcore.probe import FakeProbe, use_probe\n"
            # Keep the context manager referenced: collecting it would restore the real probe.
            f"_faked = use_probe(FakeProbe(cuda={wanted.group(1)}))\n_faked.__enter__()\n" + block
        )
    script = tmp_path / "example.py"
    script.write_text(block, encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=110)
    assert result.returncode == 0, result.stdout + result.stderr
