"""Command lines as text: where the Trainer overrides of one command are, and what their values read as.

Three spellings are recognised, each a :class:`Token` with the exact spans of its parts:

* Hydra: ``trainer.gpus=2``, ``+trainer.gpus=2`` (add), ``++trainer.gpus=2`` (add or override);
* LightningCLI (jsonargparse): ``--trainer.gpus 2`` and ``--trainer.gpus=2``;
* ``Trainer.add_argparse_args``: ``--gpus 2`` / ``--gpus=2`` (only found when asked: any CLI has a ``--gpus``).

One command is one logical line (backslash continuations joined) of a shell script, a Makefile or a doc, or one
Python string. Standard library only: the project index (``codemods.project.index``) parses with it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

Style = Literal["hydra", "cli", "argparse"]
#: Lines with this mark are the tool's own TODOs (``codemods.model.TODO_PREFIX``), never commands or uses.
TODO_MARK = "TODO(migrate-trainer)"

#: A shell word: unquoted characters (no blank, no shell operator, no backtick) and quoted runs.
#: ``<GPU_IDS>`` inside a word is a doc's placeholder (``trainer.gpus=[<CHANGE_TO_GPU_YOU_WANT_TO_USE>]``), not a
#: redirection (which a blank precedes).
_WORD = r"(?:\$\([^)\s]*\)|\$\{[^}\s]*\}|(?<=[\w=\[,])<[^<>\s]+>|[^\s'\"`;|&<>()]|'[^'\n]*'|\"[^\"\n]*\")+"
_HYDRA = re.compile(rf"(?<![\w.$/{{~+-])(\+\+|\+|~)?trainer\.(\w+)=({_WORD})?")
_CLI = re.compile(rf"(?<![\w.$/{{-])--trainer\.(\w+)(=|[ \t]+)(?!-[A-Za-z-])({_WORD})")
#: Trainer flags ``add_argparse_args`` adds whose values the rules may change.
ARGPARSE_FLAGS = (
    "gpus",
    "tpu_cores",
    "ipus",
    "num_processes",
    "distributed_backend",
    "accelerator",
    "amp_backend",
    "amp_level",
    "precision",
    "strategy",
    "devices",
    "num_nodes",
)
_ARGPARSE = re.compile(rf"(?<![\w.$/{{-])--({'|'.join(ARGPARSE_FLAGS)})(=|[ \t]+)(?!-[A-Za-z-])({_WORD})")


@dataclass(frozen=True)
class Token:
    """One override of a command: ``text[start:end]`` is all of it, ``text[value_start:end]`` its value."""

    style: Style
    prefix: str
    key: str
    separator: str
    value: str
    start: int
    value_start: int
    end: int

    @property
    def item(self) -> tuple[str, str, str, str]:
        """Position-free form (style, prefix, key, value), as the project index stores a command."""
        return (self.style, self.prefix, self.key, self.value)


def logical_lines(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each logical line: a line ending in a backslash goes on with the next one."""
    start = 0
    position = 0
    while position <= len(text):
        newline = text.find("\n", position)
        end = len(text) if newline < 0 else newline
        if text[:end].rstrip("\r").endswith("\\") and newline >= 0:
            position = newline + 1
            continue
        yield start, end
        if newline < 0:
            return
        start = position = newline + 1


def tokens(command: str, argparse: bool = False, offset: int = 0) -> list[Token]:
    """The Trainer overrides of one command, in order; ``--gpus``-style ones too with ``argparse``."""
    found: list[Token] = []
    for match in _HYDRA.finditer(command):
        value = match.group(3) or ""
        value_start = match.start(3) if match.group(3) is not None else match.end()
        found.append(
            Token(
                "hydra",
                match.group(1) or "",
                match.group(2),
                "=",
                value,
                offset + match.start(),
                offset + value_start,
                offset + match.end(),
            )
        )
    for pattern, style in ((_CLI, "cli"), (_ARGPARSE, "argparse")):
        if style == "argparse" and not argparse:
            continue
        for match in pattern.finditer(command):
            if style == "argparse" and not argparse_accepts(match.group(1), match.group(3)):
                continue  # ``the --gpus argument``: prose, or a value 1.5's parser refused
            found.append(
                Token(
                    "cli" if style == "cli" else "argparse",
                    "--",
                    match.group(1),
                    match.group(2),
                    match.group(3),
                    offset + match.start(),
                    offset + match.start(3),
                    offset + match.end(),
                )
            )
    return sorted(found, key=lambda token: token.start)


def commands(text: str, argparse: bool = False) -> Iterator[tuple[int, int, list[Token]]]:
    """Each logical line of ``text`` that holds overrides: its span and its tokens (offsets into ``text``)."""
    if "trainer." not in text and not argparse:
        return
    for start, end in logical_lines(text):
        if TODO_MARK in text[start:end]:
            continue  # a TODO this tool wrote names the overrides it left: it is no command
        found = tokens(text[start:end], argparse, start)
        if found:
            yield start, end, found


# --- values -------------------------------------------------------------------------------------------------
class Opaque:
    """A value that cannot be read: why (a sweep, a shell variable, an interpolation, a function)."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"Opaque({self.why!r})"


_INT = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?")


def unquote_shell(word: str) -> str | Opaque:
    """What a shell passes for ``word``: quotes removed; a variable, a substitution or a glob is opaque.

    A value quoted for the shell (``"apex"``) reaches Hydra unquoted, so it reads as Hydra reads ``apex``.
    """
    out: list[str] = []
    for part in re.findall(r"'[^']*'|\"[^\"]*\"|[^'\"]+", word):
        if part.startswith("'"):
            out.append(part[1:-1])
            continue
        body = part[1:-1] if part.startswith('"') else part
        if "$" in body or "`" in body:
            return Opaque("a shell variable or substitution")
        if not part.startswith('"') and any(char in body for char in "*?"):
            return Opaque("a shell glob")
        out.append(body)
    return "".join(out)


def read_value(text: str) -> Any:
    """A Hydra (or jsonargparse) value as the rules see it: int, float, bool, None, str, a list of those; or an
    :class:`Opaque` for what cannot be known from the text (``1,2`` is a sweep, ``${x}`` an interpolation)."""
    text = text.strip()
    if not text:
        return Opaque("an empty value")
    if text[:1] in "'\"" and len(text) >= 2 and text[-1] == text[0]:
        return text[1:-1] if "${" not in text else Opaque("an interpolation")
    if "${" in text or "$" in text:
        return Opaque("an interpolation or a variable")
    if re.match(r"\w+\(", text):
        return Opaque("a sweep or a function (range, choice, glob, ...)")
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        parts = [read_value(part) for part in inner.split(",")] if inner else []
        if any(isinstance(part, Opaque | list) for part in parts) or any(
            isinstance(part, str) and not part.isdigit() for part in parts
        ):
            return Opaque("a list that is not of device indices")
        return parts
    if "," in text:
        return Opaque("a sweep (values separated by commas run one job each)")
    if any(char in text for char in "[]{}*?"):
        return Opaque("a value this tool cannot read")
    lowered = text.lower()
    if lowered == "null":
        return None
    if text == "None":
        return Opaque("None, which Hydra reads as a string and jsonargparse as null")
    if lowered in ("true", "false"):
        return lowered == "true"
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


#: The options 1.5.10's ``add_argparse_args`` parsed as numbers (``pytorch_lightning/utilities/argparse.py``):
#: ``--gpus``/``--tpu_cores`` with ``_gpus_allowed_type`` (the string itself where it has a comma, else
#: ``int``), the others with ``int``. Every other option there is a string, a float or a bool.
_GPUS_TYPED = frozenset({"gpus", "tpu_cores"})
_INT_TYPED = frozenset({"ipus", "num_processes", "num_nodes"})
_REFUSED = "a value Lightning 1.5's parser refused"


def argparse_value(key: str, word: str) -> Any:
    """What 1.5's ``Trainer.add_argparse_args`` parser made of ``--<key> <word>`` (a shell word): ``--gpus 0,1``
    is the string ``"0,1"`` (argparse has no sweeps), ``--gpus 2`` the int 2; an :class:`Opaque` where the shell
    or the parser decides (a variable; a value it refused, ``--gpus two``). Other options read as Hydra's do."""
    text = unquote_shell(word)
    if isinstance(text, Opaque):
        return text
    if key in _GPUS_TYPED | _INT_TYPED and not (key in _GPUS_TYPED and "," in text):
        try:
            return int(text)
        except ValueError:
            return Opaque(_REFUSED)
    if key in _GPUS_TYPED:
        return text
    return read_value(text)


def argparse_accepts(key: str, word: str) -> bool:
    """Whether ``--<key> <word>`` may be an option 1.5's ``add_argparse_args`` parser took (a value that the
    shell decides may be; ``the --gpus argument`` in prose is not)."""
    value = argparse_value(key, word)
    return not isinstance(value, Opaque) or value.why != _REFUSED


_PLAIN = re.compile(r"[A-Za-z_][\w\-./]*|\d+-[A-Za-z]\w*")


def render_value(lit: Any) -> str | None:
    """A value's text on a command line (shell-safe, Hydra-readable), None when it has none."""
    if lit is None:
        return "null"
    if isinstance(lit, bool):
        return "true" if lit else "false"
    if isinstance(lit, int | float):
        return repr(lit)
    if isinstance(lit, list) and all(isinstance(item, int) and not isinstance(item, bool) for item in lit):
        return "[" + ",".join(str(item) for item in lit) + "]"
    if isinstance(lit, str):
        if _PLAIN.fullmatch(lit) and lit.lower() not in ("null", "true", "false", "none"):
            return lit
        if "'" not in lit and lit.isprintable():
            return f"'{lit}'"
    return None
