"""1.5's connector and plugin attributes on the 2.x objects that replaced them, answering what 1.5.10 answered.

* ``trainer._accelerator_connector.<name>`` (1.5's AcceleratorConnector: ``num_processes``, ``num_gpus``,
  ``parallel_device_ids``, ``use_ddp``, ...): the ``_accelerator_connector.*`` rows of
  ``legacy_api.renames.TRAINER_PROPERTIES``, each answered by the Trainer property of the same meaning
  (:mod:`compat.lightning._properties` computes those from what 2.x selected and the flags as given);
* ``trainer.strategy.should_rank_save_checkpoint`` (1.5's ``TrainingTypePlugin`` property, read as
  ``trainer.training_type_plugin.should_rank_save_checkpoint``): ``is_global_zero``, and ``local_rank == 0`` for
  the TPU spawn strategy (1.5.10's ``TPUSpawnPlugin``);
* ``trainer.accelerator.barrier/broadcast/all_gather/...``: 1.5's Accelerator forwarded them to its training type
  plugin, so they call the trainer's strategy.

Each read warns once per call site, naming the replacement (rule ``trainer_properties``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning import _properties
from compat.lightning._patch import PatchLog
from compat.lightning._trainer import STRATEGY_REF, PicklableRef
from legacy_api.renames import TRAINER_PROPERTIES, TrainerProperty

#: Set on each 2.x accelerator connector of a trainer the shim built: a weak reference to that trainer.
TRAINER_REF = "_compat_lightning_trainer"
_PREFIX = "_accelerator_connector."

#: 1.5 connector name -> the 1.5 Trainer property with the same value (``_properties`` computes it).
_SAME_AS_TRAINER = {
    "num_gpus": "num_gpus",
    "root_gpu": "root_gpu",
    "parallel_device_ids": "data_parallel_device_ids",
    "tpu_cores": "tpu_cores",
    "num_processes": "num_processes",
    "gpus": "gpus",
    "devices": "devices",
    "training_type_plugin": "training_type_plugin",
    "_distrib_type": "_distrib_type",
    "_device_type": "_device_type",
}


def _value(connector: Any, name: str) -> Any:
    ref = connector.__dict__.get(TRAINER_REF)
    trainer = ref() if ref is not None else None
    if trainer is None:
        raise AttributeError(f"{name}: this connector belongs to no Trainer built while compat.lightning was installed")
    if name in _SAME_AS_TRAINER:
        return _properties._value(trainer, _SAME_AS_TRAINER[name])
    kind = _properties._kind(trainer)
    answers: dict[str, Callable[[], Any]] = {
        "num_ipus": lambda: 0,
        "use_tpu": lambda: kind == "tpu",
        "use_ipu": lambda: False,
        "use_cpu": lambda: kind == "cpu",
        "use_gpu": lambda: kind == "gpu",
        # 1.5: SLURM's task count matched the devices it was asked for; 2.x then picks its SLURM environment.
        "is_slurm_managing_tasks": lambda: (
            type(getattr(trainer.strategy, "cluster_environment", None)).__name__ == "SLURMEnvironment"
        ),
    }
    if name in answers:
        return answers[name]()
    return _properties._extra_value(trainer, name)  # use_dp, use_ddp, use_ddp2, use_horovod, use_deepspeed


def _notice(row: TrainerProperty) -> Notice:
    replacement = row.replacement() if row.instead else f"trainer.{row.new}" if row.new else ""
    return Notice(
        f"`trainer.{row.old}`",
        f"`{replacement}`" if replacement else "",
        row.deprecated_in,
        compat_removed_in(row.removed_in),
        row.note if not row.exact else "",
        rule="trainer_properties",
    )


def _connector_property(row: TrainerProperty, name: str) -> property:
    notice = _notice(row)

    def getter(self: Any) -> Any:
        warn(notice)
        return _value(self, name)

    return property(getter, doc=f"Lightning 1.5's AcceleratorConnector.{name}.")


def attach(trainer: Any) -> None:
    """Called after a shimmed ``Trainer.__init__``: the connector learns its trainer (weakly)."""
    connector = getattr(trainer, "_accelerator_connector", None)
    if connector is not None:
        connector.__dict__[TRAINER_REF] = PicklableRef(trainer)


def _should_rank_save_checkpoint(self: Any) -> bool:
    warn(_RANK_NOTICE)
    if any(cls.__name__ == "XLAStrategy" for cls in type(self).__mro__):
        return bool(self.local_rank == 0)  # 1.5.10's TPUSpawnPlugin
    return bool(self.is_global_zero)


_RANK_NOTICE = Notice(
    "`strategy.should_rank_save_checkpoint`",
    "`trainer.is_global_zero`",
    "1.6",
    compat_removed_in("1.8"),
    "1.5's TrainingTypePlugin property: whether this rank writes checkpoints.",
    rule="trainer_properties",
)


def _forward(name: str, row: TrainerProperty) -> Any:
    notice = _notice(row)

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        warn(notice)
        ref = self.__dict__.get(STRATEGY_REF)
        strategy = ref() if ref is not None else None
        if strategy is None:
            raise AttributeError(
                f"{name}: this accelerator belongs to no Trainer built while compat.lightning was installed"
            )
        return getattr(strategy, name)(*args, **kwargs)

    method.__name__ = name
    return method


def install_connector(root: str, log: PatchLog) -> None:
    """Give 2.x's accelerator connector, strategies and accelerators their 1.5 attributes."""
    connector = importlib.import_module(f"{root}.trainer.connectors.accelerator_connector")._AcceleratorConnector
    for row in TRAINER_PROPERTIES:
        if not row.old.startswith(_PREFIX):
            continue
        name = row.old.removeprefix(_PREFIX)
        if not hasattr(connector, name):
            log.set_attr(connector, name, _connector_property(row, name))
    strategy = importlib.import_module(f"{root}.strategies").Strategy
    if not hasattr(strategy, "should_rank_save_checkpoint"):
        log.set_attr(strategy, "should_rank_save_checkpoint", property(_should_rank_save_checkpoint))
    accelerator = importlib.import_module(f"{root}.accelerators").Accelerator
    for row in TRAINER_PROPERTIES:
        if row.old.startswith("accelerator.") and row.new and row.new.startswith("strategy."):
            name = row.old.removeprefix("accelerator.")
            if name != "training_type_plugin" and not hasattr(accelerator, name):
                log.set_attr(accelerator, name, _forward(name, row))
