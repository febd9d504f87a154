"""A defect of this tool in one file never stops the run: the file is reported as failed and left byte for byte,
the others migrate. Phase two (the rules) always kept that contract; phase one (the scan that plans the project) now
does too: a scan that raised on a file with ``__init__`` outside any class once stopped a whole project's run. The
fault is injected at the one seam, the per-file scan, for one file only."""

from __future__ import annotations

from pathlib import Path

import pytest

import codemods.project.scan as scan_module
from codemods.model import Options
from codemods.runner import run

LEGACY = "import pytorch_lightning as pl\ntrainer = pl.Trainer(gpus=2)\n"


@pytest.mark.parametrize("jobs", [1, 2], ids=["serial", "parallel"])
def test_a_scan_that_raises_fails_its_file_only(jobs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(LEGACY)
    bad.write_text(LEGACY)
    real = scan_module._scan

    def faulty(path: str, data: bytes, rainer: bool) -> scan_module.Scan:
        if path.endswith("bad.py"):
            raise ValueError("injected")
        return real(path, data, rainer)

    monkeypatch.setattr(scan_module, "_scan", faulty)
    results = {Path(result.path).name: result for result in run([str(good), str(bad)], "write", Options(), jobs)}
    assert results["bad.py"].status == "failed"
    assert "internal error while scanning: ValueError: injected" in (results["bad.py"].error or "")
    assert bad.read_text() == LEGACY
    assert results["good.py"].status == "changed"
    assert 'accelerator="gpu"' in good.read_text()
