"""Trainer arguments later releases removed (``checkpoint_callback``, ``progress_bar_refresh_rate``,
``weights_summary``, ``resume_from_checkpoint``, ``auto_lr_find``, ...): renamed, dropped, or one TODO.

A migrated call that still passes one raises ``TypeError: Trainer.__init__() got an unexpected keyword argument``
on the target. The table (``legacy_api.removed_arguments``, each removal release read from the real packages)
says what each became: a value that meant the default is dropped, a flag that reads the same value takes its
place (``checkpoint_callback=False`` -> ``enable_checkpointing=False``, ``progress_bar_refresh_rate=0`` ->
``enable_progress_bar=False``, ``weights_summary=None`` -> ``enable_model_summary=False``,
``reload_dataloaders_every_epoch=True`` -> ``reload_dataloaders_every_n_epochs=1``), a refresh rate becomes the
bar 1.5 built from it (``callbacks=[TQDMProgressBar(refresh_rate=N)]``, in Python code whose callbacks are a list
or absent), and so does ``weights_summary="full"`` (``callbacks=[ModelSummary(max_depth=-1)]``; next to the user's
own ``ModelSummary`` callback, which 1.5 used instead, the argument is dropped),
``resume_from_checkpoint=X`` becomes ``ckpt_path=X`` of the Trainer's one ``fit`` where the
Python front end proves which that is (``codemods.frontends.python.fit_moves``), anything else gets one TODO naming the
replacement. ``auto_lr_find``/``auto_scale_batch_size`` did something only in ``Trainer.tune()``: where the project
index finds nothing that runs it, they are dropped. It acts from the release that removed the argument.
"""

from __future__ import annotations

import dataclasses
import re

from codemods.plan.model import Plan, Value, new
from codemods.plan.rule import Rule
from legacy_api.removed_arguments import LIGHTNING_LOGGERS_15, REMOVED_ARGUMENTS
from legacy_api.renames import version_tuple

ID = "removed_arguments"


def _same(a: object, b: object) -> bool:
    """Equal and of one type: ``True`` is not the count ``1``, nor ``0`` the flag ``False``."""
    return type(a) is type(b) and a == b


def _open_callbacks(plan: Plan, switch: str | None, theirs: tuple[str, ...]) -> list[Value] | None:
    """The items of the call's ``callbacks`` (empty where absent), where a callback 1.5 built from a removed argument
    can join them: Python code holds the call, ``switch`` (``enable_model_summary``) is absent or True, and the
    callbacks are a list literal with none of the user's own whose source names one of ``theirs`` (1.5 then used
    that one). None where it cannot."""
    if plan.written_in != "python" or plan.opaque_rest:
        return None
    enabled = plan.get(switch) if switch is not None else None
    if enabled is not None and not (enabled.known and enabled.lit is True):
        return None
    callbacks = plan.get("callbacks")
    if callbacks is None:
        return []
    if callbacks.items is None:
        return None  # a name or an expression: where would the callback go
    written = [item for item in callbacks.items if item.ctor is None]
    if any(word in (item.source or "") for item in written for word in theirs):
        return None
    return list(callbacks.items)


def _progress_bar(plan: Plan, value: Value) -> bool:
    """``progress_bar_refresh_rate=N`` -> ``callbacks=[TQDMProgressBar(refresh_rate=N)]``: the bar 1.5 built from it,
    where Python code holds the call and its callbacks are a list literal or absent. True when rewritten."""
    rate = value.lit
    if not isinstance(rate, int) or isinstance(rate, bool) or rate < 1:
        return False
    # 1.5 ignored the rate next to the user's own bar: which one wins is the user's call
    if _open_callbacks(plan, None, ("ProgressBar",)) is None:
        return False
    bar = Value(ctor=("callbacks.TQDMProgressBar", {"refresh_rate": value}), source="TQDMProgressBar(...)")
    _append_callback(plan, "progress_bar_refresh_rate", bar)
    plan.note(
        ID, f"progress_bar_refresh_rate={value.text} is callbacks=[TQDMProgressBar(refresh_rate={rate})] (gone in 1.7)"
    )
    return True


def _bar_position(plan: Plan, value: Value) -> bool:
    """``process_position=N`` -> the position of the TQDM bar 1.5.10 built (``TQDMProgressBar(process_position=N)``,
    with the refresh rate the call gave it, if any: ``callback_connector._configure_progress_bar``), under the same
    conditions as :func:`_progress_bar`. True when rewritten."""
    if type(value.lit) is not int or not value.known:
        return False
    items = _open_callbacks(plan, "enable_progress_bar", ("ProgressBar",))  # the user's bar: 1.5 ignored the position
    if items is None:
        return False
    callbacks = plan.get("callbacks")
    ours = [item for item in items if item.ctor is not None and item.ctor[0] == "callbacks.TQDMProgressBar"]
    first = ours[0] if ours else None
    if first is not None and first.ctor is not None and callbacks is not None:  # one bar takes both
        arguments = {**first.ctor[1], "process_position": value}
        bar = dataclasses.replace(first, ctor=("callbacks.TQDMProgressBar", arguments))
        plan.set("callbacks", dataclasses.replace(callbacks, items=[bar if item is first else item for item in items]))
        plan.drop("process_position")
    else:
        bar = Value(ctor=("callbacks.TQDMProgressBar", {"process_position": value}), source="TQDMProgressBar(...)")
        _append_callback(plan, "process_position", bar)
    plan.note(ID, f"process_position={value.text} is the position of the TQDMProgressBar in callbacks (gone in 1.7)")
    return True


def _append_callback(plan: Plan, flag: str, callback: Value) -> None:
    """``flag`` gives way to ``callback`` at the end of the call's ``callbacks`` list (made where absent)."""
    callbacks = plan.get("callbacks")
    if callbacks is not None and callbacks.items is not None:
        # A new value, never the old one changed in place: a trial copy of the plan shares the old one.
        plan.set("callbacks", dataclasses.replace(callbacks, items=[*callbacks.items, callback]))
        plan.drop(flag)
    else:
        plan.replace(flag, [("callbacks", Value(items=[callback]))])


def _model_summary(plan: Plan, value: Value) -> bool:
    """``weights_summary="full"`` -> ``callbacks=[ModelSummary(max_depth=-1)]``: the summary 1.5.10 built from it
    (``callback_connector._configure_model_summary_callback``), where Python code holds the call and its callbacks
    are a list literal or absent with no model summary or progress bar of the user's (1.5.10 then skipped its own,
    or built a RichModelSummary). True when rewritten."""
    if _users_summary(plan) and value.known:
        plan.drop("weights_summary")
        plan.note(
            ID,
            f"dropped weights_summary={value.text}: 1.5 used the ModelSummary in callbacks and ignored it (the "
            "argument is gone in 1.7)",
        )
        return True
    if value.lit != "full" or not value.known:
        return False
    # the user's own summary or (rich) bar: 1.5 then built none, or a RichModelSummary
    if _open_callbacks(plan, "enable_model_summary", ("ProgressBar", "ModelSummary")) is None:
        return False
    depth = new(-1)
    summary = Value(ctor=("callbacks.ModelSummary", {"max_depth": depth}), source="ModelSummary(...)")
    _append_callback(plan, "weights_summary", summary)
    plan.note(ID, f"weights_summary={value.text} is callbacks=[ModelSummary(max_depth=-1)] (gone in 1.7)")
    return True


def _users_summary(plan: Plan) -> bool:
    """The call's callbacks (a list literal, or one held in a name) hold a ``ModelSummary(...)`` or
    ``RichModelSummary(...)`` of the user's and ``enable_model_summary`` is absent or True: 1.5.10
    (``_configure_model_summary_callback``) then used it whatever ``weights_summary`` said, even a value it would
    have refused, and built none of its own."""
    if plan.written_in != "python" or plan.opaque_rest:
        return False
    enabled = plan.get("enable_model_summary")
    if enabled is not None and not (enabled.known and enabled.lit is True):
        return False
    callbacks = plan.get("callbacks")
    items = callbacks.items if callbacks is not None else None
    return bool(items) and any(item.ctor is None and _SUMMARY.search(item.source or "") for item in items or ())


#: A summary callback of Lightning's, as the code builds it.
_SUMMARY = re.compile(r"(?:^|[^\w])(?:Rich)?ModelSummary\s*\(")


def _both_checkpointing(plan: Plan, value: Value) -> bool:
    """``checkpoint_callback=`` next to ``enable_checkpointing=``, both bools: 1.5.10 checkpointed only if both were
    True (``callback_connector._configure_checkpoint_callbacks``: ``checkpoint_callback and enable_checkpointing``),
    so True leaves enable_checkpointing as it is and False turns it off. True when rewritten."""
    enabled = plan.get("enable_checkpointing")
    if enabled is None or not enabled.known or type(enabled.lit) is not bool or type(value.lit) is not bool:
        return False
    if value.lit:
        plan.drop("checkpoint_callback")
        plan.note(ID, "dropped checkpoint_callback=True: 1.5 checkpointed as enable_checkpointing= said (gone in 1.7)")
    else:
        plan.drop("checkpoint_callback")
        plan.set("enable_checkpointing", new(False))
        plan.note(ID, "checkpoint_callback=False turned checkpointing off: enable_checkpointing=False (gone in 1.7)")
    return True


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    left: list[str] = []
    for row in REMOVED_ARGUMENTS:
        value = plan.get(row.name)
        if value is None or version_tuple(row.removed_in) > plan.target:
            continue
        known = value.known and not isinstance(value.lit, list | dict)
        if known and any(_same(value.lit, default) for default in row.defaults):
            plan.drop(row.name)
            plan.note(ID, f"dropped {row.name}={value.text}: the default (the argument is gone in {row.removed_in})")
            continue
        if row.name == "checkpoint_callback" and value.checkpoint_object in ("refused", "renamed"):
            if _open_callbacks(plan, None, ()) is not None:
                # 1.2.10 appended the object to the callbacks (callback_connector.configure_checkpoint_callbacks)
                _append_callback(plan, row.name, value)
                plan.note(ID, f"checkpoint_callback={value.text} joins callbacks=: {_OBJECT_MOVED} (gone in 1.7)")
                continue
            if value.checkpoint_object == "refused":
                left.append(f"{row.name}={value.text} (gone in {row.removed_in}): {_OBJECT_USED}")
                continue
            # period= alone: this run renames it, and the next would read the object as 1.5 did; so does this one
            value = dataclasses.replace(value, checkpoint_object="built")
        if (
            row.name == "checkpoint_callback"
            and value.checkpoint_object == "built"
            and "enable_checkpointing" not in plan
        ):
            # 1.5.10: enable_checkpointing = checkpoint_callback and enable_checkpointing, so True, then its own
            # ModelCheckpoint unless one is in callbacks= (recorded: the object passed here was never among them)
            plan.replace(row.name, [("enable_checkpointing", new(True))])
            plan.note(
                ID,
                f"checkpoint_callback={value.text} is enable_checkpointing=True: 1.5 read the ModelCheckpoint there as "
                "True and did not use it (it added its own unless callbacks= held one); to use it, pass it in "
                f"callbacks= (gone in {row.removed_in})",
            )
            continue
        if row.renamed is not None and row.renamed not in plan:
            match = [spelled for lit, spelled in row.exact.items() if known and _same(value.lit, lit)]
            if match:
                spelled = match[0]
                plan.replace(row.name, [(row.renamed, new(spelled))])
                plan.note(ID, f"{row.name}={value.text} is {row.renamed}={spelled!r} (gone in {row.removed_in})")
                continue
            if not row.exact and plan.droppable(value):  # the same value under a new name
                # (not a call: checkpoint_callback=instantiate(cfg) held a ModelCheckpoint, which 1.5 read as True
                # and 2.x's enable_checkpointing, a bool, does not)
                plan.replace(row.name, [(row.renamed, value)])
                plan.note(ID, f"{row.name}= is called {row.renamed}= (gone in {row.removed_in})")
                continue
        if row.name == "checkpoint_callback" and _both_checkpointing(plan, value):
            continue
        if row.name == "progress_bar_refresh_rate" and _progress_bar(plan, value):
            continue
        if row.name == "weights_summary" and _model_summary(plan, value):
            continue
        if row.name == "process_position" and _bar_position(plan, value):
            continue
        if row.tune_only and plan.untuned and plan.droppable(value):
            plan.drop(row.name)
            plan.note(
                ID,
                f"dropped {row.name}={value.text}: 1.5 read it only in Trainer.tune(), which nothing in the project "
                f"runs (the argument is gone in {row.removed_in})",
            )
            continue
        if row.no_effect and plan.droppable(value) and _lightning_loggers(plan):
            plan.drop(row.name)
            gone = f"(the argument is gone in {row.removed_in})"
            plan.note(ID, f"dropped {row.name}={value.text}: {row.no_effect} {gone}")
            continue
        if row.fit_argument is not None and plan.never_fit and plan.droppable(value):
            plan.drop(row.name)
            plan.note(
                ID,
                f"dropped {row.name}={value.text}: nothing fits this Trainer, and 1.5 read it only in fit() (the "
                f"argument is gone in {row.removed_in})",
            )
            continue
        if row.fit_argument is not None and row.name in plan.to_fit:
            # 1.5 resumed only the first fit; the front end proved there is one (codemods.frontends.python.fit_moves).
            plan.drop(row.name)
            plan.fitted = (*plan.fitted, row.name)
            plan.note(
                ID, f"{row.name}={value.text} moved to trainer.fit({row.fit_argument}=) (gone in {row.removed_in})"
            )
            continue
        left.append(f"{row.name}={value.text} (gone in {row.removed_in}): {row.todo}")
    if left:
        # One TODO for the call: a 1.5 Trainer often passed several of them.
        plan.todo(ID, "; ".join(left))


#: A ModelCheckpoint 1.5.10 refused (``filepath=``, ``period=``) in ``checkpoint_callback=``: code for Lightning before
#: 1.3 (1.3.8 and 1.4.9 raised for any object there, 1.5.10 for its arguments), which appended it to the callbacks.
_OBJECT_MOVED = (
    "this ModelCheckpoint takes arguments 1.5 refused, so the code is older, and Lightning before 1.3 trained with the "
    "object passed there"
)
_OBJECT_USED = f"{_OBJECT_MOVED}; pass it in callbacks= and drop this argument"


def _lightning_loggers(plan: Plan) -> bool:
    """Whether the Trainer logs through Lightning's own loggers only (the default one, none, or one built in the
    call): a project's logger may count its ``save()`` calls (``flush_logs_every_n_steps`` added some)."""
    logger = plan.get("logger")
    if logger is None:
        return not plan.opaque_rest
    if logger.known:
        return logger.lit is None or isinstance(logger.lit, bool)
    return all(_built(item) for item in (logger.items if logger.items is not None else [logger]))


def _built(value: Value) -> bool:
    match = _CALL.match(value.source or "")
    return match is not None and match.group(1) in LIGHTNING_LOGGERS_15


_CALL = re.compile(r"(?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*)\(")


RULE = Rule(
    id=ID,
    description="Trainer arguments later releases removed are renamed, dropped where they were the default or never "
    "read (auto_lr_find where nothing tunes), moved to the one fit() (resume_from_checkpoint), or a TODO",
    deprecated_in="1.5",
    scope="flags",
    step=step,
    order=85,
    tokens=tuple(row.name for row in REMOVED_ARGUMENTS),
)
