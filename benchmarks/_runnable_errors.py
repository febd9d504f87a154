"""The first error of a run, read from its combined output: what the table shows and the findings cite.

A Python run that fails prints a traceback; its last line is the exception (``TypeError: Trainer.__init__() got an
unexpected keyword argument 'gpus'``), and its deepest frame inside the project copy says where the project's own
code met it. When a traceback is chained (``During handling of the above exception ...``), the *first* one of the
last chain is the cause, so that is the one reported (a traceback the project caught and logged earlier is not).
Hydra prints ``Error executing job`` and the traceback only with ``HYDRA_FULL_ERROR=1`` (the harness sets it). A
run that printed no traceback but exited non-zero reports its last non-empty line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TRACEBACK = "Traceback (most recent call last):"
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')
#: an exception line: a dotted class name, then ``:`` and the message or the end of the line.
_EXCEPTION = re.compile(
    r"^(?P<type>[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning|NotFound\w*))(: (?P<msg>.*))?$"
)


@dataclass(frozen=True)
class FirstError:
    line: str  # "TypeError: ..." (one line, capped)
    where: str  # "project/lit_mnist.py:86" (deepest frame in the project), or ""


def _cap(text: str, limit: int = 220) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_CHAINED = ("During handling of the above exception", "The above exception was the direct cause")


def _chain_start(lines: list[str], starts: list[int]) -> int:
    """The first traceback of the last chain: a traceback a project caught and printed does not count, the cause
    of the fatal one does."""
    index = len(starts) - 1
    while index > 0:
        before = [line for line in lines[starts[index - 1] : starts[index]] if line.strip()]
        if not (before and before[-1].startswith(_CHAINED)):
            break
        index -= 1
    return starts[index]


def first_error(output: str, project_root: str) -> FirstError | None:
    """The first traceback's exception and deepest project frame; None when ``output`` holds no traceback."""
    lines = output.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == _TRACEBACK]
    if not starts:
        return None
    start = _chain_start(lines, starts)
    where = ""
    root = project_root.rstrip("/") + "/"
    for line in lines[start + 1 :]:
        frame = _FRAME.match(line)
        if frame:
            if frame["file"].startswith(root):
                where = f"{frame['file'][len(root) :]}:{frame['line']}"
            continue
        if line.startswith((" ", "\t")) or not line.strip():
            continue
        exception = _EXCEPTION.match(line.strip())
        if exception:
            return FirstError(_cap(line.strip()), where)
    return FirstError("(traceback without an exception line)", where)


def last_line(output: str) -> str:
    """The last non-empty line (what a run that failed without a traceback said last)."""
    for line in reversed(output.splitlines()):
        if line.strip():
            return _cap(line.strip())
    return ""
