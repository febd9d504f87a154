"""Code examples inside Python docstrings go through the Python rules (``codemods.frontends.docs.docstrings``): each row
is a file before and after (None: byte for byte as it was), with the findings it must carry; a second run is a
noop."""

from __future__ import annotations

import ast

import pytest

from codemods.frontends.docs.docstrings import _Docstring, _unsafe
from codemods.model import Options
from codemods.runner import transform_text

OPTIONS = Options(target="2.6")
HEAD = "import pytorch_lightning as pl\n\n\n"
IMPORT = "from pytorch_lightning import Trainer"
OLD, NEW = "Trainer(gpus=2)", 'Trainer(accelerator="gpu", devices=2)'
RESUME = "resume_from_checkpoint='last.ckpt'"
TODO = "# TODO(migrate-trainer): resume_from_checkpoint='last.ckpt' (gone in 2.0): pass ckpt_path= to trainer.fit() instead"


ROWS = [
    pytest.param(
        f'def fit():\n    """Fit.\n\n    >>> {IMPORT}\n    >>> trainer = {OLD}\n    """\n',
        f'def fit():\n    """Fit.\n\n    >>> {IMPORT}\n    >>> trainer = {NEW}\n    """\n',
        ["8:19 device_flags fix", "8:19 trainer_defaults report"],
        id="doctest in a function docstring",
    ),
    pytest.param(
        f'class GAN:\n    """A GAN.\n\n    Example::\n\n        {IMPORT}\n\n        {OLD}.fit(GAN())\n\n    Args:\n'
        '        x: y\n    """\n',
        f'class GAN:\n    """A GAN.\n\n    Example::\n\n        {IMPORT}\n\n        {NEW}.fit(GAN())\n\n    Args:\n'
        '        x: y\n    """\n',
        ["11:9 device_flags fix", "11:9 trainer_defaults report"],
        id="indented Example:: block in a class docstring",
    ),
    pytest.param(
        f'def fit():\n    """>>> {IMPORT}; t = {OLD}\n    """\n',
        f'def fit():\n    """>>> {IMPORT}; t = {NEW}\n    """\n',
        ["5:55 device_flags fix", "5:55 trainer_defaults report"],
        id="a doctest on the docstring's first line: columns of the file",
    ),
    pytest.param(
        f'x = 1\n"""Example::\n\n    {IMPORT}\n    t = {OLD}\n"""\n',
        None,
        [],
        id="a string after the first statement is no docstring",
    ),
    pytest.param(
        f'def fit():\n    r"""Fit; ``\\n`` is a newline.\n\n    >>> {IMPORT}\n    >>> print("a\\nb"); t = {OLD}\n    """\n',
        f'def fit():\n    r"""Fit; ``\\n`` is a newline.\n\n    >>> {IMPORT}\n    >>> print("a\\nb"); t = {NEW}\n    """\n',
        ["8:28 device_flags fix", "8:28 trainer_defaults report"],
        id="raw docstring: a changed line may hold a backslash",
    ),
    pytest.param(
        f'def fit():\n    """Fit; ``\\\\`` is a backslash.\n\n    >>> {IMPORT}\n    >>> t = {OLD}\n    """\n',
        f'def fit():\n    """Fit; ``\\\\`` is a backslash.\n\n    >>> {IMPORT}\n    >>> t = {NEW}\n    """\n',
        ["8:13 device_flags fix", "8:13 trainer_defaults report"],
        id="a backslash outside the changed lines",
    ),
    pytest.param(
        f'def fit():\n    """Fit.\n\n    >>> {IMPORT}\n    >>> t = Trainer(gpus=2, default_root_dir="C:\\\\runs")\n    """\n',
        None,
        ["5:8 docs report"],
        id="a changed line with a backslash escape: reported, not rewritten",
    ),
    pytest.param(
        f'def fit():\n    ">>> {IMPORT}; t = {OLD}"\n',
        None,
        ["5:6 docs report"],
        id="not triple-quoted: reported",
    ),
    pytest.param(
        f'def fit():\n    """Fit.\n\n    >>> {IMPORT}\n    >>> t = Trainer(gpus=2,\n    """\n',
        None,
        [],
        id="an example that does not parse is left alone",
    ),
    pytest.param(
        f'def fit():\n    """Fit.\n\n    Example::\n\n        {OLD}.fit(model)\n    """\n',
        None,
        ["9:9 docs report"],
        id="a Trainer the example never imports is reported",
    ),
    pytest.param(
        # ``run(trainer)``: a Trainer passed on keeps its resume_from_checkpoint (and the TODO).
        f'def fit():\n    """Fit.\n\n    >>> {IMPORT}\n    >>> trainer = Trainer({RESUME})\n    >>> run(trainer)\n    """\n',
        f'def fit():\n    """Fit.\n\n    >>> {IMPORT}\n    >>> {TODO} [removed_arguments]\n'
        f'    >>> trainer = Trainer({RESUME})\n    >>> run(trainer)\n    """\n',
        ["8:19 trainer_defaults report", "8:27 removed_arguments todo"],
        id="a TODO in a doctest is a >>> comment line",
    ),
    pytest.param(
        f'def fit():\n    """Fit.\n\n    Example::\n\n        {IMPORT}\n        trainer = Trainer({RESUME})\n    """\n',
        f'def fit():\n    """Fit.\n\n    Example::\n\n        {IMPORT}\n        {TODO} [removed_arguments]\n'
        f'        trainer = Trainer({RESUME})\n    """\n',
        ["10:19 trainer_defaults report", "10:27 removed_arguments todo"],
        id="a TODO in a literal block is a comment line",
    ),
    pytest.param(
        f'def fit():\n    """Mentions {OLD} in prose, and a slice a[::2]."""\n    return pl.{OLD}\n',
        'def fit():\n    """Mentions Trainer(gpus=2) in prose, and a slice a[::2]."""\n'
        '    return pl.Trainer(accelerator="gpu", devices=2)\n',
        ["6:12 device_flags fix", "6:12 trainer_defaults report"],
        id="prose is no example; the code's findings keep their lines",
    ),
    pytest.param(
        f'def fit():\n    """Fit.\n\n    >>> {IMPORT}\n    >>> trainer = Trainer({RESUME})\n    """\n    return pl.{OLD}\n',
        f'def fit():\n    """Fit.\n\n    >>> {IMPORT}\n    >>> {TODO} [removed_arguments]\n'
        f'    >>> trainer = Trainer({RESUME})\n    """\n    return pl.{NEW}\n',
        [
            "8:19 trainer_defaults report",
            "8:27 removed_arguments todo",
            "10:12 device_flags fix",
            "10:12 trainer_defaults report",
        ],
        id="code after a docstring that grew keeps the line it was read at",
    ),
]


@pytest.mark.parametrize(("body", "expected", "findings"), ROWS)
def test_docstring_examples(body: str, expected: str | None, findings: list[str]) -> None:
    before = HEAD + body
    outcome = transform_text(before, "module.py", OPTIONS)
    assert outcome.error is None
    assert outcome.source == (before if expected is None else HEAD + expected)
    assert outcome.changed == (expected is not None)
    ast.parse(outcome.source)
    assert sorted(f"{f.line}:{f.column} {f.rule} {f.kind}" for f in outcome.findings) == sorted(findings)
    again = transform_text(outcome.source, "module.py", OPTIONS)
    assert again.source == outcome.source, "a second run must change nothing"
    assert not [f for f in again.findings if f.kind == "fix"], "nothing is fixed twice"


@pytest.mark.parametrize(
    ("quote", "body", "new", "why"),
    [
        pytest.param('"""', "a\n", 'a"""\n', "end the", id="new text holds the closing quotes"),
        pytest.param('"""', "a", 'a"', "end the", id="new text ends with a quote character"),
        pytest.param("'''", "a\n", 'a"""\n', None, id="the other quotes are text"),
        pytest.param('"""', "a \\\nb\n", "a \\\n# c\nb\n", "backslash", id="a line a trailing backslash joins"),
    ],
)
def test_unsafe(quote: str, body: str, new: str, why: str | None) -> None:
    reason = _unsafe(_Docstring(0, 1, 1, "", quote, body), new)
    assert (reason is None) if why is None else (reason is not None and why in reason)
