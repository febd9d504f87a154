"""Trainer flag values 2.x reads otherwise than 1.5 did: ``max_steps=None`` (deprecated in 1.5, refused since 1.7)
becomes ``max_steps=-1``, with ``max_epochs=-1`` where 1.5 derived that from the None, and a dict of
``accumulate_grad_batches`` (an epoch -> factor schedule, taken until 2.0) gets a TODO naming the callback.

Read in the real releases. 1.5.10's FitLoop.max_steps setter took None as -1 "deprecated in v1.5", but its Trainer
computed the default epoch limit first: ``1000 if (max_steps == -1 and max_time is None) else -1``, so
``Trainer(max_steps=None)`` without ``max_epochs``/``max_time`` trained with no epoch limit while ``max_steps=-1``
stops at 1000 epochs (run on 1.5.10: fit_loop.max_epochs -1 and 1000). 2.6.6 raises a TypeError on None
('<' not supported between NoneType and int), and with -1 and no max_epochs stops at 1000 unless a Timer callback
(which max_time= adds) is there. 1.5.10's callback connector turned a dict into
``GradientAccumulationScheduler(dict)`` appended to the callbacks (so did 1.9.5's); 2.6.6's Trainer takes an int
only.
"""

from __future__ import annotations

from codemods.plan.model import Plan, new
from codemods.plan.rule import Rule

ID = "trainer_flag_values"


def _given(plan: Plan, key: str) -> bool | None:
    """Whether the call gives ``key`` a value other than None; None where an expression hides it."""
    value = plan.get(key)
    if value is None:
        return None if plan.opaque_rest else False
    return value.lit is not None if value.known else None


def _max_steps(plan: Plan) -> None:
    value = plan.get("max_steps")
    if value is None or not value.known or value.lit is not None:
        return
    epochs, timed = _given(plan, "max_epochs"), _given(plan, "max_time")
    if epochs or (epochs is False and timed):
        # An epoch limit given (or a Timer, which 2.x counts as one): -1 reads as None did.
        plan.set("max_steps", new(-1))
        plan.note(ID, "max_steps=None is max_steps=-1 (None is refused since 1.7)")
    elif epochs is False and timed is False:
        plan.set("max_steps", new(-1))
        plan.set("max_epochs", new(-1), after="max_steps")
        plan.note(
            ID,
            "max_steps=None is max_steps=-1, max_epochs=-1 (1.5 trained with no epoch limit on None, and stops "
            "at 1000 epochs on -1)",
        )
    else:
        plan.todo(
            ID,
            "max_steps=None is refused since 1.7: pass max_steps=-1, and max_epochs=-1 where no max_epochs/max_time "
            "is given (1.5 trained with no epoch limit on None)",
        )


def _accumulation_schedule(plan: Plan) -> None:
    value = plan.get("accumulate_grad_batches")
    if plan.target < (2, 0) or value is None:
        return
    if isinstance(value.lit, dict) or (value.source or "").lstrip().startswith("{"):
        plan.todo(
            ID,
            "accumulate_grad_batches takes an int only since 2.0: pass callbacks=[GradientAccumulationScheduler("
            "scheduling={...})] (pytorch_lightning.callbacks), which 1.5 built from the dict",
        )


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    _max_steps(plan)
    _accumulation_schedule(plan)


RULE = Rule(
    id=ID,
    description="Trainer(max_steps=None) becomes max_steps=-1 (max_epochs=-1 where 1.5 derived it); a dict of "
    "accumulate_grad_batches is flagged",
    deprecated_in="1.5",
    scope="flags",
    step=step,
    order=86,
    tokens=("Trainer",),
)
