"""The project index's text files and override strings: ``trainer.gpus=2``, ``+trainer.gpus=2``,
``--trainer.gpus 2`` (LightningCLI) and ``${trainer.gpus}`` interpolations, in text files (shell scripts, docs,
notebooks, make/CI files) and in Python string literals; and the facts (``codemods.project.index.FACTS``) a file's text
states. Standard library only.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from codemods.project.command_scripts import command_picks, command_script
from codemods.project.command_syntax import TODO_MARK, commands
from codemods.project.index import Use

#: Not after ``(`` or ``[`` (``isinstance(trainer.accelerator, X)`` in a notebook's code), nor compared
#: (``trainer.accelerator == "ddp"``): code reading a Trainer's property, not a config override.
_OVERRIDE = re.compile(
    r"(?<![\w.$/{(\[-])(?:\+\+|\+|--)?(trainer)\.(\w+)(?=\s*=(?!=)|\s+(?!==)\S|\s*$|[\"',\]])", re.MULTILINE
)


_INTERPOLATION = re.compile(r"\$\{\s*(trainer)\.(\w+)\s*\}")
#: ``${train.trainer.gpus}``: a Trainer section under another key, so never the file's own top-level one.
_NESTED_INTERPOLATION = re.compile(r"\$\{\s*(?:[\w-]+\.)+(trainer)\.(\w+)\s*\}")


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(match.end() for match in re.finditer(r"\n", text))
    return starts


def _line_of(starts: Sequence[int], offset: int) -> int:
    return bisect_right(starts, offset)


def text_uses(text: str, path: str, interpolations: bool = False) -> list[Use]:
    """Override strings (and, when asked, ``${trainer.x}`` interpolations) in a text file.

    Each mention of ``trainer.<key>`` that looks like an override is a use; one that is a token of a command
    line (``codemods.project.command_syntax``) carries that command, so that the run can tell an override that
    migrates with the config from one that stays.
    """
    if "trainer" not in text:
        return []
    if TODO_MARK in text:  # this tool's own TODOs name the keys they are about: blank them, keeping offsets
        text = re.sub(rf"^.*{re.escape(TODO_MARK)}.*$", lambda m: " " * len(m.group()), text, flags=re.MULTILINE)
    starts = _line_starts(text)
    command_at: dict[int, tuple[tuple[str, str, str, str], ...]] = {}
    runs_at: dict[int, tuple[str, tuple[str, ...]]] = {}
    dead: set[int] = set()
    for start, end, found in commands(text):
        # a line commented out (a shell's or a Jenkinsfile's comment) runs nowhere: it holds no config back
        # (``codemods.project.facts`` counts the mentions outside such lines alike)
        commented = {
            t.start
            for t in found
            if text[text.rfind("\n", 0, t.start) + 1 : t.start].lstrip(' \t"').startswith(("#", "//"))
        }
        dead.update(commented)
        found = [token for token in found if token.start not in commented]
        if not found:
            continue
        items = tuple(token.item for token in found if token.style != "argparse")
        command_at.update((token.start, items) for token in found)
        runs = (command_script(text[start : found[0].start]), command_picks(text[start:end]))
        runs_at.update((token.start, runs) for token in found)
    found_uses = []
    for m in _OVERRIDE.finditer(text):
        if m.start() in dead:
            continue
        script, picks = runs_at.get(m.start(), ("", ()))
        line = _line_of(starts, m.start())
        command = command_at.get(m.start(), ())
        found_uses.append(
            Use(f"{m.group(1)}.{m.group(2)}", path, line, "override", command, script=script, picks=picks)
        )
    if interpolations:
        found_uses.extend(
            Use(f"{m.group(1)}.{m.group(2)}", path, _line_of(starts, m.start()), "interpolation")
            for m in _INTERPOLATION.finditer(text)
        )
    found_uses.extend(
        Use(f"{m.group(1)}.{m.group(2)}", path, _line_of(starts, m.start()), "interpolation")
        for m in _NESTED_INTERPOLATION.finditer(text)
    )
    return found_uses


_HYDRA_PIN = re.compile(r"hydra[-_]core\s*(==|>=|~=|>|<=|<)\s*(\d+)\.(\d+)", re.IGNORECASE)
_ARGPARSE_TRAINER = re.compile(r"Trainer\s*\.\s*add_argparse_args\s*\(")
_ARGPARSE_NAMESPACE = re.compile(r"Trainer\s*\.\s*from_argparse_args\s*\(")
_OWN_OPTION = re.compile(
    r"add_argument\(\s*[\"'](--(?:gpus|tpu_cores|ipus|num_processes|distributed_backend|accelerator"
    r"|amp_backend|amp_level|precision|strategy|devices|num_nodes))[\"']"
)


_REQUIREMENTS = re.compile(
    r"(?:^|/)(?:requirements[^/]*\.(?:txt|in|ya?ml)|setup\.(?:py|cfg)|pyproject\.toml|environment[^/]*\.ya?ml|Pipfile)$"
)


def text_facts(text: str, path: str = "") -> tuple[str, ...]:
    """:data:`FACTS` a file's text states: a ``hydra-core`` requirement (in a requirements file, ``setup.py``,
    ``pyproject.toml``, a conda environment: a doc's example pin is no requirement), ``++`` overrides or
    ``_self_`` in a defaults list (both new in Hydra 1.1), ``Trainer.add_argparse_args``, a project option
    named like a flag."""
    facts: set[str] = set()
    if "ydra" in text and _REQUIREMENTS.search(path.replace("\\", "/")):
        for match in _HYDRA_PIN.finditer(text):
            version = (int(match.group(2)), int(match.group(3)))
            operator = match.group(1)
            if operator in (">=", "==", "~=", ">"):
                facts.add("hydra>=1.1" if version >= (1, 1) else "hydra<1.1")
            elif version <= (1, 1):
                facts.add("hydra<1.1")
    if "++trainer." in text or re.search(r"^\s*-\s*_self_\s*$", text, re.MULTILINE):
        facts.add("hydra>=1.1")
    if "add_argparse_args" in text and _ARGPARSE_TRAINER.search(text):
        facts.add("argparse_trainer")
    if "from_argparse_args" in text and _ARGPARSE_NAMESPACE.search(text):
        facts.add("argparse_namespace")
    if "add_argument" in text:
        facts.update(f"option:{match.group(1)}" for match in _OWN_OPTION.finditer(text))
    if path.endswith(".py") and "OmegaConf.from_cli(" in text and "hydra" not in text:
        # torchgeo's train.py: its command lines are OmegaConf dotlists, which add a key they do not find (and read
        # a Hydra prefix as part of the key)
        facts.add(f"{DOTLIST_CLI}{path}")
    return tuple(sorted(facts))


#: The fact a script states that parses its command line with ``OmegaConf.from_cli()`` (followed by its path).
DOTLIST_CLI = "dotlist-cli:"
