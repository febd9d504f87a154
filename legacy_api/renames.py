"""The one table of old -> new names, shared by the codemods, the compat aliases and MIGRATION.md.

Standard library only: ``compat`` imports this module at runtime without libcst.

Names are relative to an import root. Two roots are migrated alike:

* ``pytorch_lightning`` -> ``pytorch_lightning`` (Lightning 1.6+ names, subject to ``--target-version``);
* ``compat`` (this project's mirror of the 1.5 layout) -> ``newcore`` (settled 1.6-1.9 names, always).

A row with ``new=None`` has no mechanical replacement: the codemod leaves the code and adds a
``# TODO(migrate-trainer): ...`` comment carrying ``note``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

from legacy_api import lightning15

Kind = Literal["class", "module", "function", "enum", "property", "kwarg"]

PL = "pytorch_lightning"
COMPAT = "compat"
BOTH: tuple[str, ...] = (PL, COMPAT)

#: Old import root -> the root its names migrate to.
NEW_ROOT: dict[str, str] = {PL: PL, COMPAT: "newcore"}

#: Target versions ``--target-version`` accepts, oldest first: every 1.x minor from 1.6 and every 2.x minor up to
#: the newest pytorch-lightning release (2.6.6 when this was written; legacy_api/LIGHTNING_2X.md has the facts).
TARGET_VERSIONS: tuple[str, ...] = ("1.6", "1.7", "1.8", "1.9", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6")
#: The newest target: a run without ``--target-version`` migrates to the Lightning that ``pip install`` gets.
DEFAULT_TARGET = TARGET_VERSIONS[-1]


def version_tuple(version: str) -> tuple[int, ...]:
    """``"1.10"`` -> ``(1, 10)``, so versions compare numerically, not as text."""
    return tuple(int(part) for part in version.split("."))


@dataclass(frozen=True)
class Rename:
    """One renamed (or removed) name, relative to each root in ``roots``."""

    old: str
    new: str | None
    kind: Kind
    deprecated_in: str
    removed_in: str | None
    rule: str
    roots: tuple[str, ...] = BOTH
    note: str = ""
    #: The first target the row acts on, when later than ``deprecated_in``: a class that still works (and
    #: that another rule writes) up to its removal is only flagged for targets where it is gone.
    acts_in: str | None = None
    #: Keyword arguments the new class needs to be the old one (``DDPSpawnStrategy()`` is
    #: ``DDPStrategy(start_method="spawn")``): a call gets them; any other use (``isinstance``, a base class)
    #: has no exact equivalent and gets a TODO.
    preset: tuple[tuple[str, str], ...] = ()

    def qualified(self, root: str) -> tuple[str, str | None]:
        """Absolute (old, new) names for ``root``; ``new`` uses the root's new root."""
        new = f"{NEW_ROOT[root]}.{self.new}" if self.new is not None else None
        return f"{root}.{self.old}", new


# --- *Plugin -> *Strategy (Lightning 1.6, #11120) --------------------------------------------------------------
# (1.5 class, module under plugins.training_type / strategies, 1.6 class)
_STRATEGIES: tuple[tuple[str, str, str], ...] = (
    ("TrainingTypePlugin", "training_type_plugin", "Strategy"),
    ("ParallelPlugin", "parallel", "ParallelStrategy"),
    ("SingleDevicePlugin", "single_device", "SingleDeviceStrategy"),
    ("DDPPlugin", "ddp", "DDPStrategy"),
    ("DDPSpawnPlugin", "ddp_spawn", "DDPSpawnStrategy"),
    ("DDP2Plugin", "ddp2", "DDP2Strategy"),
    ("DataParallelPlugin", "dp", "DataParallelStrategy"),
    ("DDPShardedPlugin", "sharded", "DDPShardedStrategy"),
    ("DDPSpawnShardedPlugin", "sharded_spawn", "DDPSpawnShardedStrategy"),
    ("DDPFullyShardedPlugin", "fully_sharded", "DDPFullyShardedStrategy"),
    ("DeepSpeedPlugin", "deepspeed", "DeepSpeedStrategy"),
    ("HorovodPlugin", "horovod", "HorovodStrategy"),
    ("TPUSpawnPlugin", "tpu_spawn", "TPUSpawnStrategy"),
    ("SingleTPUPlugin", "single_tpu", "SingleTPUStrategy"),
    ("IPUPlugin", "ipu", "IPUStrategy"),
)
_STRATEGY_MODULE = {"training_type_plugin": "strategy"}


def _strategy_rows() -> Iterator[Rename]:
    for old_cls, module, new_cls in _STRATEGIES:
        new_module = _STRATEGY_MODULE.get(module, module)
        for old in (f"plugins.{old_cls}", f"plugins.training_type.{old_cls}"):
            yield Rename(old, f"strategies.{new_cls}", "class", "1.6", "1.8", "strategy_plugins")
        yield Rename(
            f"plugins.training_type.{module}.{old_cls}",
            f"strategies.{new_module}.{new_cls}",
            "class",
            "1.6",
            "1.8",
            "strategy_plugins",
        )
        yield Rename(
            f"plugins.training_type.{module}", f"strategies.{new_module}", "module", "1.6", "1.8", "strategy_plugins"
        )
    yield Rename("plugins.training_type", "strategies", "module", "1.6", "1.8", "strategy_plugins")
    for old in ("plugins.TrainingTypePluginsRegistry", "plugins.training_type.TrainingTypePluginsRegistry"):
        yield Rename(old, "strategies.StrategyRegistry", "class", "1.6", "1.6", "strategy_plugins")
    yield Rename(
        "plugins.plugins_registry.TrainingTypePluginsRegistry",
        "strategies.strategy_registry.StrategyRegistry",
        "class",
        "1.6",
        "1.6",
        "strategy_plugins",
    )
    yield Rename("plugins.plugins_registry", "strategies.strategy_registry", "module", "1.6", "1.6", "strategy_plugins")


# --- later fates of the 1.6 strategy classes (pytorch_lightning only: newcore keeps the 1.6-1.9 names) ----------
_FAIRSCALE_SHARDING = "FairScale sharding is removed in 2.0: use FSDPStrategy"


def _strategy_removal_rows() -> Iterator[Rename]:
    gone: tuple[tuple[str, str, str, str | None, str], ...] = (
        ("ddp2", "DDP2Strategy", "1.7", "1.8", "DDP2 is no longer supported from 1.7: use DDPStrategy"),
        ("sharded", "DDPShardedStrategy", "1.9", "2.0", _FAIRSCALE_SHARDING),
        ("sharded_spawn", "DDPSpawnShardedStrategy", "1.9", "2.0", _FAIRSCALE_SHARDING),
        ("fully_sharded", "DDPFullyShardedStrategy", "1.9", "2.0", "FairScale FSDP is removed in 2.0: FSDPStrategy"),
        ("horovod", "HorovodStrategy", "1.9", "2.0", "Horovod moved to the lightning-Horovod package in 2.0"),
        ("dp", "DataParallelStrategy", "2.0", "2.0", "DataParallel is removed in 2.0: use DDPStrategy"),
    )
    for module, cls, dep, rm, note in gone:
        for old in (f"strategies.{cls}", f"strategies.{module}.{cls}"):
            yield Rename(old, None, "class", dep, rm, "strategy_removals", (PL,), note)
    # 2.0 folded the spawn variant into DDPStrategy: the same strategy, given its launcher's start method.
    spawn = (("start_method", "spawn"),)
    note = 'DDPSpawnStrategy is gone in 2.0: use DDPStrategy(start_method="spawn")'
    for old, new in (
        ("strategies.DDPSpawnStrategy", "strategies.DDPStrategy"),
        ("strategies.ddp_spawn.DDPSpawnStrategy", "strategies.ddp.DDPStrategy"),
    ):
        yield Rename(old, new, "class", "2.0", "2.0", "strategy_removals", (PL,), note, preset=spawn)
    yield Rename(
        "strategies.TPUSpawnStrategy", "strategies.XLAStrategy", "class", "2.0", "2.0", "strategy_removals", (PL,)
    )
    yield Rename(
        "strategies.tpu_spawn.TPUSpawnStrategy",
        "strategies.xla.XLAStrategy",
        "class",
        "2.0",
        "2.0",
        "strategy_removals",
        (PL,),
    )


# --- accelerators ------------------------------------------------------------------------------------------------
def _accelerator_rows() -> Iterator[Rename]:
    yield Rename(
        "accelerators.GPUAccelerator", "accelerators.CUDAAccelerator", "class", "1.7", "1.9", "gpu_accelerator"
    )
    yield Rename(
        "accelerators.gpu.GPUAccelerator", "accelerators.cuda.CUDAAccelerator", "class", "1.7", "1.9", "gpu_accelerator"
    )
    yield Rename("accelerators.gpu", "accelerators.cuda", "module", "1.7", "1.9", "gpu_accelerator")


# --- precision plugins -----------------------------------------------------------------------------------------
def _precision_rows() -> Iterator[Rename]:
    rule = "precision_plugins"
    for package in ("plugins", "plugins.precision"):
        yield Rename(
            f"{package}.NativeMixedPrecisionPlugin", f"{package}.MixedPrecisionPlugin", "class", "1.9", "2.0", rule
        )
        yield Rename(
            f"{package}.TPUHalfPrecisionPlugin", f"{package}.TPUBf16PrecisionPlugin", "class", "1.5", "1.5", rule
        )
        yield Rename(
            f"{package}.ApexMixedPrecisionPlugin",
            None,
            "class",
            "1.9",
            "2.0",
            rule,
            (PL,),
            "apex is gone in 2.0: use precision='16-mixed'",
            acts_in="2.0",  # amp_flags writes ApexMixedPrecisionPlugin for 1.8/1.9 targets
        )
    # Lightning 1.9 kept the module name; newcore has only the 2.0 module, so compat code moves at once.
    yield Rename(
        "plugins.precision.native_amp.NativeMixedPrecisionPlugin",
        "plugins.precision.native_amp.MixedPrecisionPlugin",
        "class",
        "1.9",
        "2.0",
        rule,
        (PL,),
    )
    yield Rename(
        "plugins.precision.native_amp.NativeMixedPrecisionPlugin",
        "plugins.precision.amp.MixedPrecisionPlugin",
        "class",
        "1.9",
        "2.0",
        rule,
        (COMPAT,),
    )
    yield Rename("plugins.precision.native_amp", "plugins.precision.amp", "module", "2.0", "2.0", rule)
    yield Rename(
        "plugins.precision.tpu_bfloat.TPUHalfPrecisionPlugin",
        "plugins.precision.tpu_bf16.TPUBf16PrecisionPlugin",
        "class",
        "1.5",
        "1.5",
        rule,
    )
    yield Rename(
        "plugins.precision.apex_amp.ApexMixedPrecisionPlugin",
        None,
        "class",
        "1.9",
        "2.0",
        rule,
        (PL,),
        "apex is gone in 2.0: use precision='16-mixed'",
        acts_in="2.0",
    )
    # newcore has no *NativeMixed* names; Lightning 2.0 has no FairScale plugins at all.
    for module, old, new in (
        ("sharded_native_amp", "ShardedNativeMixedPrecisionPlugin", "ShardedMixedPrecisionPlugin"),
        ("fully_sharded_native_amp", "FullyShardedNativeMixedPrecisionPlugin", "FullyShardedMixedPrecisionPlugin"),
    ):
        for package in ("plugins", "plugins.precision", f"plugins.precision.{module}"):
            yield Rename(f"{package}.{old}", f"{package}.{new}", "class", "1.9", "2.0", rule, (COMPAT,))
            yield Rename(
                f"{package}.{old}", None, "class", "1.9", "2.0", rule, (PL,), "FairScale is gone in 2.0: use FSDP"
            )


# --- Lightning 2.1+ (facts and sources: legacy_api/LIGHTNING_2X.md; pytorch_lightning only) ----------------------
def _precision_2x_rows() -> Iterator[Rename]:
    rule = "precision_plugins"
    bf16 = (("precision", "bf16-true"),)
    note = 'the TPU bf16 plugins are XLAPrecision(precision="bf16-true") from 2.1'
    # 2.1.0 deprecated the TPU plugins for XLAPrecisionPlugin, the one name of the XLA plugin every 2.1.x has.
    for package in ("plugins", "plugins.precision"):
        yield Rename(
            f"{package}.TPUPrecisionPlugin", f"{package}.XLAPrecisionPlugin", "class", "2.1", None, rule, (PL,)
        )
        for old in ("TPUBf16PrecisionPlugin", "XLABf16PrecisionPlugin"):
            yield Rename(
                f"{package}.{old}",
                f"{package}.XLAPrecisionPlugin",
                "class",
                "2.1",
                None,
                rule,
                (PL,),
                note,
                preset=bf16,
            )
        # The argument it no longer takes (device) goes too: precision_plugins' constructor step.
        yield Rename(
            f"{package}.FSDPMixedPrecisionPlugin", f"{package}.FSDPPrecisionPlugin", "class", "2.1", None, rule, (PL,)
        )
    xla = "plugins.precision.xla.XLAPrecisionPlugin"
    yield Rename("plugins.precision.tpu.TPUPrecisionPlugin", xla, "class", "2.1", None, rule, (PL,))
    for old in ("tpu_bf16.TPUBf16PrecisionPlugin", "xlabf16.XLABf16PrecisionPlugin"):
        yield Rename(f"plugins.precision.{old}", xla, "class", "2.1", None, rule, (PL,), note, preset=bf16)
    yield Rename(
        "plugins.precision.fsdp.FSDPMixedPrecisionPlugin",
        "plugins.precision.fsdp.FSDPPrecisionPlugin",
        "class",
        "2.1",
        None,
        rule,
        (PL,),
    )
    # 2.1.1 dropped the Plugin suffix (the old names stayed as the same classes); 2.2.0 deprecated the old names.
    for module, new_module, old, new in (
        ("precision_plugin", "precision", "PrecisionPlugin", "Precision"),
        ("amp", "amp", "MixedPrecisionPlugin", "MixedPrecision"),
        ("double", "double", "DoublePrecisionPlugin", "DoublePrecision"),
        ("half", "half", "HalfPrecisionPlugin", "HalfPrecision"),
        ("fsdp", "fsdp", "FSDPPrecisionPlugin", "FSDPPrecision"),
        ("deepspeed", "deepspeed", "DeepSpeedPrecisionPlugin", "DeepSpeedPrecision"),
        ("xla", "xla", "XLAPrecisionPlugin", "XLAPrecision"),
        ("bitsandbytes", "bitsandbytes", "BitsandbytesPrecisionPlugin", "BitsandbytesPrecision"),
        ("transformer_engine", "transformer_engine", "TransformerEnginePrecisionPlugin", "TransformerEnginePrecision"),
    ):
        for package in ("plugins", "plugins.precision"):
            yield Rename(f"{package}.{old}", f"{package}.{new}", "class", "2.2", None, rule, (PL,))
        yield Rename(
            f"plugins.precision.{module}.{old}",
            f"plugins.precision.{new_module}.{new}",
            "class",
            "2.2",
            None,
            rule,
            (PL,),
        )


def _xla_rows() -> Iterator[Rename]:
    for old, new in (
        ("accelerators.TPUAccelerator", "accelerators.XLAAccelerator"),
        ("accelerators.tpu.TPUAccelerator", "accelerators.xla.XLAAccelerator"),
        ("strategies.SingleTPUStrategy", "strategies.SingleDeviceXLAStrategy"),
        ("strategies.single_tpu.SingleTPUStrategy", "strategies.single_xla.SingleDeviceXLAStrategy"),
    ):
        yield Rename(old, new, "class", "2.1", None, "xla_names", (PL,))


#: (module, class) of the IPU and HPU integrations 2.1 moved out of Lightning.
_MOVED_OUT: tuple[tuple[str, str, str], ...] = (
    ("accelerators.ipu", "IPUAccelerator", "lightning-graphcore"),
    ("strategies.ipu", "IPUStrategy", "lightning-graphcore"),
    ("plugins.precision.ipu", "IPUPrecisionPlugin", "lightning-graphcore"),
    ("accelerators.hpu", "HPUAccelerator", "lightning-habana"),
    ("strategies.hpu_parallel", "HPUParallelStrategy", "lightning-habana"),
    ("strategies.single_hpu", "SingleHPUStrategy", "lightning-habana"),
    ("plugins.precision.hpu", "HPUPrecisionPlugin", "lightning-habana"),
)


def _moved_out_rows() -> Iterator[Rename]:
    for module, cls, package in _MOVED_OUT:
        note = f"moved to the {package} package in 2.1 (Lightning's stub raises NotImplementedError)"
        packages: tuple[str, ...] = (module.rpartition(".")[0], module)
        if module.startswith("plugins."):
            packages = ("plugins", "plugins.precision", module)
        for where in packages:
            yield Rename(f"{where}.{cls}", None, "class", "2.1", "2.1", "moved_integrations", (PL,), note)


# --- loggers: LightningLoggerBase -> Logger (deprecated in 1.7, #12014; pl.loggers.base removed in 1.9, #16120) ---
def _logger_rows() -> Iterator[Rename]:
    rule = "logger_base"
    for old, new in (
        ("loggers.LightningLoggerBase", "loggers.Logger"),
        ("loggers.base.LightningLoggerBase", "loggers.logger.Logger"),
    ):
        yield Rename(old, new, "class", "1.7", "1.9", rule, (PL,))
    yield Rename(
        "loggers.base.rank_zero_experiment",
        "loggers.logger.rank_zero_experiment",
        "function",
        "1.7",
        "1.9",
        rule,
        (PL,),
    )
    yield Rename("loggers.base", "loggers.logger", "module", "1.7", "1.9", rule, (PL,))
    # Deprecated in 1.6 (#12147), removed in 1.8 (#14283): a list of loggers is passed as a list since.
    note = "LoggerCollection is gone in 1.8: pass the loggers as a list (logger=[a, b]); trainer.loggers lists them"
    for where in ("loggers", "loggers.base"):
        yield Rename(f"{where}.LoggerCollection", None, "class", "1.6", "1.8", rule, (PL,), note, acts_in="1.8")


# --- LightningLite -> Fabric (deprecated in 1.9, #16314; pl.lite removed in 2.0, #15953) ---------------------------
def _lite_rows() -> Iterator[Rename]:
    # Not a rename: Fabric lives in another package, and its defaults differ (accelerator="auto", devices="auto",
    # where 1.5.10's LightningLite took accelerator=None, devices=None: one CPU), so each use gets the TODO.
    note = (
        "pytorch_lightning.lite is gone in 2.0: LightningLite is lightning_fabric.Fabric (pip install "
        "lightning-fabric; a subclass's run() is launched as before), which takes accelerator=/devices= only (no "
        'gpus=, tpu_cores=) and every GPU by default: pass accelerator="cpu", devices=1 where LightningLite got no '
        "device flag"
    )
    for where in ("lite", "lite.lite"):
        yield Rename(f"{where}.LightningLite", None, "class", "1.9", "2.0", "lite_fabric", (PL,), note, acts_in="2.0")


# --- compat-only: the layout is the same, the root changes ----------------------------------------------------------
def _compat_rows() -> Iterator[Rename]:
    for name in ("AcceleratorConnector", "Runner", "MisconfigurationException"):
        yield Rename(name, name, "class", "1.6", None, "compat_imports", (COMPAT,))
    for old, new in (
        ("accelerators", "accelerators"),
        ("plugins", "plugins"),
        ("plugins.precision", "plugins.precision"),
        ("plugins.environments", "plugins.environments"),
        ("plugins.io", "plugins.io"),
        ("utilities.exceptions", "exceptions"),
    ):
        yield Rename(old, new, "module", "1.6", None, "compat_imports", (COMPAT,))


# --- Trainer keyword arguments that are pure renames --------------------------------------------------------------
def _kwarg_rows() -> Iterator[Rename]:
    yield Rename(
        "Trainer.replace_sampler_ddp",
        "Trainer.use_distributed_sampler",
        "kwarg",
        "2.0",
        "2.0",
        "replace_sampler_ddp",
        (PL,),
    )


RENAMES: tuple[Rename, ...] = (
    *_strategy_rows(),
    *_strategy_removal_rows(),
    *_accelerator_rows(),
    *_precision_rows(),
    *_precision_2x_rows(),
    *_xla_rows(),
    *_moved_out_rows(),
    *_logger_rows(),
    *_lite_rows(),
    *_compat_rows(),
    *_kwarg_rows(),
)


def rows_for(root: str) -> tuple[Rename, ...]:
    """Rows that apply to names under ``root`` (``"pytorch_lightning"`` or ``"compat"``)."""
    return tuple(row for row in RENAMES if root in row.roots)


# --- enums: members become their string values ------------------------------------------------------------------
#: enum (relative qualified name) -> (deprecated_in, removed_in, {member: string value}).
#: ``DeviceType`` values were upper case in 1.5; ``LightningEnum`` compared case-insensitively, and every new API
#: (``accelerator="gpu"``) spells them in lower case, so the lower-case spelling is the faithful replacement.
_DISTRIBUTED = {
    "DP": "dp",
    "DDP": "ddp",
    "DDP2": "ddp2",
    "DDP_CPU": "ddp_cpu",
    "DDP_SPAWN": "ddp_spawn",
    "TPU_SPAWN": "tpu_spawn",
    "DEEPSPEED": "deepspeed",
    "HOROVOD": "horovod",
    "DDP_SHARDED": "ddp_sharded",
    "DDP_SHARDED_SPAWN": "ddp_sharded_spawn",
    "DDP_FULLY_SHARDED": "ddp_fully_sharded",
    "HPU_PARALLEL": "hpu_parallel",
}
_DEVICE = {"CPU": "cpu", "GPU": "gpu", "IPU": "ipu", "TPU": "tpu", "HPU": "hpu"}
_AMP = {"NATIVE": "native", "APEX": "apex"}
_PRECISION = {"HALF": "16", "FLOAT": "32", "FULL": "64", "BFLOAT": "bf16", "MIXED": "mixed"}

ENUM_MEMBERS: dict[str, tuple[str, str, dict[str, str]]] = {
    "utilities.enums.DistributedType": ("1.6", "1.8", _DISTRIBUTED),
    "utilities.DistributedType": ("1.6", "1.8", _DISTRIBUTED),
    "utilities.enums.DeviceType": ("1.6", "1.8", _DEVICE),
    "utilities.DeviceType": ("1.6", "1.8", _DEVICE),
    "utilities.enums.AMPType": ("1.9", "2.0", _AMP),
    "utilities.AMPType": ("1.9", "2.0", _AMP),
    "utilities.enums.PrecisionType": ("1.9", "2.0", _PRECISION),
    "utilities.PrecisionType": ("1.9", "2.0", _PRECISION),
}


# --- Trainer properties ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainerProperty:
    """``trainer.<old>`` -> ``trainer.<new>``.

    ``exact=True``: ``new`` reads the value ``old`` read in 1.5 on every machine, and the codemod rewrites it.
    ``exact=False``: ``new`` is only the nearest 1.6+ property; the code is left as it is with a TODO that
    names ``instead``, the expression that gives the 1.5 value (``{trainer}`` stands for the Trainer,
    ``{CUDAAccelerator}`` for the target's CUDA accelerator class), or, where none does, ``note`` alone.
    Values as the real releases return them (tests/data/lightning-1.5.10.json, lightning-1.6.5.json).
    """

    old: str
    new: str | None
    exact: bool
    deprecated_in: str
    removed_in: str | None
    note: str = ""
    instead: str = ""

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


# --- strategy / accelerator string names --------------------------------------------------------------------------
#: Every strategy name Lightning 1.5 accepted (registry variants + ``DistributedType`` values).
STRATEGY_NAMES: frozenset[str] = frozenset(
    {
        "dp",
        "ddp",
        "ddp2",
        "ddp_spawn",
        "deepspeed",
        "horovod",
        "ddp_sharded",
        "ddp_sharded_spawn",
        "ddp_fully_sharded",
        "fsdp",
        "tpu_spawn_debug",
        "ddp_find_unused_parameters_false",
        "ddp_spawn_find_unused_parameters_false",
        "ddp_sharded_find_unused_parameters_false",
        "ddp_sharded_spawn_find_unused_parameters_false",
        "deepspeed_stage_1",
        "deepspeed_stage_2",
        "deepspeed_stage_2_offload",
        "deepspeed_stage_3",
        "deepspeed_stage_3_offload",
        "deepspeed_stage_3_offload_nvme",
    }
)
#: Strategy classes by simple name, old and new: ``plugins=[DDPPlugin()]`` and ``plugins=[DDPStrategy()]`` alike.
STRATEGY_CLASSES: frozenset[str] = frozenset(
    {old for old, _, _ in _STRATEGIES}
    | {new for _, _, new in _STRATEGIES}
    | {"XLAStrategy", "FSDPStrategy", "DDPFullyShardedNativeStrategy", "BaguaStrategy", "HPUParallelStrategy"}
)
#: Accelerator names (1.5-1.7); anything else in ``accelerator=`` was a strategy or an error.
ACCELERATOR_NAMES: frozenset[str] = frozenset({"cpu", "gpu", "tpu", "ipu", "hpu", "cuda", "mps", "auto"})
#: Legacy device-count flags and the accelerator each one implies.
DEVICE_FLAGS = lightning15.DEVICE_FLAGS


# --- MIGRATION.md ------------------------------------------------------------------------------------------------
MARKER_START = "<!-- renames:start -->"
MARKER_END = "<!-- renames:end -->"


def render_markdown() -> str:
    """The markdown tables MIGRATION.md embeds between ``MARKER_START`` and ``MARKER_END`` (markers excluded)."""
    lines = [
        "| Old | New | Deprecated in | Removed in | Rule | Migration |",
        "|---|---|---|---|---|---|",
    ]
    for row in RENAMES:
        for root in row.roots:
            old, new = row.qualified(root)
            how = "automatic" if new is not None else f"TODO: {row.note}"
            if row.preset:
                how = "automatic in calls; TODO elsewhere (`isinstance`, base classes)"
                new = f"{new}({', '.join(f'{key}={value!r}' for key, value in row.preset)})"
            target = f"`{new}`" if new is not None else "—"
            lines.append(
                f"| `{old}` | {target} | {row.deprecated_in} | {row.removed_in or '—'} | `{row.rule}` | {how} |"
            )
    lines += [
        "",
        "| Trainer property | Replacement | Deprecated in | Removed in | Rule | Migration |",
        "|---|---|---|---|---|---|",
    ]
    for prop in TRAINER_PROPERTIES:
        target = f"`trainer.{prop.new}`" if prop.new else "—"
        how = "automatic" if prop.new and prop.exact else f"TODO: {prop.note}"
        if prop.instead:
            how += f"; the same value: `{prop.replacement()}`"
            how += " (`GPUAccelerator` in 1.6)" if "{CUDAAccelerator}" in prop.instead else ""
        lines.append(
            f"| `trainer.{prop.old}` | {target} | {prop.deprecated_in} | {prop.removed_in or '—'} "
            f"| `trainer_properties` | {how} |"
        )
    lines += [
        "",
        "| Enum | Members become | Deprecated in | Removed in | Rule | Migration |",
        "|---|---|---|---|---|---|",
    ]
    for name, (dep, rm, members) in ENUM_MEMBERS.items():
        values = ", ".join(f"`{m}`→`{v!r}`" for m, v in members.items())
        lines.append(f"| `{PL}.{name}` / `{COMPAT}.{name}` | {values} | {dep} | {rm} | `enum_members` | automatic |")
    return "\n".join(lines) + "\n"
