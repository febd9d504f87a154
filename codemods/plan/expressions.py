"""``gpus=X`` for an X that is not a literal: the ``accelerator=``/``devices=`` pair built from X itself.

Syntax-free, like :mod:`codemods.plan.model`. What Lightning 1.5 selected for each value it accepted
(:func:`selected_15`) is compared, value by value, with what a candidate pair evaluates to; the first candidate
that agrees on every value X may hold wins, the simplest first:

* one accelerator for every value: ``accelerator="gpu", devices=X`` (or ``X or 1``, or one literal);
* Python's truth: ``accelerator="gpu" if X else "cpu", devices=X or 1`` -- exact for ints, None and lists,
  not for strings (``"0"`` is truthy and meant the CPU);
* ``X is None`` (``tpu_cores``: None was the only "no TPU" value 1.5 accepted);
* 1.5's own test, spelled for any value: ``str(X).strip() in ("0", "[]", "None")`` means the CPU.

What X may hold comes from the front end (:class:`codemods.plan.model.Facts`): the few literals it is bound to, or
every value 1.5 accepted for the flag (:data:`SAMPLES`), without the strings when X is never a string. Since
X is written twice, only pure values are used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from codemods.plan.model import Facts, Value, new
from codemods.plan.value_tests import evaluate_test

#: The flags whose non-literal values get a pair. ``ipus`` is not among them: 1.5 ran ``ipus=0`` on the IPU
#: accelerator of an IPU host (with no device), which no pair of 2.x flags says.
KINDS: dict[str, str] = {"gpus": "gpu", "tpu_cores": "tpu", "num_processes": "cpu"}

#: Values 1.5 accepted for each flag, ints, None and lists first, then strings.
SAMPLES: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {
    "gpus": (
        (None, 0, 1, 2, 4, -1, [], [0], [1], [0, 1], [1, 3]),
        ("0", " 0", "1", "2", "-1", "0,", "1,", "0,1", "1,3"),
    ),
    "tpu_cores": ((None, 1, 8, [1], [5]), ("1", "8", "5", "5,")),
    "num_processes": ((0, 1, 2, 4), ()),
}

#: The strings 1.5's device parser read as "no GPU" (after ``str(X).strip()``; ``str(None)`` too).
NO_GPU = ("0", "[]", "None")

_INDICES = re.compile(r"\s*\d+\s*(,\s*\d+\s*)*,?\s*")


def selected_15(flag: str, value: Any) -> tuple[str, Any] | None:
    """(accelerator kind, devices= value) Lightning 1.5 selected for ``flag=value``; None if it refused it."""
    if isinstance(value, bool | float):
        return None
    if flag == "num_processes":
        return ("cpu", value or 1) if isinstance(value, int) and value >= 0 else None
    if flag == "tpu_cores":
        if value is None:
            return "cpu", 1
        if value in (1, 8, "1", "8") or (isinstance(value, list) and len(value) == 1 and 1 <= value[0] <= 8):
            return "tpu", value
        if isinstance(value, str) and _INDICES.fullmatch(value):
            cores = [int(part) for part in value.split(",") if part.strip()]
            return ("tpu", value) if len(cores) == 1 and 1 <= cores[0] <= 8 else None
        return None
    if value is None or (isinstance(value, int) and value == 0) or str(value).strip() in ("0", "[]"):
        return "cpu", 1
    if isinstance(value, int):
        return ("gpu", value) if value > 0 or value == -1 else None
    if isinstance(value, list):
        valid = all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value)
        return ("gpu", value) if valid and len(set(value)) == len(value) else None
    if isinstance(value, str) and (value.strip() == "-1" or _INDICES.fullmatch(value)):
        ids = [int(part) for part in value.split(",") if part.strip()]
        # "2" asked for two GPUs, "1,3" (or "1,") for those indices; "00" asked for none, which 1.5 refused
        valid = bool(ids) and len(set(ids)) == len(ids) if "," in value else value.strip() == "-1" or ids[0] > 0
        return ("gpu", value) if valid else None
    return None


@dataclass(frozen=True)
class _Form:
    """One way to tell the CPU from the device: in Python (to check it) and as a plan value (to write it)."""

    cpu: Callable[[Any], bool]
    test: Callable[[Value], Value | None]  # None: Python's truth of X itself (``"gpu" if X else "cpu"``)
    why: str


_FORMS = (
    _Form(lambda v: not v, lambda x: None, "a falsy value (0, None, []) meant the CPU"),
    _Form(lambda v: v is None, lambda x: Value(expr=("is", (x, new(None)))), "None meant the CPU"),
    _Form(
        lambda v: str(v).strip() in NO_GPU,
        lambda x: Value(expr=("in", (Value(expr=("strip", (x,))), new(NO_GPU)))),
        '0, "0", None and [] meant the CPU (1.5\'s own test, spelled for any value)',
    ),
)


def samples(flag: str, x: Value) -> list[Any]:
    """The values ``x`` may hold that 1.5 accepted for ``flag``."""
    facts = x.facts
    assert facts is not None
    if facts.options is not None:
        candidates: tuple[Any, ...] = facts.options
    else:
        typed, strings = SAMPLES[flag]
        candidates = typed if facts.no_str else typed + strings
    return [v for v in candidates if selected_15(flag, v) is not None and _reaches(facts, x.source, v)]


def _reaches(facts: Facts, source: str | None, value: Any) -> bool:
    """Whether the flags are built where X holds ``value``: every enclosing test X's value decides takes the branch
    they are in (a test that raises for it, ``None > 1``, never reaches them)."""
    for test, branch in facts.guards:
        gives = evaluate_test(test, source, value)
        if gives == "raises" or (gives is not None and gives is not branch):
            return False
    return True


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def device_pair(flag: str, x: Value) -> tuple[Value, Value, str] | None:
    """(accelerator=, devices=, why) for ``flag=x`` that select what 1.5 did for every value x may hold."""
    if x.facts is None or not x.facts.pure or flag not in KINDS:
        return None
    values = samples(flag, x)
    if not values:
        return None
    kind = KINDS[flag]
    wanted = [selected_15(flag, v) for v in values]
    kinds = {w[0] for w in wanted if w is not None}
    if len(kinds) == 1:
        devices = _devices(values, [w[1] for w in wanted if w is not None], x)
        if devices is None:
            return None
        return new(kinds.pop()), devices, f"{flag}= selects {kind} for every value it may hold"
    for form in _FORMS:
        predicted = [("cpu", 1) if form.cpu(v) else (kind, v) for v in values]
        if all(w is not None and p[0] == w[0] and _same(p[1], w[1]) for p, w in zip(predicted, wanted, strict=True)):
            test = form.test(x)
            counts = [w[1] for w in wanted if w is not None]
            # ``AVAIL_GPUS = min(1, ...)`` holds 0 or 1: one device either way
            same = new(counts[0]) if all(_same(c, counts[0]) for c in counts) else None
            if test is None:
                return Value(cond=(x, new(kind), new("cpu"))), same or Value(expr=("or", (x, new(1)))), form.why
            return Value(cond=(test, new("cpu"), new(kind))), same or Value(cond=(test, new(1), x)), form.why
    return None


def _devices(values: list[Any], wanted: list[Any], x: Value) -> Value | None:
    if all(_same(w, wanted[0]) for w in wanted):
        return new(wanted[0])
    if all(_same(w, v) for v, w in zip(values, wanted, strict=True)):
        return x
    if all(_same(w, v or 1) for v, w in zip(values, wanted, strict=True)):
        return Value(expr=("or", (x, new(1))))
    return None


def none_as_auto(value: Value) -> Value | None:
    """``strategy=backend`` where ``backend`` is bound once to ``"ddp" if c else None``: 2.0 rejects None, so
    ``backend or "auto"``; None when the value may hold no None (or something else than a strategy name)."""
    facts = value.facts
    if value.known or value.cond is not None or facts is None or not facts.pure or facts.options is None:
        return None  # ``"ddp" if c else None`` itself is trainer_defaults' (both branches are written)
    if None not in facts.options:
        return None
    if not all(option is None or (isinstance(option, str) and option) for option in facts.options):
        return None
    # What it may hold stays known (the later rules try each value: codemods.rules.device_flags).
    options = tuple("auto" if option is None else option for option in facts.options)
    branches = facts.branches
    if branches is not None:
        test, yes, no = branches
        branches = (test, "auto" if yes is None else yes, "auto" if no is None else no)
    return Value(
        expr=("or", (value, new("auto"))),
        source=f'{value.source} or "auto"',
        facts=Facts(True, options, True, branches=branches),
    )
