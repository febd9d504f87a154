"""The 1.5 Trainer properties on the 2.x Trainer, with the values 1.5 returned for the same selection.

Names and replacements come from ``legacy_api.renames.TRAINER_PROPERTIES``; the values are computed from what 2.x
selected (the accelerator and strategy classes, the devices) and from the flags as given (``trainer.gpus`` was the
``gpus`` flag as passed). Reading one warns once per call site, naming the replacement and the rule
``trainer_properties``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.enums import enum_class
from compat.lightning._patch import PatchLog
from compat.lightning._trainer import GIVEN, STRATEGY_REF
from legacy_api.lightning15 import truthy
from legacy_api.renames import TRAINER_PROPERTIES, TrainerProperty

_RULE = "trainer_properties"


def _names(obj: Any) -> set[str]:
    return {cls.__name__ for cls in type(obj).__mro__}


def _kind(trainer: Any) -> str:
    names = _names(trainer.accelerator)
    if "CUDAAccelerator" in names or "MPSAccelerator" in names:
        return "gpu"
    if "XLAAccelerator" in names:
        return "tpu"
    return "cpu"


def _given(trainer: Any, flag: str) -> Any:
    return trainer.__dict__.get(GIVEN, {}).get(flag)


def distrib_value(trainer: Any) -> str | None:
    """1.5's ``DistributedType`` value for what 2.x runs (None: one device, no distributed strategy)."""
    strategy = trainer.strategy
    names = _names(strategy)
    if "DeepSpeedStrategy" in names:
        return "deepspeed"
    if "XLAStrategy" in names:
        return "tpu_spawn"
    if "FSDPStrategy" in names:
        return "ddp_fully_sharded"
    if "DDPStrategy" in names:
        launcher = getattr(strategy, "_start_method", "popen")
        return "ddp_spawn" if launcher in ("spawn", "fork", "forkserver") else "ddp"
    return None


def _value(trainer: Any, name: str) -> Any:
    kind, cuda = _kind(trainer), _kind(trainer) == "gpu"
    distrib = distrib_value(trainer)
    if name == "training_type_plugin":
        return trainer.strategy
    if name == "gpus":
        given = _given(trainer, "gpus")
        return given if given is not None else (_given(trainer, "devices") if cuda else None)
    if name == "num_gpus":
        return trainer.num_devices if cuda else 0
    if name == "root_gpu":
        return trainer.strategy.root_device.index if cuda else None
    if name == "data_parallel_device_ids":
        return list(trainer.device_ids) if cuda else None
    if name == "tpu_cores":
        return (_given(trainer, "tpu_cores") or _given(trainer, "devices")) if kind == "tpu" else None
    if name == "ipus":
        return 0
    if name == "num_processes":
        return trainer.num_devices if kind == "cpu" or (cuda and distrib in ("ddp", "ddp_spawn")) else 1
    if name == "devices":
        flags = ("gpus", "tpu_cores", "ipus", "num_processes", "devices")
        return next((_given(trainer, f) for f in flags if truthy(_given(trainer, f))), trainer.num_devices)
    if name == "_distrib_type":
        return enum_class("utilities.enums.DistributedType")(distrib) if distrib else None
    if name == "_device_type":
        return enum_class("utilities.enums.DeviceType")(kind.upper())
    if name in ("use_amp", "using_native_amp"):
        return (
            str(trainer.precision) in ("16-mixed", "bf16-mixed")
            if name == "using_native_amp"
            else (str(trainer.precision) == "16-mixed")
        )
    if name == "amp_backend":
        mixed = str(trainer.precision) in ("16-mixed", "bf16-mixed")
        return enum_class("utilities.enums.AMPType")("native") if mixed else None
    if name == "amp_level":
        return None
    if name == "distributed_backend":
        return distrib
    if name == "data_parallel":
        return "ParallelStrategy" in _names(trainer.strategy)
    if name == "should_rank_save_checkpoint":
        return trainer.is_global_zero
    if name == "lightning_optimizers":
        return {i: opt for i, opt in enumerate(trainer.optimizers)}
    raise AttributeError(name)


#: 1.5 Trainer (and connector) properties that the TRAINER_PROPERTIES rows do not list, with their notes.
EXTRA: tuple[tuple[str, str], ...] = (
    ("on_gpu", "isinstance(trainer.accelerator, CUDAAccelerator)"),
    ("on_tpu", "isinstance(trainer.accelerator, XLAAccelerator)"),
    ("on_cpu", "isinstance(trainer.accelerator, CPUAccelerator)"),
    ("use_dp", "DataParallel is gone in 2.0"),
    ("use_ddp", "isinstance(trainer.strategy, DDPStrategy)"),
    ("use_ddp2", "DDP2 is gone"),
    ("use_horovod", "Horovod is gone in 2.0"),
    ("use_deepspeed", "isinstance(trainer.strategy, DeepSpeedStrategy)"),
)


def _extra_value(trainer: Any, name: str) -> Any:
    distrib = distrib_value(trainer)
    kind = _kind(trainer)
    return {
        "on_gpu": kind == "gpu",
        "on_tpu": kind == "tpu",
        "on_cpu": kind == "cpu",
        "use_dp": False,
        "use_ddp": distrib in ("ddp", "ddp_spawn", "ddp_fully_sharded", "deepspeed", "tpu_spawn"),
        "use_ddp2": False,
        "use_horovod": False,
        "use_deepspeed": distrib == "deepspeed",
    }[name]


def _prop_notice(prop: TrainerProperty) -> Notice:
    replacement = prop.replacement() if prop.instead else f"trainer.{prop.new}" if prop.new else ""
    details = prop.note if not prop.exact else ""
    return Notice(
        f"`trainer.{prop.old}`",
        f"`{replacement}`" if replacement else "",
        prop.deprecated_in,
        compat_removed_in(prop.removed_in),
        details,
        rule=_RULE,
    )


def _property(notice: Notice, compute: Callable[[Any], Any]) -> property:
    def getter(self: Any) -> Any:
        warn(notice)
        return compute(self)

    return property(getter, doc=f"Lightning 1.5's {notice.old} (deprecated: {notice.replacement or notice.details}).")


def install_properties(root: str, trainer: Any, log: PatchLog) -> None:
    """Give ``trainer`` (the class) the 1.5 properties it lacks, and 2.x accelerators ``training_type_plugin`` and
    ``precision_plugin`` (1.5's Accelerator held the strategy and the precision plugin)."""
    for prop in TRAINER_PROPERTIES:
        if "." in prop.old or prop.old in trainer.__dict__ or hasattr(trainer, prop.old):
            continue
        name = prop.old
        log.set_attr(trainer, name, _property(_prop_notice(prop), functools.partial(_value, name=name)))
    for name, instead in EXTRA:
        if hasattr(trainer, name):
            continue
        notice = Notice(f"`trainer.{name}`", f"`{instead}`", "1.6", compat_removed_in("1.6"), rule=_RULE)
        log.set_attr(trainer, name, _property(notice, functools.partial(_extra_value, name=name)))
    accelerator = importlib.import_module(f"{root}.accelerators").Accelerator
    row = next(p for p in TRAINER_PROPERTIES if p.old == "accelerator.training_type_plugin")

    def strategy_of(self: Any) -> Any:
        ref = self.__dict__.get(STRATEGY_REF)
        strategy = ref() if ref is not None else None
        if strategy is None:
            raise AttributeError("this accelerator belongs to no Trainer built while compat.lightning was installed")
        return strategy

    log.set_attr(accelerator, "training_type_plugin", _property(_prop_notice(row), strategy_of))
    if not hasattr(accelerator, "precision_plugin"):
        precision = next(p for p in TRAINER_PROPERTIES if p.old == "accelerator.precision_plugin")
        log.set_attr(
            accelerator,
            "precision_plugin",
            _property(_prop_notice(precision), lambda self: strategy_of(self).precision_plugin),
        )
