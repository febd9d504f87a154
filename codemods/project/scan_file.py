"""One file's contribution to the project index, dispatched on its kind: Python (``codemods.project.scan_python``),
YAML (``codemods.project.scan_yaml``) or text (``codemods.project.scan_text``). Standard library only.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from codemods.project.index import FileIndex, Use
from codemods.project.scan_python import python_index
from codemods.project.scan_text import _line_of, _line_starts, text_facts, text_uses
from codemods.project.scan_yaml import yaml_uses

#: What a Python file that does not parse (a cookiecutter template's ``{{ ... }}``) may say of a config key:
#: ``cfg.trainer.gpus``, ``cfg["trainer"]["gpus"]``, ``cfg.trainer["gpus"]``. Text, so a use that holds the key
#: (``self.trainer.gpus`` too: it cannot be told from a config here), never one that moves.
_UNPARSED_PYTHON_USE = re.compile(r"""(?:\btrainer|\[\s*["']trainer["']\s*\])(?:\.|\s*\[\s*["'])(\w+)""")


def index_text(text: str, path: str) -> FileIndex:
    """Index one file's text, dispatching on its kind; a Python file that does not parse contributes nothing."""
    plugin_config = path.endswith((".yaml", ".yml")) and ("Plugin" in text or "Strategy" in text)
    facts = text_facts(text, path) if "ydra" in text or "add_a" in text or "from_cli" in text else ()
    group_file = path.endswith((".yaml", ".yml")) and "/trainer/" in f"/{path}"
    if "rainer" not in text and not plugin_config and not group_file:  # a group file's keys need no "trainer"
        return FileIndex(facts=facts)
    if path.endswith((".py", ".pyi")):
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            # Not rewritten (phase two reports it), but what it mentions still holds the config's keys.
            starts = _line_starts(text)
            uses = tuple(
                Use(f"trainer.{m.group(1)}", path, _line_of(starts, m.start()), "read")
                for m in _UNPARSED_PYTHON_USE.finditer(text)
            )
            return FileIndex(uses=uses, facts=facts)
        return python_index(tree, path, facts, text)
    if path.endswith((".yaml", ".yml")):
        return yaml_uses(text, path)
    found = text_uses(text, path)
    if path.endswith(".ipynb"):
        found = _notebook_uses(text, path, found)
    return FileIndex(uses=tuple(found), facts=text_facts(text, path))


def _notebook_uses(text: str, path: str, raw: list[Use]) -> list[Use]:
    """A notebook's uses: its command lines read from its cells as the shell gets them (a command continued over
    several source lines is one command: ``codemods.frontends.notebooks.shell``), at their lines of the file; the
    rest (a Python string in a code cell) as found in the file's text."""
    from codemods.frontends.notebooks.shell import command_texts, file_line

    commands: list[Use] = []
    covered: set[int] = set()
    for source, cell_text in command_texts(text):
        lines = cell_text.splitlines()
        covered.update(file_line(text, source, i + 1) for i, line in enumerate(lines) if line.strip())
        for use in text_uses(cell_text, path):
            commands.append(replace(use, line=file_line(text, source, use.line)))
    return [use for use in raw if use.line not in covered] + commands
