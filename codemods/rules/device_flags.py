"""``gpus=`` / ``tpu_cores=`` / ``ipus=`` / ``num_processes=`` -> ``accelerator=`` + ``devices=``.

Deprecated in Lightning 1.7 ("Setting `Trainer(gpus=2)` is deprecated in v1.7 and will be removed in v2.0.
Please use `Trainer(accelerator='gpu', devices=2)` instead."), removed in 2.0.

Selection follows the old connector: 0, None, "0" and [] meant "not this device" (so CPU); the accelerator
and the device count came from the first truthy flag in the order gpus, tpu_cores, ipus (num_processes=1, the
default, gave way to any of them, and to devices= next to accelerator="cpu"); a device flag beat ``devices=``.
A non-literal value cannot be rewritten faithfully (``gpus=args.gpus`` may be 0): it gets a TODO, and so does
every truthy device flag next to it (what it selects may depend on the unknown one), while a falsy literal
next to it goes (it chose nothing, whatever the other holds: ``num_processes=n, gpus=0``). A falsy
device flag never decides the accelerator: ``gpus=0`` next to ``tpu_cores=8`` is the TPU, and where flags this
plan cannot see may choose the device (a splatted dict, ``**kwargs``) target 2.0 gets a TODO, not
``accelerator="cpu"``.
"""

from __future__ import annotations

import dataclasses

from codemods.plan.model import Plan, Value, new
from codemods.plan.rule import Rule
from codemods.project.keys import DECIDERS
from codemods.rules._device_expression import expression, same_for_every_value
from legacy_api.lightning15 import DEVICE_FLAGS, PRECEDENCE
from legacy_api.lightning15 import truthy as lightning_truthy

ID = "device_flags"
_ACCELERATOR_ORDER = tuple(reversed(PRECEDENCE))  # the last truthy one wins
#: The keys that may choose the accelerator or the devices in 1.5 (a strategy object in plugins= may hold devices).
_CHOOSERS = DECIDERS | {"hpus", "strategy", "plugins"}
_SAME = {"gpu": {"gpu", "cuda"}, "cpu": {"cpu"}, "tpu": {"tpu"}, "ipu": {"ipu"}}


def _branch(flag: str, value: Value) -> tuple[str, Value]:
    """(accelerator, devices) for one literal branch of ``gpus=1 if cuda else 0``."""
    if lightning_truthy(value.lit):
        return DEVICE_FLAGS[flag], value if value.stand_in else new(value.lit)
    return "cpu", new(1)


def _same(a: Value, b: Value) -> bool:
    """Two branches' devices= are one value (a stand-in's syntax is its own: ``[a] if c else [b]`` differ)."""
    return not a.stand_in and not b.stand_in and a.lit == b.lit


def _conditional(plan: Plan, flag: str, value: Value) -> bool:
    """``gpus=1 if cuda else 0``: both branches are literals; False (nothing done) where the rules after this one
    would treat the two branches differently in a way the rewritten pair cannot carry."""
    assert value.cond is not None
    test, yes, no = value.cond
    (acc_yes, dev_yes), (acc_no, dev_no) = _branch(flag, yes), _branch(flag, no)
    accelerator = new(acc_yes) if acc_yes == acc_no else Value(cond=(test, new(acc_yes), new(acc_no)))
    devices = dev_yes if _same(dev_yes, dev_no) else Value(cond=(test, dev_yes, dev_no))

    def rewrite(target: Plan) -> None:
        target.drop("devices")
        target.replace(flag, [("accelerator", accelerator), ("devices", devices)])

    if not plan.trial and not same_for_every_value(plan, flag, [yes.lit, no.lit], rewrite, step):
        return False
    rewrite(plan)
    plan.note(ID, f"{flag}={value.text} became accelerator= and devices= (deprecated in 1.7)")
    return True


def _all_falsy(plan: Plan, flags: dict[str, Value]) -> None:
    """Every device flag said "not this device": the CPU, unless a flag this plan cannot see chose otherwise. (A
    config section's keys held as written, none of which chooses a device, hide nothing that could.)"""
    unseen = plan.opaque_rest and not (plan.held and not plan.held & _CHOOSERS)
    for flag, value in flags.items():
        plan.drop(flag)
        if unseen:
            plan.note(ID, f"removed {flag}={value.text}: it chose no accelerator")
        else:
            plan.note(ID, f"removed {flag}={value.text}: it meant CPU")
    if "accelerator" in plan or plan.target < (2, 0) or plan.is_compat:
        return
    if unseen:
        # A falsy device flag does not decide the accelerator: tpu_cores=8 may come from flags we cannot see.
        falsy = ", ".join(f"{flag}={value.text}" for flag, value in flags.items())
        plan.todo(
            ID,
            f"{falsy} chose no accelerator, and flags not visible here may choose one; if none does, 2.0 takes "
            'every GPU: pass accelerator="cpu", devices=1 where the flags are complete',
        )
        return
    # 2.0's defaults pick every accelerator it finds; the old code asked for the CPU (and kept devices=).
    plan.set("accelerator", new("cpu"))
    plan.origin["accelerator"] = ID  # chosen by a device flag, not named by the user (legacy_fallbacks)
    devices = plan.get("devices")
    if devices is None or (devices.known and devices.lit is None):
        plan.set("devices", new(1), after="accelerator")
        plan.origin["devices"] = ID


def _as_literal(flag: str, value: Value) -> Value:
    """A name bound once to one literal (``GPUS = 2``) reads as that literal; its syntax (the name) stays. So
    does a list display (``gpus=[args.device]``, alone or as a branch of ``... if cuda else None``)."""
    if flag == "gpus" and value.cond is not None:
        test, yes, no = value.cond
        first, second = _indices(yes), _indices(no)
        if first is yes and second is no:
            return value
        return dataclasses.replace(value, cond=(test, first, second))
    options = value.facts.options if value.facts is not None and not value.known else None
    if options is None or len(options) != 1:
        return _indices(value) if flag == "gpus" else value
    return dataclasses.replace(value, lit=options[0])


def _indices(value: Value) -> Value:
    """``gpus=[args.device]``: 1.5 read any list as the GPU indices it holds, and ``devices=`` next to
    ``accelerator="gpu"`` reads it the same way (both refuse what is no index of a visible GPU), so it selects like
    as many valid indices (``[0]``) and is written as it is."""
    if value.known or not value.items or any(item.spread for item in value.items):
        return value
    return dataclasses.replace(value, lit=list(range(len(value.items))), stand_in=True)


def _precedence(plan: Plan, flags: dict[str, Value], truthy: list[str]) -> bool | None:
    """gpus= next to flags that 1.5 then ignored (recorded 1.5.10, group "precedence"): ``accelerator="cpu"`` ran one
    CPU process whatever gpus=/num_processes=/devices= said; otherwise gpus= beat num_processes= and devices=, and
    ``accelerator="auto"`` meant the GPUs. True: settled here; False: changed, to be read again; None: untouched."""
    accelerator = plan.get("accelerator")
    name = accelerator.lit.lower() if accelerator is not None and isinstance(accelerator.lit, str) else None
    if accelerator is not None and name is None and not (accelerator.known and accelerator.lit is None):
        return None  # an accelerator object or an expression: the general path decides
    if set(truthy) - {"gpus", "num_processes"}:
        return None
    devices = plan.get("devices")
    ignored = [key for key in flags if key != "gpus" and key in plan] + (["devices"] if devices is not None else [])
    if name == "cpu":
        for key in [*flags, *(["devices"] if devices is not None else [])]:
            plan.drop(key)
        plan.set("devices", new(1), after="accelerator")
        plan.note(ID, f'accelerator="cpu" next to gpus={flags["gpus"].text} ran one CPU process in 1.5: devices=1')
        return True
    if not ignored and name != "auto":
        return None
    for key in ignored:
        plan.drop(key)
        plan.note(ID, f"dropped {key}=: 1.5 ran gpus={flags['gpus'].text} and ignored it")
    if name == "auto":
        plan.set("accelerator", new("gpu"))
        plan.note(ID, f'accelerator="auto" next to gpus={flags["gpus"].text} was the GPUs in 1.5')
    return False


def step(plan: Plan) -> None:
    present = [(flag, plan.get(flag)) for flag in DEVICE_FLAGS if flag in plan]
    flags = {flag: _as_literal(flag, value) for flag, value in present if value is not None}
    if not flags:
        return
    accelerator = plan.get("accelerator")
    explicit = accelerator is not None and not (accelerator.known and accelerator.lit is None)
    if len(flags) == 1 and not explicit:
        ((flag, value),) = flags.items()
        if value.cond is not None and value.cond[1].known and value.cond[2].known and _conditional(plan, flag, value):
            return
    unknown = [f"{flag}={value.text}" for flag, value in flags.items() if not value.known]
    if unknown:
        # A falsy literal never decides the accelerator, whatever the unknown flags hold: it goes; a truthy one
        # may be overridden by them (or override them), so it stays and the TODO names it (Plan.stop).
        for flag, value in flags.items():
            if value.known and not lightning_truthy(value.lit):
                plan.drop(flag)
                plan.note(ID, f"removed {flag}={value.text}: a falsy device flag chose no accelerator")
        left = [(flag, value) for flag, value in flags.items() if flag in plan]
        why = expression(plan, *left[0], step) if len(left) == 1 and not explicit else ""
        if why is None:
            return
        plan.stop(
            ID, f"{', '.join(unknown)} is not a literal: pass accelerator= and devices= instead {_example(flags)}{why}"
        )
        return
    truthy = [flag for flag in flags if lightning_truthy(flags[flag].lit)]
    if "gpus" in truthy and "ipus" in truthy:
        # Recorded on 1.5.10 with IPUs present: one GPU, not the gpus= count (its IPU checks undid the strategy
        # gpus= asked for); no spelling of the 2.x flags says "what 1.5 did on whichever machine this runs on".
        plan.stop(
            ID, "gpus= together with ipus=: 1.5 ran one GPU where IPUs were present; choose accelerator= and devices="
        )
        return
    if "gpus" in truthy:
        settled = _precedence(plan, flags, truthy)
        if settled is not None:
            if not settled:
                step(plan)  # the flags 1.5 ignored are gone: what is left reads as usual
            return
    if "num_processes" in truthy and len(truthy) > 1:
        if flags["num_processes"].lit != 1:
            plan.stop(ID, "num_processes= together with another device flag: choose accelerator= and devices=")
            return
        truthy.remove("num_processes")  # 1 was the 1.5 default; the other device flag decided
    if not truthy:
        _all_falsy(plan, flags)
        return
    # 1.5 took the accelerator and the count from the same flag (gpus, then tpu_cores, then ipus): with
    # num_processes out of the way (above), the count comes from the flag that chose the accelerator.
    count_flag = [flag for flag in _ACCELERATOR_ORDER if flag in truthy][-1]
    kind = DEVICE_FLAGS[count_flag]
    if explicit:
        assert accelerator is not None
        named = accelerator.known and isinstance(accelerator.lit, str) and accelerator.lit.lower() in _SAME[kind]
        if not (named or accelerator.accelerator_kind == kind):
            if count_flag == "num_processes" and type(flags[count_flag].lit) is int and flags[count_flag].lit == 1:
                # 1 is num_processes' default in 1.5's signature: Trainer(accelerator="auto", num_processes=1) was
                # Trainer(accelerator="auto") (a config that writes out every default, pyannote-audio's).
                plan.drop(count_flag)
                plan.note(ID, f"dropped num_processes=1 (the 1.5 default): accelerator={accelerator.text} decided")
                step(plan)
                return
            plan.stop(
                ID, f"accelerator={accelerator.text} and {count_flag}= disagree: choose accelerator= and devices="
            )
            return
    devices = plan.get("devices")
    if (
        explicit
        and kind == "cpu"
        and flags[count_flag].lit == 1
        and devices is not None
        and not (devices.known and devices.lit is None)
    ):
        # num_processes=1 was 1.5's default value: next to accelerator="cpu" it did not override devices=.
        plan.drop(count_flag)
        plan.note(ID, f"dropped num_processes=1 (the 1.5 default): devices={devices.text} counted the processes")
        return
    if devices is not None:
        plan.drop("devices")
        plan.note(ID, f"dropped devices={devices.text}: {count_flag}= took precedence over it")
    for flag, value in flags.items():
        if flag != count_flag:
            plan.drop(flag)
            if lightning_truthy(value.lit):
                plan.note(ID, f"dropped {flag}={value.text}: Lightning used {count_flag}=")
    replacement = [("devices", flags[count_flag])]
    if not explicit:
        plan.drop("accelerator")
        replacement.insert(0, ("accelerator", new(kind)))
        plan.origin["accelerator"] = ID  # chosen by a device flag, not named by the user (legacy_fallbacks)
    plan.replace(count_flag, replacement)
    plan.origin["devices"] = ID
    plan.note(ID, f"{count_flag}={flags[count_flag].text} is accelerator={kind!r}, devices= (deprecated in 1.7)")


def _example(flags: dict[str, Value]) -> str:
    """How the pair is spelled for the first flag that is not a literal (a TPU count is not a GPU count)."""
    first = next(flag for flag, value in flags.items() if not value.known)
    kind = {"gpus": "gpu", "tpu_cores": "tpu", "ipus": "ipu", "num_processes": "cpu"}.get(first, "gpu")
    if kind == "cpu":
        return '(e.g. accelerator="cpu", devices=n)'
    return f'(e.g. accelerator="{kind}", devices=n when n > 0, else accelerator="cpu"); 0 and None meant CPU'


RULE = Rule(
    id=ID,
    description="gpus=/tpu_cores=/ipus=/num_processes= become accelerator= and devices=",
    deprecated_in="1.7",
    scope="flags",
    step=step,
    order=30,
    tokens=("gpus", "tpu_cores", "ipus", "num_processes"),
)
