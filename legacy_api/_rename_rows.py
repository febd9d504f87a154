"""The rows of the renames table up to Lightning 2.0, one generator per family of names.

:mod:`legacy_api.renames` joins them, with the 2.1+ rows of :mod:`legacy_api._rename_rows_2x`, into ``RENAMES``.
"""

from __future__ import annotations

from collections.abc import Iterator

from legacy_api._rename import COMPAT, PL, Rename

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


# --- callbacks.ProgressBar -> TQDMProgressBar (1.5.10: a deprecated subclass with no body of its own; removed 1.7) --
def _progress_bar_rows() -> Iterator[Rename]:
    # 2.0 reused the name ProgressBar for the renamed ProgressBarBase, which draws nothing: at a 2.x target the old
    # name still imports and silently loses the bar, so the row acts on every target. Exact: 1.5.10's ProgressBar
    # only forwarded *args/**kwargs to TQDMProgressBar.__init__(refresh_rate, process_position), which 2.6.6 keeps.
    tqdm = "callbacks.progress.tqdm_progress.TQDMProgressBar"
    for old, new in (
        ("callbacks.ProgressBar", "callbacks.TQDMProgressBar"),
        ("callbacks.progress.ProgressBar", "callbacks.progress.TQDMProgressBar"),
        ("callbacks.progress.progress.ProgressBar", tqdm),
    ):
        yield Rename(old, new, "class", "1.5", "1.7", "tqdm_progress_bar", (PL,))
    # 2.0 renamed ProgressBarBase to ProgressBar (CHANGELOG, #17058; no deprecation: 1.9.5 has only the old name).
    # Always written as progress_bar.ProgressBar, a path no 1.x release has: a bare callbacks.ProgressBar would be
    # read as 1.5's tqdm bar by the rows above on a second run.
    for old in (
        "callbacks.ProgressBarBase",
        "callbacks.progress.ProgressBarBase",
        "callbacks.progress.base.ProgressBarBase",
    ):
        yield Rename(
            old, "callbacks.progress.progress_bar.ProgressBar", "class", "2.0", "2.0", "progress_bar_base", (PL,)
        )


# --- callbacks.LearningRateLogger -> LearningRateMonitor (0.10: a deprecated subclass that only forwarded its
# arguments, #3251; removed in 1.0). No 1.x release has the old name: such code ran on 0.x, where it was the monitor.
def _lr_logger_rows() -> Iterator[Rename]:
    for old, new in (
        ("callbacks.LearningRateLogger", "callbacks.LearningRateMonitor"),
        ("callbacks.lr_logger.LearningRateLogger", "callbacks.lr_monitor.LearningRateMonitor"),
    ):
        yield Rename(old, new, "class", "0.10", "1.0", "lr_logger", (PL,))
    yield Rename("callbacks.lr_logger", "callbacks.lr_monitor", "module", "0.10", "1.0", "lr_logger", (PL,))


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
