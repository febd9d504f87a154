"""A notebook's command lines, line for line (``codemods.frontends.notebooks.shell``)."""

from __future__ import annotations

import pytest

from codemods.frontends.notebooks.shell import command_text, merge


@pytest.mark.parametrize(
    ("text", "code", "commands"),
    [
        pytest.param("x = 1\n!python t.py trainer.gpus=2\n", True, "\n!python t.py trainer.gpus=2\n", id="a ! line"),
        pytest.param("!python t.py \\\n  trainer.gpus=2\ny = 2", True, "!python t.py \\\n  trainer.gpus=2\n", id="continued"),
        pytest.param("%%bash\npython t.py trainer.gpus=2\n", True, "\npython t.py trainer.gpus=2\n", id="a bash cell"),
        pytest.param("%%time\ns = 'trainer.gpus=2'\n", True, "\n\n", id="a Python cell magic: no command"),
        pytest.param("%%writefile x.sh\npython t.py trainer.gpus=2\n", True, "\n\n", id="a file's text: none"),
        pytest.param("%run t.py trainer.gpus=2", True, "%run t.py trainer.gpus=2", id="percent run"),
        pytest.param("Run `python t.py trainer.gpus=2`\n", False, "Run `python t.py trainer.gpus=2`\n", id="markdown"),
        pytest.param('s = "trainer.gpus=2"\r\n', True, "\r\n", id="a Python string is the Python front end's"),
    ],
)
def test_only_command_lines_are_kept_line_for_line(text: str, code: bool, commands: str) -> None:
    assert command_text(text, code) == commands


def test_a_rewrite_goes_back_to_the_command_lines_only() -> None:
    original = "import os\n!python t.py trainer.gpus=2\nprint(1)\n"
    commands = command_text(original, True)
    rewritten = commands.replace("trainer.gpus=2", "trainer.accelerator=gpu trainer.devices=2")
    assert merge(original, commands, rewritten) == original.replace(
        "trainer.gpus=2", "trainer.accelerator=gpu trainer.devices=2"
    )


def test_a_rewrite_that_added_a_line_is_not_merged() -> None:
    original = "!python t.py trainer.gpus=2\n"
    assert merge(original, original, "# TODO\n" + original) == original
