"""The steps of :func:`legacy_api.translate.translate` up to the device flags (codemod rules of order < 35)."""

from __future__ import annotations

from typing import Any

from legacy_api import lightning15 as l15
from legacy_api._translate_plan import (
    IPU_MOVED,
    REMOVED_STRATEGIES,
    RENAMED_STRATEGIES,
    SAME_KIND,
    Plan,
    Stop,
    accelerator_kind,
    is_strategy,
    shown,
)
from legacy_api.launch_policy import TEST_SUITE_STRATEGY, spawns_in_test_suite
from legacy_api.renames import ACCELERATOR_NAMES


# --- the steps, in the codemod's rule order (codemods/rules/<id>.py, Rule.order) --------------------------------------
def _empty_names(plan: Plan) -> None:
    for key in ("strategy", "accelerator", "distributed_backend"):
        value = plan.get(key)
        if isinstance(value, str) and not value.strip():
            plan.flag(key, f"no `{key}`", "empty_names")
            del plan.flags[key]


def _distributed_backend(plan: Plan) -> None:
    if "distributed_backend" not in plan:
        return
    backend = plan.flags.pop("distributed_backend")
    if not l15.truthy(backend):
        plan.flag("distributed_backend", "nothing (it selected nothing)", "distributed_backend")
        return
    plan.flag("distributed_backend", f"strategy={backend!r}", "distributed_backend")
    plan.flags["accelerator"] = backend  # 1.4: the backend won over accelerator=
    plan.origin["accelerator"] = "distributed_backend"


def _ddp_cpu(plan: Plan) -> None:
    if plan.get("accelerator") != "ddp_cpu":
        return
    if "strategy" in plan:
        raise Stop("ddp_cpu", 'accelerator="ddp_cpu" together with strategy= was an error: use accelerator="cpu"')
    devices = plan.flags.get("num_processes", 1)
    for flag in ("gpus", "tpu_cores", "ipus"):
        if l15.truthy(plan.flags.get(flag)):  # 1.5 warned that it would not use them: so does the shim
            plan.flag(flag, "nothing: accelerator='ddp_cpu' never used accelerators", "ddp_cpu")
    for flag in ("gpus", "tpu_cores", "ipus", "num_processes", "devices"):
        plan.flags.pop(flag, None)
    plan.flags["accelerator"], plan.flags["devices"] = "cpu", devices
    if devices == 1:
        plan.flags["strategy"] = "ddp"  # one process still ran DDP in 1.5
    elif plan.test_suite and spawns_in_test_suite("cpu", devices, None):
        plan.flags["strategy"] = TEST_SUITE_STRATEGY  # what 1.5 ran; 2.x's "ddp" would re-run the pytest session
    plan.flag("accelerator", f"accelerator='cpu', devices={devices!r}", "ddp_cpu")
    if "num_processes" in plan.given:
        plan.flag("num_processes", f"devices={devices!r}", "ddp_cpu")


def _plugins_strategy(plan: Plan) -> None:
    plugins = plan.get("plugins")
    if plugins is None:
        return
    items = list(plugins) if isinstance(plugins, list | tuple) else [plugins]
    strategies = [item for item in items if is_strategy(item)]
    if not strategies:
        return
    if len(strategies) > 1 or ("strategy" in plan and plan.origin.get("strategy", "explicit") == "explicit"):
        named = [item.lower() for item in (*strategies, plan.get("strategy")) if isinstance(item, str)]
        gone = next((REMOVED_STRATEGIES[name] for name in named if name in REMOVED_STRATEGIES), None)
        conflict = "only one strategy can be selected: pass it as strategy=, not in plugins="
        if gone is not None:  # whichever 1.5 kept, the flags name a feature 2.x removed: that is the error
            raise Stop("plugins_strategy", f"{gone} ({conflict})", True)
        raise Stop("plugins_strategy", conflict)
    rest = [item for item in items if not is_strategy(item)]
    plan.use(f"Trainer(plugins=[{shown(strategies[0])}])", f"strategy={shown(strategies[0])}", "plugins_strategy")
    del plan.flags["plugins"]
    plan.flags["strategy"] = strategies[0]
    if rest:
        plan.flags["plugins"] = rest
    plan.origin["strategy"] = "plugins_strategy"


def _tpu_spawn_accelerator(plan: Plan) -> None:
    if plan.get("accelerator") != "tpu_spawn" or "strategy" in plan:
        return
    on_tpu = l15.truthy(plan.get("tpu_cores"))
    name = "tpu_spawn" if on_tpu else "ddp"
    del plan.flags["accelerator"]
    plan.flags["strategy"] = name
    if not on_tpu and not any(l15.truthy(plan.get(f)) for f in ("gpus", "num_processes", "ipus", "devices")):
        plan.flags["accelerator"] = "cpu"  # even one CPU process ran DDP here
    plan.origin["strategy"] = "tpu_spawn_accelerator"
    plan.flag("accelerator", f"strategy={RENAMED_STRATEGIES.get(name, name)!r}", "tpu_spawn_accelerator")


def _accelerator_strategy(plan: Plan) -> None:
    if "accelerator" not in plan:
        return
    value = plan.flags["accelerator"]
    if value is None or accelerator_kind(value) is not None:
        return
    if not is_strategy(value):
        if not isinstance(value, str) or value.lower() in ACCELERATOR_NAMES:
            return  # an accelerator name, or an object of its own: 2.x decides
        raise Stop("accelerator_strategy", f"accelerator={shown(value)} names no accelerator (cpu/gpu/tpu/auto)")
    if "strategy" in plan:
        if plan.origin.get("strategy", "explicit") == "explicit":
            raise Stop("accelerator_strategy", f"strategy= and accelerator={shown(value)} both select a strategy")
        del plan.flags["accelerator"]
        plan.flag("accelerator", "nothing: 1.5 used the strategy from plugins=", "accelerator_strategy")
        return
    del plan.flags["accelerator"]
    plan.flags["strategy"] = value
    plan.origin["strategy"] = "accelerator_strategy"
    if plan.origin.get("accelerator") != "distributed_backend":
        plan.flag("accelerator", f"strategy={shown(value)}", "accelerator_strategy")


def _accelerator_case(plan: Plan) -> None:
    value = plan.get("accelerator")
    if isinstance(value, str) and value.lower() != value and value.lower() in ACCELERATOR_NAMES:
        plan.flag("accelerator", f"accelerator={value.lower()!r}", "accelerator_case")
        plan.flags["accelerator"] = value.lower()


def _precedence(plan: Plan, flags: dict[str, Any], truthy: list[str]) -> bool | None:
    """gpus= next to flags 1.5 ignored (device_flags._precedence); True: settled, False: read again."""
    accelerator = plan.get("accelerator")
    name = accelerator.lower() if isinstance(accelerator, str) else None
    if "accelerator" in plan and name is None and accelerator is not None:
        return None
    if set(truthy) - {"gpus", "num_processes"}:
        return None
    ignored = [key for key in flags if key != "gpus" and key in plan] + (["devices"] if "devices" in plan else [])
    if name == "cpu":
        for key in [*flags, "devices"]:
            plan.flags.pop(key, None)
        plan.flags["devices"] = 1
        return True
    if not ignored and name != "auto":
        return None
    for key in ignored:
        del plan.flags[key]
    if name == "auto":
        plan.flags["accelerator"] = "gpu"
    return False


def _device_flags(plan: Plan) -> None:
    flags = {flag: plan.flags[flag] for flag in l15.DEVICE_FLAGS if flag in plan}
    if not flags:
        return
    for flag, value in flags.items():
        kind = l15.DEVICE_FLAGS[flag]
        replacement = f"accelerator={kind!r}, devices={value!r}" if l15.truthy(value) else "no flag"
        # a count that is no int, string or list (gpus=1.5): migrate-trainer leaves it to its author with a TODO
        plan.flag(flag, replacement, "device_flags", not isinstance(value, float))
    _device_flags_step(plan, flags)


def _device_flags_step(plan: Plan, flags: dict[str, Any]) -> None:
    accelerator = plan.get("accelerator")
    explicit = accelerator is not None
    truthy = [flag for flag in flags if l15.truthy(flags[flag])]
    if "gpus" in truthy and "ipus" in truthy:
        # 1.5 ran one GPU (its IPU check undid the strategy gpus= asked for); no 2.x spelling says so, and
        # migrate-trainer leaves the call to its author with this TODO: the shim raises the same words.
        raise Stop(
            "device_flags",
            "gpus= together with ipus=: 1.5 ran one GPU where IPUs were present; choose accelerator= and devices=",
        )
    if "gpus" in truthy:
        settled = _precedence(plan, flags, truthy)
        if settled is not None:
            if not settled:
                left = {flag: plan.flags[flag] for flag in l15.DEVICE_FLAGS if flag in plan}
                if left:
                    _device_flags_step(plan, left)
            return
    if "num_processes" in truthy and len(truthy) > 1:
        truthy.remove("num_processes")  # 1.5 took the other flag (its PRECEDENCE); the codemod leaves a TODO
        if flags["num_processes"] != 1:
            plan.use(
                "Trainer(num_processes=..., <other device flag>)", "accelerator= and devices=", "device_flags", False
            )
    if not truthy:
        for flag in flags:
            del plan.flags[flag]
        if "accelerator" in plan:
            return
        plan.flags["accelerator"] = "cpu"  # 2.0's defaults take every accelerator; 1.5 asked for the CPU
        plan.origin["accelerator"] = "device_flags"
        if plan.flags.get("devices") is None:
            plan.flags["devices"] = 1
        return
    count_flag = next(flag for flag in l15.PRECEDENCE if flag in truthy)
    kind = l15.DEVICE_FLAGS[count_flag]
    if explicit:
        named = isinstance(accelerator, str) and accelerator.lower() in SAME_KIND[kind]
        if not (named or accelerator_kind(accelerator) == kind):
            if count_flag == "num_processes" and type(flags[count_flag]) is int and flags[count_flag] == 1:
                # 1 is num_processes' default in 1.5's signature: Trainer(accelerator="gpu", num_processes=1) was
                # Trainer(accelerator="gpu") (recorded: devices: accelerator='gpu', num_processes=1)
                del plan.flags[count_flag]
                left = {flag: plan.flags[flag] for flag in l15.DEVICE_FLAGS if flag in plan}
                if left:
                    _device_flags_step(plan, left)
                return
            raise Stop("device_flags", f"accelerator={shown(accelerator)} and {count_flag}= disagree")
    devices = plan.get("devices")
    if explicit and kind == "cpu" and flags[count_flag] == 1 and devices is not None:
        del plan.flags[count_flag]  # num_processes=1 was the 1.5 default: devices= counted the processes
        return
    for flag in [*flags, "devices"]:
        plan.flags.pop(flag, None)
    if not explicit:
        plan.flags["accelerator"] = kind
        plan.origin["accelerator"] = "device_flags"
    plan.flags["devices"] = flags[count_flag]


def _cpu_devices(plan: Plan) -> None:
    if plan.get("accelerator") != "cpu" or "devices" not in plan:
        return
    count = plan.flags["devices"]
    if count is None or (isinstance(count, int) and not isinstance(count, bool) and count <= 0):
        del plan.flags["devices"]


def _tpu_devices(plan: Plan) -> None:
    text = plan.get("devices")
    if plan.get("accelerator") != "tpu" or not isinstance(text, str) or text.strip() in ("1", "8", "auto", "-1"):
        return
    index = text.strip().rstrip(",")
    if index.isdigit() and 0 <= int(index) <= 7:
        plan.flags["devices"] = [int(index)]


def _ipu_accelerator(plan: Plan) -> None:
    if plan.get("accelerator") == "ipu" or plan.get("strategy") == "ipu_strategy":
        raise Stop("ipu_accelerator", IPU_MOVED, True)


#: In the order of the codemod's rules (Rule.order 5 to 34).
EARLY_STEPS = (
    _empty_names,
    _distributed_backend,
    _ddp_cpu,
    _plugins_strategy,
    _tpu_spawn_accelerator,
    _accelerator_strategy,
    _accelerator_case,
    _device_flags,
    _cpu_devices,
    _tpu_devices,
    _ipu_accelerator,
)
