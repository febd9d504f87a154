"""A notebook's command lines: the shell lines of its code cells and the prose of its markdown cells.

``!python train.py trainer.gpus=2`` in a code cell, a ``%%bash`` cell, and a command shown in a markdown cell are
command lines as a shell script's or a doc's are: the project index reads their overrides
(``codemods.project.scan_file``) and the command front end rewrites them (``codemods.frontends.notebooks.notebook``),
both on :func:`command_text`, the cell's text with every other line blanked. Line for line, so a command's line is
the cell's, and a rewrite goes back line by line (:func:`merge`). Reading the cells, not the file's JSON text, sees
a command continued over several source lines as one command, and its values as the shell gets them (``2``, not
the JSON's ``2\\n"``). Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterator

from codemods.frontends.notebooks.ipython import PYTHON_CELL_MAGICS, split_lines
from codemods.frontends.notebooks.sources import NotebookError, Source, position, read

#: Cell magics whose body is a shell script.
SHELL_CELL_MAGICS = frozenset({"bash", "sh", "script", "system"})
#: Line magics that run a command line (``%run train.py trainer.gpus=2``).
_COMMAND_MAGICS = ("!", "%run ", "%system ", "%sx ")


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def command_text(text: str, code: bool) -> str:
    """A cell's ``text`` (``code``: a code cell's) with each line that holds no command line blanked, its line
    ending kept: a markdown cell whole (a doc's prose and code blocks); of a code cell, a shell cell magic's body
    (``%%bash``), and its ``!`` and ``%run`` lines with the lines a trailing backslash continues them onto."""
    lines = split_lines(text)
    if not code:
        return text
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if first < len(lines) and lines[first].lstrip(" \t").startswith("%%"):
        words = lines[first].lstrip(" \t")[2:].split()
        if words and words[0] in SHELL_CELL_MAGICS:
            return "".join(_ending(line) if i <= first else line for i, line in enumerate(lines))
        if not words or words[0] not in PYTHON_CELL_MAGICS:
            return "".join(_ending(line) for line in lines)
    out: list[str] = []
    continued = False
    for line in lines:
        keep = continued or line.lstrip(" \t").startswith(_COMMAND_MAGICS)
        out.append(line if keep else _ending(line))
        continued = keep and line.rstrip("\r\n").endswith("\\")
    return "".join(out)


def merge(original: str, commands: str, rewritten: str) -> str:
    """``original`` with each line :func:`command_text` kept (``commands``) taken from ``rewritten`` instead (the
    command front end's output for ``commands``: line for line, as it never adds a line to a notebook)."""
    kept, new = split_lines(commands), split_lines(rewritten)
    lines = split_lines(original)
    if len(new) != len(kept) or len(kept) != len(lines):
        return original
    return "".join(new[i] if kept[i] == lines[i] and kept[i].strip() else lines[i] for i in range(len(lines)))


def command_texts(text: str) -> Iterator[tuple[Source, str]]:
    """Each cell that holds a command line, with its :func:`command_text`; nothing for a file that is no notebook."""
    try:
        _, sources = read(text)
    except (NotebookError, ValueError):
        return
    for source in sources:
        commands = command_text(source.text, source.code)
        if "trainer" in commands or "--" in commands:
            yield source, commands


def file_line(text: str, source: Source, line: int) -> int:
    """The line of the ``.ipynb`` file where ``source``'s line ``line`` (1-based) is."""
    return position(text, source, line, 1)[0]
