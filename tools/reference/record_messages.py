"""What a case said, as stable data: errors, warnings and log lines with addresses and temp paths scrubbed.

Shared by the child that runs a case (``record_case.py``) and the description of its selection
(``record_describe.py``). ``--traceback`` (``record.py``) sets ``_WITH_TRACEBACK`` here. Standard library only.
"""

from __future__ import annotations

import json
import re
import traceback
import warnings
from typing import Any

# Warnings that are about the recording environment (a torch far newer than these releases),
# not about the flags. Dropped from ``warnings`` but counted in ``ignored_warnings``.
IGNORED_WARNINGS = (
    r"pkg_resources is deprecated",
    r"Deprecated call to `pkg_resources",
    r"torch\.cuda\.amp\.GradScaler\(args\.\.\.\)` is deprecated",
    r"torch\.cuda\.amp\.autocast\(args\.\.\.\)` is deprecated",
    r"`torch\.distributed\._sharded_tensor` will be deprecated",
    r"distutils Version classes are deprecated",
)
_IGNORED = re.compile("|".join(IGNORED_WARNINGS))

_ADDR = re.compile(r" at 0x[0-9a-fA-F]+")


def _scrub(text: str, tmp: str | None = None) -> str:
    text = _ADDR.sub(" at 0x?", text)
    if tmp:
        text = text.replace(tmp, "<tmp>")
    return text


_WITH_TRACEBACK = False  # --traceback: debugging aid, never used for the committed data


def _error(exc: BaseException, tmp: str) -> dict[str, str]:
    out = {"type": type(exc).__name__, "message": _scrub(str(exc), tmp)}
    if _WITH_TRACEBACK:
        out["traceback"] = traceback.format_exc()
    return out


def _warnings(caught: list[warnings.WarningMessage], tmp: str) -> list[dict[str, str]]:
    return _dedup([{"category": w.category.__name__, "message": _scrub(str(w.message), tmp)} for w in caught])


def _split_ignored(items: list[dict[str, str]]) -> tuple[list[dict[str, str]], int]:
    kept = [w for w in items if not _IGNORED.search(w["message"])]
    return kept, len(items) - len(kept)


def _dedup(items: list[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for item in items:
        key = json.dumps(item, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
