"""Lightning 1.5's silent choices: spelled out where 1.6+ would train differently, else reported.

The 1.6 connector rewrite changed what some unchanged flags select. Per MIGRATION.md's "Selection policy", what
1.5 chose explicitly is kept, a choice that changes the accelerator or the device count is spelled out, and a
launcher choice (spawn or not, on one device or several) follows the target's default with a finding of kind
"report" that starts with "implicit: ". ``strategy="ddp_spawn"`` and ``strategy="single_device"`` are never
written:

* ``accelerator="auto"`` without a device count ran on the CPU (1.5 detected devices only for a count);
  since 1.6 it takes every device of the best kind -> ``accelerator="cpu"``.
* ``dp``/``ddp``/``ddp_spawn``/``ddp2`` for one CPU process on one node had no effect (a single-device run)
  -> the strategy is dropped (the target runs one CPU device without it); ``dp``/``ddp2`` with several CPU
  processes ran as ``ddp`` -> ``"ddp"``.
* With TPU or IPU devices 1.5 ignored a strategy name it had no TPU/IPU meaning for and ran its own TPU/IPU
  strategy -> the name is dropped.
* An int ``tpu_cores=1`` (or ``accelerator="auto", devices=1`` on a TPU host) spawned one XLA process; 1.6 runs
  the one core in place -> reported (same core, another launcher).
* Several GPUs per node on several nodes without a strategy ran ``ddp_spawn`` (1.6 picks ``ddp``) -> reported;
  one GPU per node, or ``dp`` across nodes, was refused -> a TODO, since there is nothing to keep.
* ``precision="mixed"`` with DeepSpeed was float16 -> ``precision=16``.
* A precision plugin in ``plugins=`` won over a ``precision=`` that disagreed -> ``precision=`` is dropped.

Only literal flags are read, and only when every flag of the call is visible: a value the rule cannot read
leaves the call as it is (a device flag that is not a literal already has device_flags' TODO). Below target 1.7
the old device flags stay: a dropped strategy is dropped there too, a report stays a report, and any other
difference becomes a TODO.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from codemods.plan.model import UNKNOWN, Plan, Value, new
from codemods.plan.rule import Rule
from legacy_api.lightning15 import CPU_FALLBACK, DEVICE_FLAGS, KEPT_ON_TPU_AND_IPU, NO_EFFECT_ON_ONE_CPU, device_count

ID = "legacy_fallbacks"

#: Lightning 1.6-1.9 still make that fallback (only newcore refuses), so below target 1.7 it needs no TODO.
_STILL_IN_16 = "ran as 'ddp' on the CPU"


def _lit(value: Value | None) -> Any:
    """The literal of a flag (None when absent), strings lower-cased; UNKNOWN when it is not a literal."""
    if value is None:
        return None
    if not value.known:
        return UNKNOWN
    return value.lit.strip().lower() if isinstance(value.lit, str) else value.lit


def _kept_next_to_tpu_or_ipu(name: str) -> bool:
    return name.startswith(KEPT_ON_TPU_AND_IPU) or name.endswith("find_unused_parameters_false")


def _is_deepspeed(value: Value | None) -> bool:
    if value is None:
        return False
    if value.known:
        return isinstance(value.lit, str) and value.lit.strip().lower().startswith("deepspeed")
    return value.is_strategy and "DeepSpeed" in (value.source or "")


def _devices(plan: Plan) -> tuple[Any, int | None]:
    """The devices literal (None when absent) and how many devices it asks for (None: unknown, or all)."""
    lit = _lit(plan.get("devices"))
    if lit is None:
        return None, 1
    return lit, (device_count(lit) if lit is not UNKNOWN else None)


def _accelerator(plan: Plan) -> None:
    accelerator = _lit(plan.get("accelerator"))
    devices = plan.get("devices")
    if accelerator == "auto" and (devices is None or (devices.known and devices.lit is None)):
        plan.set("accelerator", new("cpu"))
        plan.origin["accelerator"] = ID  # not the user's own choice of the CPU (see _strategy)
        if devices is not None:
            plan.drop("devices")
        plan.note(
            ID,
            'accelerator="auto" without devices ran on the CPU in 1.5; 1.6+ would take every device: accelerator="cpu"',
        )


def _strategy(plan: Plan) -> None:
    value = plan.get("strategy")
    name = _lit(value)
    accelerator = _lit(plan.get("accelerator"))
    nodes = _lit(plan.get("num_nodes"))
    if name is UNKNOWN or accelerator is UNKNOWN or nodes is UNKNOWN or not isinstance(nodes, int | None):
        return
    nodes = 1 if nodes is None else nodes
    devices, count = _devices(plan)
    if value is not None and value.is_strategy:
        return  # an instance: 1.5 never altered one
    if name is not None and not isinstance(name, str):
        return
    if accelerator in ("tpu", "ipu") and name is not None and not _kept_next_to_tpu_or_ipu(name):
        plan.drop("strategy")
        plan.note(ID, f"{_DROPPED}{_text(value)}: with {accelerator.upper()} devices 1.5 ran its own strategy")
        name = None
    one = devices in (1, "1") and not isinstance(devices, bool)
    if accelerator == "auto" and name is None and one:
        # Which accelerator "auto" finds is the machine's business, in 1.5 as in 1.6+; only the launcher differs.
        plan.implicit(
            ID,
            'on a TPU host 1.5 spawned one XLA process for accelerator="auto", devices=1; the target runs the '
            "core in place (same device, another launcher)",
        )
        return
    if accelerator == "tpu" and name is None and one:
        plan.implicit(
            ID,
            "one TPU core (tpu_cores=1, accelerator='tpu' with devices=1) spawned one XLA process in 1.5; the "
            "target runs the core in place (same device, another launcher)",
        )
        return
    on_cpu = accelerator in (None, "cpu") and (name is None or name in NO_EFFECT_ON_ONE_CPU)
    # The user's own accelerator="cpu" (or ddp_cpu's): 1.5 then honoured a distributed name for one process.
    explicit_cpu = accelerator == "cpu" and plan.origin.get("accelerator") not in ("device_flags", ID)
    if name == "dp" and nodes > 1 and not (on_cpu and not explicit_cpu):
        plan.stop(ID, 'strategy="dp" runs in one process: 1.5 refused it on several nodes; choose strategy="ddp"')
        return
    if name in NO_EFFECT_ON_ONE_CPU and on_cpu and count == 1 and nodes == 1 and not explicit_cpu:
        # 1.5: "distributed has no effect" -- one CPU device, no strategy; the target does the same without it.
        plan.drop("strategy")
        plan.note(ID, f"{_DROPPED}{_text(value)}: it had no effect for one CPU process in 1.5 (one device, no DDP)")
        return
    if name in CPU_FALLBACK and on_cpu and explicit_cpu:
        # Next to the user's accelerator="cpu" 1.5 honoured the name: one process driving N "CPU devices".
        plan.stop(
            ID,
            f'strategy={_text(value)} next to accelerator="cpu" ran ONE process in 1.5 (DataParallel/DDP2 '
            'without GPUs runs the model as it is): use devices=1 for that, or strategy="ddp" for N processes',
        )
        return
    if name in CPU_FALLBACK and on_cpu:
        plan.set("strategy", new(CPU_FALLBACK[name]))
        plan.note(ID, f"strategy={_text(value)} {_STILL_IN_16} in 1.5 (with a warning); newcore refuses it there")
        return
    if accelerator in ("gpu", "cuda") and nodes > 1 and name is None and count is not None:
        if count == 1:
            plan.stop(
                ID,
                '1.5 refused one GPU per node on several nodes without a strategy: choose strategy="ddp" '
                "(1.6+ picks it silently)",
            )
        elif count > 1:
            plan.implicit(
                ID,
                '1.5 ran several GPUs on several nodes with "ddp_spawn" (with "ddp" under SLURM/TorchElastic); '
                'the target\'s default is "ddp" (same devices, another launcher)',
            )


#: How the note of a dropped strategy starts (below target 1.7 the drop applies to the unchanged call too).
_DROPPED = "dropped strategy="


def _text(value: Value | None) -> str:
    return value.text if value is not None else "None"


def _precision(plan: Plan) -> None:
    precision = plan.get("precision")
    if precision is None or not precision.known:
        return
    if precision.lit == "mixed" and _is_deepspeed(plan.get("strategy")):
        plan.set("precision", new(16))
        plan.note(ID, "precision='mixed' was float16 AMP for DeepSpeed in 1.5: precision=16")
    plugins = plan.get("plugins")
    items = plugins.items if plugins is not None and plugins.items is not None else []
    plugin = next((item for item in items if item.plugin_precision is not None), None)
    if plugin is not None and str(plugin.plugin_precision) != str(precision.lit):
        plan.drop("precision")
        plan.note(ID, f"dropped precision={precision.text}: 1.5 trained in the precision of {plugin.text}")


def _fallbacks(plan: Plan) -> None:
    _accelerator(plan)
    _strategy(plan)
    if not plan.stopped:
        _precision(plan)


def _flag_old_device_flags(plan: Plan) -> None:
    """Below target 1.7 the old device flags stay, yet Lightning 1.6 already selects differently for some.

    Rewrite a copy of the call as target 1.7 would (device_flags, then these fallbacks). A strategy the copy
    drops is dropped here too (1.6 then selects what 1.5 did, old flags and all); a report stays a report; any
    other change means 1.6 selects differently for the unchanged call, which a TODO says.
    """
    from codemods.rules import device_flags

    trial = dataclasses.replace(
        plan,
        items=list(plan.items),
        target=(1, 7),
        notes=[],
        imports=[],
        origin=dict(plan.origin),
        successor={},
        trial=True,
    )
    device_flags.step(trial)
    if trial.stopped or any(flag in trial for flag in DEVICE_FLAGS):
        return
    _fallbacks(trial)
    changes = []
    for note in trial.notes:
        if note.rule != ID or _STILL_IN_16 in note.message:
            continue
        if note.kind == "report":
            plan.report(ID, note.message)
        elif note.message.startswith(_DROPPED) and "strategy" in plan and "strategy" not in trial:
            plan.drop("strategy")
            plan.note(ID, note.message)
        else:
            changes.append(note.message)
    if changes:
        plan.todo(
            ID,
            "Lightning 1.6 selects differently from 1.5 for these flags: "
            + "; ".join(changes)
            + " (--target-version 1.7 rewrites it)",
        )


def step(plan: Plan) -> None:
    if plan.opaque_rest or plan.is_composed:
        return  # flags we cannot see (or that Hydra composes in from other configs) may decide
    if any(flag in plan for flag in DEVICE_FLAGS):
        _flag_old_device_flags(plan)
        return
    _fallbacks(plan)


RULE = Rule(
    id=ID,
    description="1.5's silent accelerator/strategy/precision choices are spelled out so 1.6+ selects the same",
    deprecated_in="1.6",
    scope="flags",
    step=step,
    order=35,
    tokens=("strategy", "accelerator", "distributed_backend", "plugins", "tpu_cores", "num_nodes", "precision"),
)
