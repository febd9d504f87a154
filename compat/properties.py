"""The Lightning 1.5 properties of the connector and the runner, computed from the new selection.

Each returns what 1.5 returned for the same selection (``num_gpus`` is 0 off the GPU, ``root_gpu`` is
``None`` there, ``_distrib_type`` is a ``DistributedType`` or ``None``...) and warns with the replacement.
"""

from __future__ import annotations

import copyreg
import functools
from typing import Any

import torch

from compat._aliases import INTERNAL
from compat._rows import PROPERTIES, compat_removed_in
from compat._warn import Notice, warn
from compat.enums import enum_class
from compat.flags import LegacyFlags
from newcore.accelerators import Accelerator
from newcore.plugins.precision import ApexMixedPrecisionPlugin, PrecisionPlugin
from newcore.strategies import Strategy

#: New strategy class name -> Lightning 1.5 ``DistributedType`` value; the nearest class in the MRO wins.
DISTRIBUTED_TYPES = {
    "DDPStrategy": "ddp",
    "DDPSpawnStrategy": "ddp_spawn",
    "DDP2Strategy": "ddp2",
    "DataParallelStrategy": "dp",
    "DDPShardedStrategy": "ddp_sharded",
    "DDPSpawnShardedStrategy": "ddp_sharded_spawn",
    "DDPFullyShardedStrategy": "ddp_fully_sharded",
    "DeepSpeedStrategy": "deepspeed",
    "HorovodStrategy": "horovod",
    "TPUSpawnStrategy": "tpu_spawn",
}
#: 1.5's ``use_ddp``: every DistributedType that ran one process per device.
_DDP_FAMILY = ("ddp", "ddp_spawn", "ddp_sharded", "ddp_sharded_spawn", "ddp_fully_sharded", "deepspeed", "tpu_spawn")
#: New accelerator class name -> 1.5 ``DeviceType`` value (MPS did not exist: it was a GPU to 1.7).
DEVICE_TYPES = {"CPUAccelerator": "cpu", "CUDAAccelerator": "gpu", "MPSAccelerator": "gpu"}
DEVICE_TYPES.update(TPUAccelerator="tpu", IPUAccelerator="ipu")


def distrib_value(strategy: Strategy) -> str | None:
    """The 1.5 ``DistributedType`` value of ``strategy`` (``None`` for single-device and IPU strategies)."""
    return next(
        (DISTRIBUTED_TYPES[c.__name__] for c in type(strategy).__mro__ if c.__name__ in DISTRIBUTED_TYPES), None
    )


def device_value(accelerator: Accelerator | None) -> str:
    """The 1.5 ``DeviceType`` value of ``accelerator``."""
    names = [c.__name__ for c in type(accelerator).__mro__]
    return next((DEVICE_TYPES[n] for n in names if n in DEVICE_TYPES), "cpu")


#: How the replacement names the object: ``connector.num_devices``, ``runner.strategy``.
_VARIABLES = {"AcceleratorConnector": "connector", "Runner": "runner"}


def property_notice(owner: str, name: str) -> Notice:
    """The warning for reading ``<owner>.<name>``."""
    row = PROPERTIES[name]
    replacement = f"`{_VARIABLES.get(owner, owner.lower())}.{row.new}`" if row.new else ""
    note = row.note
    if note:
        note = f"{note[0].upper()}{note[1:]}." if note.startswith("use ") else f"Note: {note}."
    return Notice(
        f"`{owner}.{name}`", replacement, row.deprecated_in, compat_removed_in(row.lightning_removed_in), note
    )


def _training_type_plugin(self: Accelerator) -> Strategy:
    """Lightning 1.5's ``accelerator.training_type_plugin``: the strategy (warns)."""
    owner, strategy = self.__dict__["_compat_owner"]
    warn(property_notice(owner, "accelerator.training_type_plugin"))
    found: Strategy = strategy
    return found


def _precision_plugin(self: Accelerator) -> PrecisionPlugin:
    """Lightning 1.5's ``accelerator.precision_plugin``: the strategy's (warns)."""
    owner, strategy = self.__dict__["_compat_owner"]
    warn(property_notice(owner, "accelerator.precision_plugin"))
    plugin: PrecisionPlugin = strategy.precision_plugin
    return plugin


@functools.cache
def _legacy_accelerator_class(cls: type[Accelerator]) -> type[Accelerator]:
    namespace = {
        "training_type_plugin": property(_training_type_plugin),
        "precision_plugin": property(_precision_plugin),
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__,
        INTERNAL: True,
    }
    meta: type = type(cls)
    legacy: type[Accelerator] = _legacy_metaclass(meta)(cls.__name__, (cls,), namespace)
    return legacy


def _reduce_legacy_class(cls: type[Accelerator]) -> tuple[Any, tuple[type[Accelerator]]]:
    # By name, pickle would find the parent class (the same module and qualname) and refuse it as "not the
    # same object": rebuild the subclass from its parent instead, so strategies travel to spawned workers.
    return _legacy_accelerator_class, (cls.__bases__[0],)


@functools.cache
def _legacy_metaclass(meta: type) -> type:
    """A metaclass of our own per accelerator metaclass, so that ``copyreg`` can pickle our subclasses alone."""
    legacy_meta = type(f"Legacy{meta.__name__}", (meta,), {"__module__": __name__})
    copyreg.pickle(legacy_meta, _reduce_legacy_class)
    return legacy_meta


def with_training_type_plugin(accelerator: Accelerator, strategy: Strategy, owner: str) -> Accelerator:
    """Give ``accelerator`` 1.5's ``training_type_plugin`` attribute, pointing at ``strategy``.

    The instance becomes one of a same-named subclass, created once per accelerator class: accelerators
    are stateless, so ``isinstance``, ``type(...).__name__`` and identity with ``strategy.accelerator``
    all keep working, and newcore's classes are not modified.
    """
    if not isinstance(accelerator.__dict__.get("_compat_owner"), tuple):
        accelerator.__class__ = _legacy_accelerator_class(type(accelerator))
    accelerator.__dict__["_compat_owner"] = (owner, strategy)
    return accelerator


class LegacyProperties:
    """Mixin for the compat connector and runner; the host provides ``strategy`` and ``_legacy``."""

    strategy: Strategy
    _legacy: LegacyFlags

    def _old(self, name: str) -> None:
        warn(property_notice(type(self).__name__, name))

    # -- what was selected, in 1.5 terms (no warnings: compat's own helpers) -------------------------
    def _distrib(self) -> str | None:
        return distrib_value(self.strategy)

    def _device(self) -> str:
        return device_value(self.strategy.accelerator)

    def _devices(self) -> list[torch.device]:
        devices = getattr(self.strategy, "parallel_devices", None)
        return list(devices) if devices else [self.strategy.root_device]

    def _gpu_ids(self) -> list[int] | None:
        return [d.index or 0 for d in self._devices()] if self._device() == "gpu" else None

    def _precision(self) -> PrecisionPlugin:
        return self.strategy.precision_plugin

    # -- the old properties -------------------------------------------------------------------------------
    @property
    def use_ddp(self) -> bool:
        self._old("use_ddp")
        return self._distrib() in _DDP_FAMILY

    @property
    def use_ddp2(self) -> bool:
        self._old("use_ddp2")
        return self._distrib() == "ddp2"

    @property
    def use_dp(self) -> bool:
        self._old("use_dp")
        return self._distrib() == "dp"

    @property
    def use_horovod(self) -> bool:
        self._old("use_horovod")
        return self._distrib() == "horovod"

    @property
    def use_deepspeed(self) -> bool:
        self._old("use_deepspeed")
        return self._distrib() == "deepspeed"

    @property
    def is_distributed(self) -> bool:
        self._old("is_distributed")
        # 1.5: DP was not "distributed"; on TPUs the strategy decided.
        distributed = self._distrib() in (*_DDP_FAMILY, "ddp2", "horovod")
        return distributed or (self._device() == "tpu" and self.strategy.is_distributed)

    @property
    def on_cpu(self) -> bool:
        self._old("on_cpu")
        return self._device() == "cpu"

    @property
    def on_gpu(self) -> bool:
        self._old("on_gpu")
        return self._device() == "gpu"

    @property
    def on_tpu(self) -> bool:
        self._old("on_tpu")
        return self._device() == "tpu"

    @property
    def on_ipu(self) -> bool:
        self._old("on_ipu")
        return self._device() == "ipu"

    @property
    def gpus(self) -> Any:
        self._old("gpus")
        if "gpus" in self._legacy.given:
            return self._legacy.given["gpus"]
        return self._legacy.devices if self._device() == "gpu" else None

    @property
    def num_gpus(self) -> int:
        self._old("num_gpus")
        return len(self._gpu_ids() or [])

    @property
    def root_gpu(self) -> int | None:
        self._old("root_gpu")
        ids = self._gpu_ids()
        return ids[0] if ids else None

    @property
    def parallel_device_ids(self) -> list[int] | None:
        self._old("parallel_device_ids")
        return self._gpu_ids()

    @property
    def data_parallel_device_ids(self) -> list[int] | None:
        self._old("data_parallel_device_ids")
        return self._gpu_ids()

    @property
    def tpu_cores(self) -> int | list[int] | None:
        self._old("tpu_cores")
        if self._device() != "tpu":
            return None
        devices = self._legacy.devices
        return list(devices) if isinstance(devices, (list, tuple)) else len(self._devices())

    @property
    def tpu_id(self) -> int | None:
        self._old("tpu_id")
        devices = self._legacy.devices
        return int(devices[0]) if self._device() == "tpu" and isinstance(devices, (list, tuple)) else None

    @property
    def ipus(self) -> int:
        self._old("ipus")
        return len(self._devices()) if self._device() == "ipu" else 0

    @property
    def num_processes(self) -> int:
        self._old("num_processes")
        distrib = self._distrib()
        if distrib == "ddp2":  # one process per node, each driving all of its GPUs
            return int(getattr(self.strategy, "num_nodes", 1))
        return 1 if distrib in (None, "dp", "horovod") else len(self._devices())

    @property
    def devices(self) -> int:
        self._old("devices")
        return len(self._devices())

    @property
    def distributed_backend(self) -> str | None:
        self._old("distributed_backend")
        return self._distrib()

    @property
    def _distrib_type(self) -> Any:
        self._old("_distrib_type")
        value = self._distrib()
        return None if value is None else enum_class("utilities.enums.DistributedType")(value)

    @property
    def _device_type(self) -> Any:
        self._old("_device_type")
        return enum_class("utilities.enums.DeviceType")(self._device())

    @property
    def training_type_plugin(self) -> Strategy:
        self._old("training_type_plugin")
        return self.strategy

    @property
    def use_amp(self) -> bool:
        self._old("use_amp")
        return self._precision().precision == "16"

    @property
    def amp_backend(self) -> Any:
        self._old("amp_backend")
        backend = "apex" if isinstance(self._precision(), ApexMixedPrecisionPlugin) else self._legacy.amp_backend
        return enum_class("utilities.enums.AMPType")(backend)

    @property
    def amp_level(self) -> str | None:
        self._old("amp_level")
        plugin = self._precision()
        return plugin.amp_level if isinstance(plugin, ApexMixedPrecisionPlugin) else self._legacy.amp_level

    @property
    def should_rank_save_checkpoint(self) -> bool:
        self._old("should_rank_save_checkpoint")
        if self._device() == "tpu":  # 1.5's TPU strategies saved from every host's first core
            return self.strategy.local_rank == 0
        return self.strategy.is_global_zero
