"""Upgrade-guide rows of Lightning 1.8 (see :mod:`legacy_api.upgrade_guide_model`)."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, built, hook, imported, on_trainer, trainer

PL = "pytorch_lightning"
LM, CB, T = f"{PL}.LightningModule", f"{PL}.Callback", f"{PL}.Trainer"
SILENT_ARG = "silent:todo on the override: the target no longer passes that argument"
HOOKS, DEVICES = "todo:removed_hooks", "rewrite:device_flags"
FABRIC_LOOP = "implement the loop yourself (Fabric); custom loops are no longer pluggable"
MANUAL = "manual optimization (self.automatic_optimization = False)"
PACKAGE = "out-of-scope:a Python/PyTorch version requirement, outside the code"


def _flag(
    n: int, audience: str, flag: str, value: str, replacement: str, outcome: str, note: str = "", gone: str = "2.0"
) -> Row:
    return Row(
        f"1.9-{audience}-{n:02d}",
        f"Trainer({flag}=)",
        replacement,
        outcome,
        f"{T}({flag})",
        gone,
        trainer(f"{flag}={value}"),
        guide_note=note,
    )


def _hook_arg(n: int, base: str, signature: str, probe: str, outcome: str = HOOKS, gone: str = "2.0") -> Row:
    name = signature.partition("(")[0]
    return Row(
        f"1.9-advanced-{n:02d}",
        f"{base.rpartition('.')[2]}.{name}(..., {probe.partition('(')[2][:-1]})",
        MANUAL,
        outcome,
        probe,
        gone,
        hook(base.rpartition(".")[2], signature, base.rpartition(".")[0]),
    )


ROWS = (
    Row(
        "1.8-advanced-01",
        "pytorch_lightning.callbacks.base",
        "pytorch_lightning.callbacks.callback",
        "rewrite:moved_modules",
        f"{PL}.callbacks.base.Callback",
        "1.9",
        imported(f"{PL}.callbacks.base", "Callback"),
        shows="callbacks.callback import",
    ),
    Row(
        "1.8-advanced-02",
        "pytorch_lightning.loops.base",
        "pytorch_lightning.loops.loop (private _Loop in 2.0)",
        "todo:removed_names",
        f"{PL}.loops.base.Loop",
        "1.9",
        imported(f"{PL}.loops.base", "Loop"),
    ),
    Row(
        "1.8-advanced-03",
        "pytorch_lightning.utilities.cli",
        "pytorch_lightning.cli",
        "rewrite:moved_modules",
        f"{PL}.utilities.cli.LightningCLI",
        "1.9",
        imported(f"{PL}.utilities.cli", "LightningCLI"),
        shows="cli import",
    ),
    Row(
        "1.8-advanced-04",
        "pytorch_lightning.profiler.*",
        "pytorch_lightning.profilers",
        "rewrite:profiler_package",
        f"{PL}.profiler.SimpleProfiler",
        "2.0",
        imported(f"{PL}.profiler", "SimpleProfiler"),
        shows="from pytorch_lightning.profilers import SimpleProfiler",
    ),
    Row(
        "1.8-advanced-05",
        "accelerators.GPUAccelerator",
        "accelerators.CUDAAccelerator",
        "rewrite:gpu_accelerator",
        f"{PL}.accelerators.GPUAccelerator",
        "1.9",
        imported(f"{PL}.accelerators", "GPUAccelerator"),
        shows="CUDAAccelerator",
    ),
    Row(
        "1.8-advanced-06",
        "LightningDeepSpeedModule",
        'strategy="deepspeed" / DeepSpeedStrategy',
        "report:strategy_plugins",
        f"{PL}.strategies.deepspeed.LightningDeepSpeedModule",
        "1.9",
        imported(f"{PL}.plugins.training_type.deepspeed", "LightningDeepSpeedModule"),
    ),
    Row(
        "1.8-advanced-07",
        "with init_meta_context()",
        "DeepSpeed ZeRO stage 3 (or Fabric's empty_init)",
        "todo:removed_names",
        f"{PL}.utilities.meta.init_meta_context",
        "1.9",
        f"import {PL} as pl\n\nwith pl.utilities.meta.init_meta_context(): model = make()\n",
    ),
    Row(
        "1.8-advanced-08",
        "Hydra multi-run launched by Lightning's DDP",
        "launch the runs yourself",
        "out-of-scope:a behaviour of the DDP launcher under Hydra, nothing the code names",
    ),
    Row(
        "1.8-advanced-09",
        "utilities.memory.get_gpu_memory_map",
        "accelerators.cuda.get_nvidia_gpu_stats",
        "todo:removed_names",
        f"{PL}.utilities.memory.get_gpu_memory_map",
        "1.9",
        imported(f"{PL}.utilities.memory", "get_gpu_memory_map"),
    ),
    Row(
        "1.8-devel-01",
        "subclassing loggers.base.LightningLoggerBase",
        "loggers.logger.Logger",
        "rewrite:logger_base",
        f"{PL}.loggers.base.LightningLoggerBase",
        "1.9",
        hook("LightningLoggerBase", "name(self)", f"{PL}.loggers.base"),
        shows="class Mine(Logger):",
    ),
    Row(
        "1.8-devel-02",
        "subclassing profiler.base.BaseProfiler",
        "profilers.profiler.Profiler",
        "rewrite:profiler_package",
        f"{PL}.profiler.base.BaseProfiler",
        "1.9",
        hook("BaseProfiler", "start(self, action_name)", f"{PL}.profiler.base"),
        shows="class Mine(Profiler):",
    ),
    Row(
        "1.8-devel-03",
        "subclassing profiler.base.AbstractProfiler",
        "profilers.profiler.Profiler",
        "todo:profiler_package",
        f"{PL}.profiler.base.AbstractProfiler",
        "1.9",
        f"from {PL}.profiler.base import AbstractProfiler\n\n\nclass Mine(AbstractProfiler): ...\n",
        guide_note="not Profiler's equal: a bare ABC, no __init__, profile() or describe(), which 2.x's Trainer calls",
    ),
    Row(
        "1.8-regular-01",
        "LightningCLI(seed_everything_default=None)",
        "LightningCLI(seed_everything_default=False)",
        "rewrite:removed_keywords",
        f"{PL}.cli.LightningCLI(seed_everything_default)",
        "kept",
        built(f"{PL}.utilities.cli", "LightningCLI", "Model, seed_everything_default=None"),
        shows="LightningCLI(Model, seed_everything_default=False)",
        guide_note="the keyword stays; only None stopped meaning 'no seed'",
    ),
    Row(
        "1.8-regular-02",
        "Trainer.reset_train_val_dataloaders()",
        "trainer.fit_loop.setup_data()",
        "todo:removed_attributes",
        f"{T}.reset_train_val_dataloaders",
        "1.9",
        on_trainer("trainer.reset_train_val_dataloaders(model)"),
    ),
    Row(
        "1.8-regular-03",
        "pytorch_lightning.core.lightning",
        "pytorch_lightning.core.module",
        "rewrite:moved_modules",
        f"{PL}.core.lightning.LightningModule",
        "1.9",
        imported(f"{PL}.core.lightning", "LightningModule"),
        shows="core.module import",
    ),
)
