"""Run the flag rules over one :class:`~codemods.plan.model.Plan`: the one loop both front ends share.

The rules run in the registry's order until one stops the plan (a value it cannot read, a combination it
cannot keep exactly). A stop silences nothing else: the rules whose flags do not decide the devices
(:data:`~codemods.plan.model.INDEPENDENT`) still run after it, and every legacy flag left that no TODO names yet
is named in the stopping TODO, or, where that TODO is about no one flag, gets one TODO naming them all
(MIGRATION.md, "Selection policy").
"""

from __future__ import annotations

import dataclasses
import re

from codemods.plan.model import INDEPENDENT, LEGACY_FLAG_RULES, Plan
from codemods.rules import REGISTRY, flag_rules


def run_flag_rules(plan: Plan) -> None:
    """Apply every enabled flag rule that applies at the plan's target, in order."""
    if plan.run_after is None:
        plan.run_after = run_after
    for rule in flag_rules():
        if plan.stopped:
            break
        if rule.step is not None and plan.applies(rule.id, rule.version):
            rule.step(plan)
    if plan.stopped_by is not None and not plan.trial:
        _finish(plan, *plan.stopped_by)


def run_after(plan: Plan, rule: str) -> None:
    """Apply the flag rules that come after ``rule`` (a copy's, for a rule that tries values: Plan.run_after)."""
    order = REGISTRY[rule].order
    for later in flag_rules():
        if plan.stopped:
            break
        if later.order > order and later.step is not None and plan.applies(later.id, later.version):
            later.step(plan)


def _finish(plan: Plan, rule: str, message: str) -> None:
    order = REGISTRY[rule].order if rule in REGISTRY else 0
    for later in flag_rules():
        after = later.order > order and plan.applies(later.id, later.version)
        if after and later.id in INDEPENDENT and later.step is not None:
            later.step(plan)
        elif after and later.on_stop is not None:
            later.on_stop(plan)
    waiting = [
        (flag, value)
        for flag, value in plan.items
        if flag in LEGACY_FLAG_RULES
        and LEGACY_FLAG_RULES[flag] in REGISTRY
        and plan.applies(LEGACY_FLAG_RULES[flag], REGISTRY[LEGACY_FLAG_RULES[flag]].version)
        and not any(note.todo and re.search(rf"\b{flag}\b", note.message) for note in plan.notes)
    ]
    left = [f"{flag}={value.text}" for flag, value in waiting]
    if not left:
        return
    # One TODO per thing to do: the flags that wait on the stopping one are named in its TODO.
    stopping = next((i for i, n in enumerate(plan.notes) if n.todo and n.rule == rule and n.message == message), None)
    if stopping is not None and re.match(r"[A-Za-z_]\w*=", message):
        verb = "depends" if len(left) == 1 else "depend"
        joined = f"{message}; {', '.join(left)} {verb} on it: migrate them together"
        about = tuple(flag for flag, _ in waiting)
        plan.notes[stopping] = dataclasses.replace(plan.notes[stopping], message=joined, about=about)
        return
    if left:
        key = re.match(r"([A-Za-z_]\w*)=", message)
        value = plan.get(key.group(1)) if key is not None else None
        cause = f"{key.group(1)}={value.text} (see its TODO)" if key and value else "flags another TODO names"
        plan.todo(
            rule,
            f"{', '.join(left)}: left as it is, since what it selects depends on {cause}; migrate them together",
        )
