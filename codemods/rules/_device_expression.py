"""The half of rule ``device_flags`` for a device flag that is not a literal: ``gpus=X`` -> a pair written from X.

The pair (``codemods.plan.expressions``) is written only where it is exact: for every value X may hold, the rules
after this one must do with the rewritten flags what they do with that literal. The rule's own step is passed in
(it tries each literal through it), so this module never imports the rule.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable

from codemods.plan.expressions import device_pair, samples, selected_15
from codemods.plan.model import Plan, Value, new
from codemods.plan.value_tests import evaluate_test

#: The rule this module is half of: its notes and the flags' origins carry that rule's id.
ID = "device_flags"


def _copy(plan: Plan, items: list[tuple[str, Value]]) -> Plan:
    return dataclasses.replace(
        plan, items=items, notes=[], imports=[], origin=dict(plan.origin), successor={}, trial=True
    )


def _outcome(plan: Plan) -> tuple[object, ...] | None:
    """Run the rules after this one on ``plan`` (a copy): the flags they leave besides accelerator= and
    devices=, and their TODOs; None when one of them gives up (or the plan cannot run them)."""
    if plan.run_after is None:
        return None
    plan.run_after(plan, ID)
    if plan.stopped:
        return None
    kept = tuple(
        (key, id(value.node) if value.node is not None else None, repr(value.lit))
        for key, value in plan.items
        if key not in ("accelerator", "devices")
    )
    return kept, frozenset((note.rule, note.message) for note in plan.notes if note.kind == "todo")


def same_for_every_value(
    plan: Plan, flag: str, lits: list[object], rewrite: Callable[[Plan], None], step: Callable[[Plan], None]
) -> bool:
    """Whether the rules after this one do the same with the rewritten flags as with each literal ``flag`` may
    hold: ``gpus=n, strategy="ddp"`` is not rewritten from n, since 1.5 dropped DDP for one CPU process
    (legacy_fallbacks) when n was 0, which a strategy= next to ``accelerator="gpu" if n else "cpu"`` cannot say.
    Another flag bound to a few literals (``backend = "ddp" if cuda else None``) is tried with each of them."""
    combinations = _combinations(plan, flag)
    if combinations is None:
        return False
    for items in combinations:
        rewritten = _copy(plan, list(items))
        rewrite(rewritten)
        expected = _outcome(rewritten)
        for lit in lits:
            if not _together(plan, flag, lit, items):
                continue  # bound under one test with another flag: this pair of values never meets
            trial = _copy(plan, [(key, new(lit) if key == flag else other) for key, other in items])
            step(trial)
            if expected is None or trial.stopped or _outcome(trial) != expected:
                return False
    return True


def _combinations(plan: Plan, flag: str) -> list[tuple[tuple[str, Value], ...]] | None:
    """The plan's items with each other flag bound to a few literals (``backend = "ddp" if cuda else None``) set
    to each of them in turn; None where there are too many combinations to try (left to the TODO)."""
    choices = []
    for key, other in plan.items:
        options = other.facts.options if key != flag and other.facts is not None and not other.known else None
        choices.append([(key, new(option)) for option in options] if options else [(key, other)])
    combinations = list(itertools.islice(itertools.product(*choices), 65))
    return combinations if len(combinations) <= 64 else None


def _branch_of(branches: tuple[str, object, object], lit: object) -> int | None:
    _, yes, no = branches
    same = [i for i, value in ((1, yes), (2, no)) if type(value) is type(lit) and value == lit]
    return same[0] if len(same) == 1 else None


def _together(plan: Plan, flag: str, lit: object, items: tuple[tuple[str, Value], ...]) -> bool:
    """Whether ``flag`` holding ``lit`` can meet the other flags' values in ``items``: not when both are bound to
    conditionals on the same test and the values come from different branches, nor when another flag's conditional
    tests ``flag``'s own value (``strategy="ddp" if args.gpus > 1 else None`` next to ``gpus=args.gpus``) and the
    value is not the branch that test picks for ``lit`` (or the test raises for it: that run never reached the
    Trainer)."""
    mine = plan.get(flag)
    branches = mine.facts.branches if mine is not None and mine.facts is not None else None
    side = _branch_of(branches, lit) if branches is not None else None
    for key, value in items:
        other = plan.get(key)
        theirs = other.facts.branches if key != flag and other is not None and other.facts is not None else None
        if theirs is None or not value.known or theirs[1] == theirs[2]:
            continue
        if branches is not None and side is not None and theirs[0] == branches[0]:
            if _branch_of(theirs, value.lit) != side:
                return False
            continue
        held = evaluate_test(theirs[0], mine.source if mine is not None else None, lit)
        if held == "raises":
            return False
        if held is not None and _branch_of(theirs, value.lit) != (1 if held else 2):
            return False
    return True


#: Why ``gpus=X`` stays: X is pure and a pair exists, but the other flags did not do the same for every value.
_OTHERS = "; what 1.5 did with the other flags here depended on it too (no DDP for one CPU process)"


def expression(plan: Plan, flag: str, value: Value, step: Callable[[Plan], None]) -> str | None:
    """``gpus=X`` (X pure, not a literal) -> accelerator= and devices= written from X where that is exact
    (codemods.plan.expressions): None when done, else why not ("" when nothing is known of X)."""
    if plan.opaque_rest or plan.is_composed or plan.trial:
        return ""  # a falsy value leaves the choice to flags this plan cannot see
    devices = plan.get("devices")
    if devices is not None and not (devices.known and devices.lit is None):
        return ""
    pair = device_pair(flag, value)
    if pair is None:
        return ""
    accelerator, count, why = pair

    def rewrite(target: Plan) -> None:
        target.drop("devices")
        target.drop("accelerator")
        target.replace(flag, [("accelerator", accelerator), ("devices", count)])
        target.origin["accelerator"] = target.origin["devices"] = ID

    if not same_for_every_value(plan, flag, samples(flag, value), rewrite, step):
        strategy = _strategy_following(plan, flag, value, accelerator, rewrite, step)
        if strategy is None:
            return _OTHERS
        rewrite(plan)
        plan.set("strategy", strategy)
        plan.note(
            ID,
            f"{flag}={value.text} became accelerator= and devices= written from it, and strategy= follows it: "
            f"{why}, and 1.5 ran one CPU process without the strategy (deprecated in 1.7)",
        )
        return None
    rewrite(plan)
    plan.note(ID, f"{flag}={value.text} became accelerator= and devices= written from it: {why} (deprecated in 1.7)")
    return None


#: Strategies 1.5 left out for one CPU process (recorded: ``strategy='ddp' | cpu`` ran a SingleDevicePlugin, as
#: ``'ddp_spawn'``, ``'DDP'`` did), while it ran them on any number of GPUs (``strategy='ddp', gpus=1``: DDPPlugin).
_CPU_SINGLE = frozenset({"ddp", "ddp_spawn"})


def _strategy_following(
    plan: Plan,
    flag: str,
    value: Value,
    accelerator: Value,
    rewrite: Callable[[Plan], None],
    step: Callable[[Plan], None],
) -> Value | None:
    """``gpus=n, strategy="ddp"`` with n not a literal: ``strategy="ddp" if n else "auto"`` next to the pair,
    where that is exact, checked as :func:`same_for_every_value` checks the pair: for every value n may hold, the
    rules after this one do with the flags 1.5 selected (``accelerator="cpu", devices=1`` without the strategy,
    or the device count with it) what they do with the literal; and with the conditional itself they give up
    nowhere and leave the same TODOs. None where it is not."""
    strategy = plan.get("strategy")
    if (
        strategy is None
        or not strategy.known
        or not isinstance(strategy.lit, str)
        or strategy.lit.lower() not in _CPU_SINGLE
        or accelerator.cond is None
    ):
        return None
    test, yes, no = accelerator.cond
    if not (yes.known and no.known) or "cpu" not in (yes.lit, no.lit) or yes.lit == no.lit:
        return None
    off = new("auto") if plan.target >= (2, 0) else new(None)
    following = Value(cond=(test, strategy if yes.lit != "cpu" else off, off if yes.lit != "cpu" else strategy))
    combinations = _combinations(plan, flag)
    if combinations is None:
        return None
    for items in combinations:  # another flag bound to a few literals (sync_batchnorm=True if n > 1 else False)
        todos: set[object] = set()
        for lit in samples(flag, value):
            if not _together(plan, flag, lit, items):
                continue
            selected = selected_15(flag, lit)
            if selected is None:
                return None
            trial = _copy(plan, [(key, new(lit) if key == flag else other) for key, other in items])
            step(trial)
            kind, count = selected
            concrete = _copy(plan, list(items))
            concrete.drop("devices")
            concrete.drop("accelerator")
            concrete.replace(flag, [("accelerator", new(kind)), ("devices", new(count))])
            if kind == "cpu":
                concrete.drop("strategy")
            expected, found = _outcome(concrete), (None if trial.stopped else _outcome(trial))
            if expected is None or found != expected:
                return None
            todos.add(expected[1])
        conditional = _copy(plan, list(items))
        rewrite(conditional)
        conditional.set("strategy", following)
        outcome = _outcome(conditional)
        if outcome is None or len(todos) > 1 or (todos and outcome[1] not in todos):
            return None
    return following
