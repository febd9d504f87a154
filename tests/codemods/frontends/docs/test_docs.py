"""Code examples in Markdown and reStructuredText docs go through the Python rules (``codemods.frontends.docs.documents``): each row
is a document before and after, every byte outside the changed code lines stays, a second run is a noop."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codemods.model import Options
from codemods.project.scan import scan
from codemods.runner import process, transform_text

ROOT = Path(__file__).resolve().parents[4]
OPTIONS = Options(target="2.0")
OLD, NEW = "Trainer(gpus=2)", 'Trainer(accelerator="gpu", devices=2)'
IMPORT = "from pytorch_lightning import Trainer"
TODO = "# TODO(migrate-trainer): "


def _migrated(text: str, path: str) -> tuple[str, list[str]]:
    outcome = transform_text(text, path, OPTIONS)
    assert outcome.error is None, outcome.error
    again = transform_text(outcome.source, path, OPTIONS)
    assert again.source == outcome.source, "a second run must change nothing"
    assert not [f for f in again.findings if f.kind == "fix"], "nothing is fixed twice"
    return outcome.source, [f"{f.line} {f.rule}" for f in outcome.findings if f.kind != "report"]


ROWS = [
    pytest.param(
        "README.md",
        f"# Use\n\n```python\n{IMPORT}\n\ntrainer = {OLD}\n```\n",
        f"# Use\n\n```python\n{IMPORT}\n\ntrainer = {NEW}\n```\n",
        id="md: python fence",
    ),
    pytest.param(
        "README.md",
        f"~~~py\n{IMPORT}\n~~~\n\nThen:\n\n````\ntrainer = {OLD}\n````\n",
        f"~~~py\n{IMPORT}\n~~~\n\nThen:\n\n````\ntrainer = {NEW}\n````\n",
        id="md: tilde fence, then an untagged fence that uses its import",
    ),
    pytest.param(
        "README.md",
        f"1. Train:\n\n   ```python\n   {IMPORT}\n   trainer = {OLD}\n   ```\n2. Done\n",
        f"1. Train:\n\n   ```python\n   {IMPORT}\n   trainer = {NEW}\n   ```\n2. Done\n",
        id="md: fence indented in a list",
    ),
    pytest.param(
        "README.md",
        f"```python\n{IMPORT}\ntrainer = {OLD}\ntrainer.fit(model, ...\n```\n",
        None,
        id="md: a block that does not parse stays",
    ),
    pytest.param(
        "README.md",
        f"```python\n{IMPORT}\n```\n\n```bash\npython -c 'trainer = {OLD}'\n```\n\n```\nls\n```\n",
        None,
        id="md: shell and non-Python fences stay",
    ),
    pytest.param(
        "doc.rst",
        f".. code-block:: python\n    :linenos:\n    :caption: train.py\n\n    {IMPORT}\n\n    trainer = {OLD}\n\nText.\n",
        f".. code-block:: python\n    :linenos:\n    :caption: train.py\n\n    {IMPORT}\n\n    trainer = {NEW}\n\nText.\n",
        id="rst: code-block with options",
    ),
    pytest.param(
        "doc.rst",
        f".. testcode::\n\n   {IMPORT}\n\nTo train::\n\n    trainer = {OLD}\n    trainer.fit(model)\n\nEnd.\n",
        f".. testcode::\n\n   {IMPORT}\n\nTo train::\n\n    trainer = {NEW}\n    trainer.fit(model)\n\nEnd.\n",
        id="rst: :: literal block after a testcode",
    ),
    pytest.param(
        "doc.rst",
        "Example::\n\n    pip install x --gpus 2\n\n.. code-block:: bash\n\n    python train.py\n",
        None,
        id="rst: a literal block of shell stays",
    ),
    pytest.param(
        "doc.rst",
        f"Use it:\n\n    >>> {IMPORT}\n    >>> trainer = Trainer(\n    ...     gpus=2)\n    >>> trainer\n    <Trainer>\n",
        f'Use it:\n\n    >>> {IMPORT}\n    >>> trainer = Trainer(\n    ...     accelerator="gpu",\n'
        "    ...     devices=2)\n    >>> trainer\n    <Trainer>\n",
        id="rst: doctest prompts, output untouched",
    ),
    pytest.param(
        "README.md",
        f"```pycon\n>>> {IMPORT}\n>>> t = {OLD}\n>>> t.devices\n2\n```\n",
        f"```pycon\n>>> {IMPORT}\n>>> t = {NEW}\n>>> {TODO}",
        id="md: pycon fence, a TODO gets its own prompt",
    ),
    pytest.param(
        "doc.rst",
        ".. code-block:: python\n\n    trainer = Trainer(plugins=DDPPlugin())\n\n"
        ".. code-block:: python\n\n    from pytorch_lightning import Trainer\n"
        "    from pytorch_lightning.plugins import DDPPlugin\n",
        ".. code-block:: python\n\n"
        '    trainer = Trainer(strategy=DDPStrategy(), accelerator="cpu", devices=1)\n\n'
        ".. code-block:: python\n\n    from pytorch_lightning import Trainer\n"
        "    from pytorch_lightning.strategies import DDPStrategy\n",
        id="rst: an import a rule adds goes to the block that starts with imports",
    ),
]


@pytest.mark.parametrize(("path", "before", "after"), ROWS)
def test_code_examples_migrate(path: str, before: str, after: str | None) -> None:
    source, _ = _migrated(before, path)
    if after is None:
        assert source == before
    elif after.endswith(TODO):  # the TODO's text belongs to the rule; its place and prompt to this front end
        assert source.startswith(after) and source.endswith("[trainer_properties]\n>>> t.devices\n2\n```\n")
    else:
        assert source == after


def test_findings_carry_the_documents_lines_and_columns() -> None:
    text = f"Intro\n\n1. Step:\n\n   ```python\n   {IMPORT}\n   x = 1\n   trainer = {OLD}\n   ```\n"
    outcome = transform_text(text, "README.md", OPTIONS)
    row = next(f for f in outcome.findings if f.rule == "device_flags")
    assert (row.line, row.column) == (8, 14)
    assert text.splitlines()[row.line - 1][row.column - 1 :].startswith(OLD)


def test_overrides_in_shell_blocks_still_migrate_and_each_change_is_reported_once() -> None:
    text = f"```bash\npython train.py +trainer.tpu_cores=8\n```\n\n```python\n{IMPORT}\ntrainer = {OLD}\n```\n"
    source, found = _migrated(text, "README.md")
    migrated = "python train.py +trainer.accelerator=tpu +trainer.devices=8"
    assert source == text.replace("python train.py +trainer.tpu_cores=8", migrated).replace(OLD, NEW)
    assert found == ["2 overrides", "7 device_flags"]


def test_a_trainer_the_examples_never_import_is_reported(tmp_path: Path) -> None:
    text = f".. code-block:: python\n\n    model = Model()\n    trainer = {OLD}\n"
    outcome = transform_text(text, "doc.rst", OPTIONS)
    assert outcome.source == text
    assert [(f.rule, f.kind, f.line) for f in outcome.findings] == [("docs", "report", 4)]
    (tmp_path / "doc.rst").write_text(text, encoding="utf-8")
    assert scan(str(tmp_path / "doc.rst")).triggered


def test_crlf_documents_keep_their_line_endings() -> None:
    text = f"```python\r\n{IMPORT}\r\ntrainer = {OLD}\r\n```\r\n"
    source, _ = _migrated(text, "README.md")
    assert source == text.replace(OLD, NEW)


def test_the_cli_diffs_and_writes_a_readme(tmp_path: Path) -> None:
    text = f"# Train\n\n```python\n{IMPORT}\ntrainer = {OLD}\n```\n"
    (tmp_path / "README.md").write_text(text, encoding="utf-8")
    assert process(str(tmp_path / "README.md"), "check", OPTIONS).status == "changed"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "codemods.cli", ".", "--target-version", "2.0", "--no-progress", "--diff"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    assert f"-trainer = {OLD}\n+trainer = {NEW}\n" in done.stdout
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == text
