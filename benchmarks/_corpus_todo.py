"""``TODO(migrate-trainer)`` markers in the output, and why the CLI left each TODO finding (its cause)."""

from __future__ import annotations

import re

TODO_MARK = "TODO(migrate-trainer)"
RE_TODO_RULE = re.compile(r"TODO\(migrate-trainer\):.*\[([a-z_]+)\]\s*$", re.M)

# Why a TODO finding is there (the "TODO findings" column). "removed": the target removed or changed what the
# finding concerns and nothing in it keeps the 1.x meaning exactly (argparse helpers, ``Trainer.num_gpus``-style
# properties whose 2.x value differs, arguments 2.0 dropped, apex, FairScale, the CPU default); the tool read
# everything, and the choice is the user's. "unread": the tool's own limit, a TODO it could have avoided: a value
# it could not read (not a literal, a flag that may name a strategy, flags not visible here, a sweep), or a change
# it left for the user to coordinate (a config key that code elsewhere still reads: rule ``project_guard``).
# First match wins, so a tool limit stays "unread" where its message also says when the argument went away
# ("distributed_backend=x is not a literal (distributed_backend= was removed in 1.5)"); no match is "unread".

#: (cause, rule or "" for any, pattern searched in the message), tried in order.
TODO_CAUSES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("unread", "project_guard", re.compile("")),  # a key code elsewhere reads, an override it left, two strategies
    ("unread", "", re.compile(r"\bnot a literal\b|\bnot visible\b|\bmay (?:name|hold|come from|choose)\b")),
    ("unread", "", re.compile(r"\bcannot (?:tell|read|be written)\b|\bdoes not parse\b|\bnot migrated\b")),
    ("unread", "", re.compile(r"\bleft as it is\b|\bmigrate them together\b")),  # overrides, stores, subclasses
    ("unread", "", re.compile(r"(?:^|; )trainer\.\w+=\S* is (?:an? |None, )")),  # an override value it cannot read
    ("unread", "", re.compile(r"\bdrop it for native AMP\b|\bif it is 16\b")),  # amp_backend=x, precision=x
    ("removed", "", re.compile(r"\bgone\b|\bremoved\b|\bno longer\b|\bdeprecated in\b|\bapex\b")),
    ("removed", "", re.compile(r"\bmoved (?:out of|to the)\b|\bleft Lightning\b|\bhas no strategy in\b")),
    ("removed", "", re.compile(r"\b2\.0 defaults to\b|\bselects differently\b|\brefuses\b|\bnot FairScale\b")),
    ("removed", "", re.compile(r"\bcannot run in a notebook\b|\bwhich needs torch_xla\b")),
)
TODO_CAUSE_DEFAULT = "unread"


def todo_cause(rule: str, message: str) -> str:
    """``removed`` or ``unread`` for one TODO finding of the CLI (``TODO_CAUSES``)."""
    for cause, only, pattern in TODO_CAUSES:
        if (not only or only == rule) and pattern.search(message):
            return cause
    return TODO_CAUSE_DEFAULT
