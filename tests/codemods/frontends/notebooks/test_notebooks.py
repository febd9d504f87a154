"""Jupyter notebooks: code cells migrate like a script, IPython lines and every byte outside the changed sources
stay, findings name the cell, ``--diff`` shows cells (``codemods.frontends.notebooks.notebook``, ``codemods.frontends.notebooks.ipython``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codemods.files import discover
from codemods.frontends.notebooks.ipython import mask, unmask
from codemods.frontends.notebooks.sources import read
from codemods.model import Options
from codemods.runner import process, transform_text

ROOT = Path(__file__).resolve().parents[4]
OPTIONS = Options(target="2.0")
IMPORTS = "import pytorch_lightning as pl\nfrom pytorch_lightning import Trainer"
OLD, NEW = "trainer = Trainer(gpus=2)", 'trainer = Trainer(accelerator="gpu", devices=2)'


def _code(source: str, listed: bool = True, count: int | None = 1) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "execution_count": count,
        "id": f"id-{count}",
        "metadata": {"scrolled": True},
        "outputs": [{"name": "stdout", "output_type": "stream", "text": ["Trainer(gpus=2) output\n"]}],
        "source": source.splitlines(keepends=True) if listed else source,
    }


def _notebook(*cells: dict[str, Any], indent: int = 1, ascii_only: bool = False, language: str = "python") -> str:
    notebook = {
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["Use `Trainer(gpus=2)`"]}, *cells],
        "metadata": {"kernelspec": {"language": language, "name": "k"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=indent, sort_keys=True, ensure_ascii=ascii_only) + "\n"


def _sources(text: str) -> list[str]:
    """Each code cell's source text, in order."""
    return [source.text for source in read(text)[1] if source.code]


def _outside_sources(text: str) -> str:
    """Every byte of the file but the code cells' source values."""
    out, done = [], 0
    for source in read(text)[1]:
        if source.code:
            out.append(text[done : source.start])
            done = source.end
    return "".join(out) + text[done:]


def _migrated(text: str) -> str:
    outcome = transform_text(text, "nb.ipynb", OPTIONS)
    assert outcome.error is None, outcome.error
    again = transform_text(outcome.source, "nb.ipynb", OPTIONS)
    assert again.source == outcome.source, "a second run must change nothing"
    json.loads(outcome.source)
    return outcome.source


IPYTHON = [
    pytest.param("!pip install pytorch-lightning==1.5.10", id="shell escape"),
    pytest.param("!!ls", id="shell capture"),
    pytest.param("%matplotlib inline", id="line magic"),
    pytest.param("%load_ext autoreload", id="load_ext"),
    pytest.param("Trainer?", id="help after a name"),
    pytest.param("pl.Trainer.fit??", id="source help after a dotted name"),
    pytest.param("?Trainer", id="help before a name"),
    pytest.param("files = !ls data", id="shell output assigned"),
    pytest.param("t = %timeit -o sum(range(9))", id="magic output assigned"),
    pytest.param("!pip install \\\n    pytorch-lightning", id="shell escape continued by a backslash"),
    pytest.param("if True:\n    !nvidia-smi", id="indented shell escape"),
    pytest.param("%%time", id="python cell magic"),
    pytest.param("%%capture out", id="capture cell magic"),
]


@pytest.mark.parametrize("ipython", IPYTHON)
def test_ipython_lines_stay_byte_for_byte_and_the_code_around_them_migrates(ipython: str) -> None:
    text = _notebook(_code(IMPORTS), _code(f"{ipython}\n{OLD}\n%env X=1", count=2))
    assert _sources(_migrated(text)) == [IMPORTS, f"{ipython}\n{NEW}\n%env X=1"]


NOT_PYTHON = [
    pytest.param("%%bash\npython train.py --gpus 2", id="bash cell magic"),
    pytest.param(f"%%writefile train.py\n{IMPORTS}\n{OLD}", id="writefile cell magic"),
    pytest.param(f"%%html\n<p>{OLD}</p>", id="html cell magic"),
]


@pytest.mark.parametrize("cell", NOT_PYTHON)
def test_a_cell_under_a_non_python_cell_magic_stays(cell: str) -> None:
    text = _notebook(_code(f"{IMPORTS}\n{OLD}"), _code(cell, count=2))
    assert _sources(_migrated(text)) == [f"{IMPORTS}\n{NEW}", cell]


def test_an_exclamation_mark_inside_a_string_or_brackets_is_python() -> None:
    cell = f'doc = """\n!not a shell escape\n?not help\n"""\nx = (\n    1\n)\n{OLD}'
    assert _sources(_migrated(_notebook(_code(IMPORTS), _code(cell))))[1] == cell.replace(OLD, NEW)


def test_mask_and_unmask_round_trip() -> None:
    cell = "%matplotlib inline\nimport os\nif os:\n    !ls \\\n  -l\nx = 1"
    masked = mask(cell)
    assert masked.text.count("\n") == cell.count("\n") and "!" not in masked.text and "%" not in masked.text
    assert unmask(masked.text, masked.lines) == cell
    assert unmask(masked.text.replace("import __migrate_trainer_ipython_0__\n", ""), masked.lines) is None


FORMATS = [
    pytest.param({}, {}, id="nbformat: indent 1, raw UTF-8, list sources"),
    pytest.param({"indent": 2}, {}, id="indent 2"),
    pytest.param({"ascii_only": True}, {}, id="non-ASCII escaped"),
    pytest.param({}, {"listed": False}, id="one string per source"),
]


@pytest.mark.parametrize(("layout", "cell"), FORMATS)
def test_only_the_changed_sources_change_in_the_files_own_format(layout: dict[str, Any], cell: dict[str, Any]) -> None:
    code = f"{OLD}  # entraîner\nprint(trainer)"
    text = _notebook(_code(IMPORTS, **cell), _code(code, **cell), **layout)
    after = _migrated(text)
    assert _outside_sources(after) == _outside_sources(text)
    assert _sources(after) == [IMPORTS, code.replace(OLD, NEW)]
    escaped = "\\u00ee" in after
    assert escaped == bool(layout.get("ascii_only")) and ("î" in after) != escaped
    assert isinstance(json.loads(after)["cells"][2]["source"], list) == cell.get("listed", True)


def test_a_list_source_keeps_the_literals_of_its_unchanged_lines() -> None:
    text = _notebook(_code(IMPORTS), _code(f"x = '\\u00e9'\n{OLD}\ny = 'caf\u00e9'"))
    text = text.replace("\"y = 'caf\u00e9'\"", "\"y = 'caf\\u00e9'\"")  # a line that escapes what others do not
    after = _migrated(text)
    assert "\"y = 'caf\\u00e9'\"" in after and _outside_sources(after) == _outside_sources(text)


def test_crlf_and_no_final_newline_stay() -> None:
    text = _notebook(_code(IMPORTS), _code(OLD)).replace("\n", "\r\n").rstrip("\r\n")
    after = _migrated(text)
    assert _outside_sources(after) == _outside_sources(text) and _sources(after)[1] == NEW


SPLIT = "from pytorch_lightning.plugins import DDPPlugin, NativeMixedPrecisionPlugin"
ADDED = "from pytorch_lightning.strategies import DDPStrategy"
IMPORT_CELLS = [
    pytest.param(["import os\nimport pytorch_lightning as pl", f"print(1)\n{SPLIT}"], 0, id="the first cell's imports"),
    pytest.param(["!pip install lightning\n%load_ext autoreload", "import os", f"x = 1\n{SPLIT}"], 1, id="after pip"),
    pytest.param(["print('set up')", "import os\n\nimport torch\nx = 1", f"x = 2\n{SPLIT}"], 1, id="hoisted"),
    pytest.param(["import os", "%matplotlib inline\nimport torch", f"x = 1\n{SPLIT}"], 1, id="import cells"),
]


@pytest.mark.parametrize(("cells", "target"), IMPORT_CELLS)
def test_an_import_a_rule_adds_lands_in_the_cell_that_holds_the_imports(cells: list[str], target: int) -> None:
    text = _notebook(*(_code(source, count=i) for i, source in enumerate(cells)))
    after = _sources(_migrated(text))
    assert [ADDED in source for source in after] == [i == target for i in range(len(cells))]
    import_lines = [line for line in after[target].splitlines() if line.startswith(("import", "from"))]
    assert import_lines[-1] == ADDED
    # the name renamed within its own module stays where it was imported
    assert after[-1].splitlines()[-1] == "from pytorch_lightning.plugins import MixedPrecisionPlugin"
    assert SPLIT not in "".join(after)


def test_a_cell_that_does_not_parse_stays_and_is_reported_while_the_others_migrate() -> None:
    broken = "trainer = pl.Trainer(gpus=2,\nprint(1)"
    text = _notebook(_code(IMPORTS), _code(broken, count=2), _code(OLD, count=3))
    outcome = transform_text(text, "nb.ipynb", OPTIONS)
    assert outcome.error is None and _sources(outcome.source) == [IMPORTS, broken, NEW]
    (finding,) = [f for f in outcome.findings if f.rule == "notebook"]
    assert finding.kind == "todo" and finding.message.endswith("(cell 3, line 1)")
    assert "trainer = pl.Trainer(gpus=2," in text.splitlines()[finding.line - 1]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('{"cells": [{"cell_type": "code", "source": "import pytorch_lightning"}', id="truncated JSON"),
        pytest.param('{"cells": [], "nbformat": 4,}  # pytorch_lightning', id="trailing comma"),
        pytest.param('["pytorch_lightning"]', id="no cells"),
    ],
)
def test_a_notebook_that_is_not_json_fails_and_is_left_byte_for_byte(tmp_path: Path, text: str) -> None:
    path = tmp_path / "nb.ipynb"
    path.write_bytes(text.encode())
    result = process(str(path), "write", OPTIONS)
    assert result.status == "failed" and result.error
    assert path.read_bytes() == text.encode()


def test_a_notebook_of_another_language_is_left_alone() -> None:
    text = _notebook(_code(f"{IMPORTS}\n{OLD}"), language="R")
    assert transform_text(text, "nb.ipynb", OPTIONS).source == text


def test_a_finding_names_the_cell_and_the_files_line() -> None:
    text = _notebook(_code(IMPORTS), _code(f"x = 1\n{OLD}", count=2))
    outcome = transform_text(text, "nb.ipynb", OPTIONS)
    finding = next(f for f in outcome.findings if f.rule == "device_flags")
    assert finding.message.endswith("(cell 3, line 2)")
    line = text.splitlines()[finding.line - 1]
    assert line[finding.column - 1 :].startswith("Trainer(gpus=2)")


def test_folders_yield_notebooks(tmp_path: Path) -> None:
    (tmp_path / "nb.ipynb").write_text(_notebook(_code(OLD)), encoding="utf-8")
    assert [p.name for p in discover([str(tmp_path)])] == ["nb.ipynb"]


def _cli(tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "codemods.cli", "nb.ipynb", "--target-version", "2.0", "--no-progress", *flags]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_diff_shows_each_changed_cell_and_check_annotates_the_files_line(tmp_path: Path) -> None:
    text = _notebook(_code(IMPORTS), _code("%matplotlib inline", count=2), _code(f"x = 1\n{OLD}", count=3))
    (tmp_path / "nb.ipynb").write_text(text, encoding="utf-8")
    done = _cli(tmp_path, "--diff")
    assert done.returncode == 1, done.stderr
    assert done.stdout == (
        f"--- a/nb.ipynb (cell 4)\n+++ b/nb.ipynb (cell 4)\n@@ -1,2 +1,2 @@\n x = 1\n-{OLD}\n+{NEW}\n"
    )
    done = _cli(tmp_path, "--check", "--format", "github")
    row = next(line for line in done.stdout.splitlines() if "title=device_flags" in line)
    number = int(row.split("line=")[1].split(",")[0])
    assert OLD in text.splitlines()[number - 1] and row.endswith("(cell 4, line 2)")
    assert (tmp_path / "nb.ipynb").read_text(encoding="utf-8") == text
    assert _cli(tmp_path).returncode == 1 and _cli(tmp_path, "--check").returncode == 0
