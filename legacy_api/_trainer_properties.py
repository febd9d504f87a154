"""Trainer properties of the 1.x API and what replaces each (``TrainerProperty``, ``TRAINER_PROPERTIES``).

Standard library only. Import them from :mod:`legacy_api.renames`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace


# --- Trainer properties ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainerProperty:
    """``trainer.<old>`` -> ``trainer.<new>``.

    ``exact=True``: ``new`` reads the value ``old`` read in 1.5 on every machine, and the codemod rewrites it.
    ``exact=False``: ``new`` is only the nearest 1.6+ property; the code is rewritten to ``instead``, the
    expression that gives the 1.5 value (``{trainer}`` stands for the Trainer, ``{CUDAAccelerator}`` for the
    target's CUDA accelerator class), where ``rewritten``, else left as it is with a TODO that names ``instead``,
    or, where none does, ``note`` alone.
    Values as the real releases return them (tests/data/lightning-1.5.10.json, lightning-1.6.5.json).
    """

    old: str
    new: str | None
    exact: bool
    deprecated_in: str
    removed_in: str | None
    note: str = ""
    instead: str = ""
    #: The codemod writes ``instead`` in place of the property (``num_gpus``, ``root_gpu``,
    #: ``data_parallel_device_ids``): it reads 1.5's value wherever 1.5 trained on the devices its flags named; it
    #: differs only where they disagreed (``gpus=2`` next to ``accelerator="cpu"`` counted 2 GPUs for a CPU run).
    rewritten: bool = False

    def replacement(self, trainer: str = "trainer", cuda: str = "CUDAAccelerator") -> str:
        """``instead`` spelled for ``trainer`` (the receiver's code) and ``cuda`` (the GPU accelerator class)."""
        return self.instead.format(trainer=trainer, CUDAAccelerator=cuda)


_ON = "{trainer}.num_devices if isinstance({trainer}.accelerator, "
TRAINER_PROPERTIES: tuple[TrainerProperty, ...] = (
    TrainerProperty("training_type_plugin", "strategy", True, "1.6", "1.8"),
    TrainerProperty("accelerator.training_type_plugin", "strategy", True, "1.6", "1.6"),
    # 1.5's Trainer.precision_plugin returned the accelerator's; 1.6 moved the plugin into the strategy (#10570),
    # whose plugin Trainer.precision_plugin returns since (1.6.5, 2.6.6).
    TrainerProperty("accelerator.precision_plugin", "precision_plugin", True, "1.6", "1.6"),
    # 1.5: the first GPU index, None off the GPU; ``root_device.index`` is the core index on TPUs too.
    TrainerProperty(
        "root_gpu",
        "strategy.root_device.index",
        False,
        "1.6",
        "1.8",
        "root_gpu was None when not training on GPUs; root_device.index is set on TPUs too",
        "{trainer}.strategy.root_device.index if isinstance({trainer}.accelerator, {CUDAAccelerator}) else None",
        rewritten=True,
    ),
    # 1.5: the num_processes flag, or the GPU count when ddp/ddp_spawn ran on GPUs; 1 under other GPU strategies.
    TrainerProperty(
        "num_processes",
        "num_devices",
        False,
        "1.6",
        "1.8",
        "num_processes counted CPU processes (trainer.num_devices on a CPU); it was 1 on TPUs and IPUs, and on GPUs "
        "the GPU count under ddp/ddp_spawn but 1 under dp, ddp2, sharded, DeepSpeed or Horovod",
    ),
    # 1.5: the device flag as it was given (devices=, or the gpus=/tpu_cores=/... value it came from).
    TrainerProperty(
        "devices",
        "num_devices",
        False,
        "1.6",
        "1.8",
        "devices returned the device flag as given (2, '0,1', -1, [1, 3]): trainer.num_devices counts the devices, "
        "trainer.device_ids lists them",
    ),
    TrainerProperty(
        "num_gpus",
        "num_devices",
        False,
        "1.6",
        "1.8",
        "num_gpus was 0 when not training on GPUs",
        _ON + "{CUDAAccelerator}) else 0",
        rewritten=True,
    ),
    TrainerProperty(
        "tpu_cores",
        "num_devices",
        False,
        "1.6",
        "1.8",
        "tpu_cores was None when not training on TPUs, and [i] when one core was picked by index",
        _ON + "TPUAccelerator) else None",
    ),
    TrainerProperty(
        "ipus",
        "num_devices",
        False,
        "1.6",
        "1.8",
        "ipus was 0 when not training on IPUs",
        _ON + "IPUAccelerator) else 0",
    ),
    TrainerProperty(
        "data_parallel_device_ids",
        "device_ids",
        False,
        "1.6",
        "1.8",
        "it was None when not training on GPUs",
        "{trainer}.device_ids if isinstance({trainer}.accelerator, {CUDAAccelerator}) else None",
        rewritten=True,
    ),
    TrainerProperty("gpus", None, False, "1.6", "1.8", "use trainer.num_devices or trainer.device_ids"),
    TrainerProperty("use_amp", None, False, "1.6", "1.8", "use trainer.precision (16 meant AMP)"),
    TrainerProperty("should_rank_save_checkpoint", None, False, "1.6", "1.8", "no replacement"),
    TrainerProperty("lightning_optimizers", None, False, "1.6", "1.8", "strategy internals; use trainer.optimizers"),
    TrainerProperty("distributed_backend", None, False, "1.4", "1.5", "use trainer.strategy"),
    TrainerProperty("_distrib_type", None, False, "1.6", "1.6", "use isinstance(trainer.strategy, ...)"),
    TrainerProperty("_device_type", None, False, "1.6", "1.6", "use isinstance(trainer.accelerator, ...)"),
    TrainerProperty("amp_backend", None, False, "1.9", "2.0", "native AMP is the only backend in 2.0"),
    TrainerProperty("amp_level", None, False, "1.9", "2.0", "apex is gone in 2.0"),
    TrainerProperty("using_native_amp", None, False, "1.9", "2.0", "native AMP is the only backend in 2.0"),
    TrainerProperty("data_parallel", None, False, "2.0", "2.0", "use isinstance(trainer.strategy, ParallelStrategy)"),
)


# 1.5's AcceleratorConnector and Accelerator read through the Trainer (``trainer._accelerator_connector.num_gpus``,
# ``trainer.accelerator.barrier()``), checked against 1.5.10, 1.6.5 and 2.6.6: 1.6 rewrote the connector without a
# deprecation, and 1.5 deprecated the accelerator's pass-throughs to the strategy. ``trainer._accelerator_connector``
# itself, and its ``strategy``, ``accelerator``, ``precision_plugin``, ``cluster_environment`` and ``is_distributed``,
# are still there in 2.6.
def _through_the_connector() -> Iterator[TrainerProperty]:
    same = {prop.old: prop for prop in TRAINER_PROPERTIES}
    # 1.5's Trainer property returned the connector's attribute: what replaces it replaces both.
    for attr, prop in (
        ("num_gpus", "num_gpus"),
        ("root_gpu", "root_gpu"),
        ("parallel_device_ids", "data_parallel_device_ids"),
        ("tpu_cores", "tpu_cores"),
        ("num_processes", "num_processes"),
        ("gpus", "gpus"),
        ("devices", "devices"),
        ("num_ipus", "ipus"),
        ("training_type_plugin", "training_type_plugin"),
        ("_distrib_type", "_distrib_type"),
        ("_device_type", "_device_type"),
    ):
        yield replace(same[prop], old=f"_accelerator_connector.{attr}", deprecated_in="1.6", removed_in="1.6")
    for attr, note in (
        ("use_dp", "use isinstance(trainer.strategy, DataParallelStrategy) (gone in 2.0)"),
        ("use_ddp", "use isinstance(trainer.strategy, DDPStrategy) (1.5 counted ddp_spawn, sharded, deepspeed too)"),
        ("use_ddp2", "ddp2 has no strategy in 2.0"),
        ("use_horovod", "use isinstance(trainer.strategy, HorovodStrategy) (gone in 2.0)"),
        ("use_deepspeed", "use isinstance(trainer.strategy, DeepSpeedStrategy)"),
        ("use_tpu", "use isinstance(trainer.accelerator, TPUAccelerator) (XLAAccelerator in 2.0)"),
        ("use_ipu", "use isinstance(trainer.accelerator, IPUAccelerator) (gone in 2.0)"),
        ("is_slurm_managing_tasks", "deprecated in 1.5: check trainer.strategy.cluster_environment"),
    ):
        yield TrainerProperty(f"_accelerator_connector.{attr}", None, False, "1.6", "1.6", note)
    for attr, cls in (("use_cpu", "CPUAccelerator"), ("use_gpu", "{CUDAAccelerator}")):
        instead = f"isinstance({{trainer}}.accelerator, {cls})"
        note = f"{attr} was a bool"
        yield TrainerProperty(f"_accelerator_connector.{attr}", "accelerator", False, "1.6", "1.6", note, instead)
    methods = ("connect", "barrier", "broadcast", "all_gather", "lightning_module_state_dict", "process_dataloader")
    for method in methods:
        yield TrainerProperty(f"accelerator.{method}", f"strategy.{method}", True, "1.5", "1.6")


TRAINER_PROPERTIES += tuple(_through_the_connector())
