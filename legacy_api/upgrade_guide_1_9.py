"""Upgrade-guide rows of Lightning 1.9's regular and advanced users (see :mod:`legacy_api.upgrade_guide_model`)."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, built, hook, imported, on_trainer, trainer

PL = "pytorch_lightning"
LM, CB, T = f"{PL}.LightningModule", f"{PL}.Callback", f"{PL}.Trainer"
HOOKS, DEVICES = "todo:removed_hooks", "rewrite:device_flags"
#: The 1.x optimizer_step signature whose body never reads what 2.x dropped: rewritten to the one 2.x calls.
STEP = "rewrite:optimizer_step_hook"
STEP_SHOWS = "def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure"
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


def _hook_arg(
    n: int, base: str, signature: str, probe: str, outcome: str = HOOKS, gone: str = "2.0", shows: str = ""
) -> Row:
    name = signature.partition("(")[0]
    return Row(
        f"1.9-advanced-{n:02d}",
        f"{base.rpartition('.')[2]}.{name}(..., {probe.partition('(')[2][:-1]})",
        MANUAL,
        outcome,
        probe,
        gone,
        hook(base.rpartition(".")[2], signature, base.rpartition(".")[0]),
        shows=shows,
    )


ROWS = (
    Row(
        "1.9-advanced-01",
        "pytorch_lightning.lite (LightningLite)",
        "lightning_fabric (Fabric)",
        "report:lite_fabric",
        f"{PL}.lite.LightningLite",
        "2.0",
        imported(f"{PL}.lite", "LightningLite"),
    ),
    Row(
        "1.9-advanced-02",
        'Trainer(strategy="dp")',
        'strategy="ddp" (or DeepSpeed)',
        "todo:strategy_names",
        "",
        "",
        trainer('gpus=2, strategy="dp"'),
    ),
    *(
        Row(
            f"1.9-advanced-{n:02d}",
            f"LightningModule.{stage}_epoch_end(outputs)",
            f"on_{stage}_epoch_end(self), outputs collected in the module",
            "rewrite:epoch_end_hooks",
            f"{LM}.{stage}_epoch_end",
            "2.0",
            hook("LightningModule", f"{stage}_epoch_end(self, outputs)"),
            shows=f"def on_{'train' if stage == 'training' else stage}_epoch_end(self)",
        )
        for n, stage in ((3, "training"), (4, "validation"), (5, "test"))
    ),
    _flag(
        6,
        "advanced",
        "multiple_trainloader_mode",
        '"min_size"',
        "CombinedLoader(loaders, mode=...)",
        "todo:removed_arguments",
    ),
    _flag(
        7,
        "advanced",
        "move_metrics_to_cpu",
        "True",
        "offload in the metric itself (torchmetrics)",
        "todo:removed_arguments",
    ),
    _flag(
        8,
        "advanced",
        "track_grad_norm",
        "2",
        "log utilities.grad_norm(...) in on_before_optimizer_step",
        "todo:removed_arguments",
    ),
    _flag(
        9,
        "advanced",
        "replace_sampler_ddp",
        "False",
        "Trainer(use_distributed_sampler=)",
        "rewrite:replace_sampler_ddp",
    ),
    _hook_arg(
        10,
        f"{PL}.LightningModule",
        "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, "
        "optimizer_closure, on_tpu, using_native_amp, using_lbfgs)",
        f"{LM}.optimizer_step(on_tpu)",
        STEP,
        shows=STEP_SHOWS,
    ),
    Row(
        "1.9-advanced-11",
        "optimizer_step(..., using_lbfgs)",
        "manual optimization",
        STEP,
        f"{LM}.optimizer_step(using_lbfgs)",
        "2.0",
        hook(
            "LightningModule",
            "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx=0, "
            "optimizer_closure=None, on_tpu=False, using_native_amp=False, using_lbfgs=False)",
        ),
        shows=STEP_SHOWS,
        guide_note="rows 10 and 11 are the same signature change (with using_native_amp, which has no row)",
    ),
    Row(
        "1.9-advanced-12",
        'NVIDIA apex (Trainer(amp_backend="apex"))',
        'precision="16-mixed" (torch.amp)',
        "todo:amp_flags",
        f"{T}(amp_backend)",
        "2.0",
        trainer('gpus=1, precision=16, amp_backend="apex"'),
    ),
    _flag(
        13,
        "advanced",
        "using_native_amp",
        "True",
        'precision="16-mixed"',
        "out-of-scope:the guide names a Trainer flag that never existed (using_native_amp was a property)",
        note="no recorded Trainer takes using_native_amp=",
        gone="never",
    ),
    _flag(14, "advanced", "amp_backend", '"native"', 'precision="16-mixed"', "rewrite:amp_flags"),
    _flag(15, "advanced", "amp_level", '"O2"', 'precision="16-mixed"', "rewrite:amp_flags"),
    *(
        Row(
            f"1.9-advanced-{n:02d}",
            f"Trainer.{attr}",
            "trainer.precision",
            "todo:trainer_properties",
            probe,
            gone,
            on_trainer(f"value = trainer.{attr}"),
        )
        # using_native_amp and amp_level were properties of a Trainer mixin the recordings do not list.
        for n, attr, probe, gone in (
            (16, "using_native_amp", "", ""),
            (17, "amp_backend", f"{T}.amp_backend", "2.0"),
            (18, "amp_level", "", ""),
        )
    ),
    Row(
        "1.9-advanced-19",
        'the FairScale integration (strategy="ddp_sharded")',
        'strategy="fsdp" (torch\'s FSDP)',
        "todo:strategy_names",
        "",
        "",
        trainer('gpus=2, strategy="ddp_sharded"'),
    ),
    Row(
        "1.9-advanced-20",
        "overrides.fairscale.LightningShardedDataParallel",
        "torch's FSDP",
        "todo:removed_names",
        f"{PL}.overrides.fairscale.LightningShardedDataParallel",
        "2.0",
        imported(f"{PL}.overrides.fairscale", "LightningShardedDataParallel"),
    ),
    Row(
        "1.9-advanced-21",
        "FullyShardedNativeMixedPrecisionPlugin",
        'FSDPMixedPrecisionPlugin / strategy="fsdp"',
        "report:precision_plugins",
        f"{PL}.plugins.FullyShardedNativeMixedPrecisionPlugin",
        "2.0",
        imported(f"{PL}.plugins", "FullyShardedNativeMixedPrecisionPlugin"),
    ),
    Row(
        "1.9-advanced-22",
        "ShardedNativeMixedPrecisionPlugin",
        'precision="16-mixed" with strategy="fsdp"',
        "report:precision_plugins",
        f"{PL}.plugins.ShardedNativeMixedPrecisionPlugin",
        "2.0",
        imported(f"{PL}.plugins", "ShardedNativeMixedPrecisionPlugin"),
    ),
    Row(
        "1.9-advanced-23",
        "DDPFullyShardedPlugin / DDPFullyShardedStrategy",
        "FSDPStrategy",
        "report:strategy_removals",
        f"{PL}.plugins.DDPFullyShardedPlugin",
        "1.8",
        imported(f"{PL}.plugins", "DDPFullyShardedPlugin"),
    ),
    Row(
        "1.9-advanced-24",
        "DDPShardedPlugin / DDPShardedStrategy",
        "FSDPStrategy",
        "report:strategy_removals",
        f"{PL}.plugins.DDPShardedPlugin",
        "1.8",
        imported(f"{PL}.plugins", "DDPShardedPlugin"),
    ),
    Row(
        "1.9-advanced-25",
        "DDPSpawnShardedPlugin / DDPSpawnShardedStrategy",
        "FSDPStrategy",
        "report:strategy_removals",
        f"{PL}.plugins.DDPSpawnShardedPlugin",
        "1.8",
        imported(f"{PL}.plugins", "DDPSpawnShardedPlugin"),
    ),
    Row(
        "1.9-advanced-26",
        "LightningCLI(save_config_overwrite=)",
        'LightningCLI(save_config_kwargs={"overwrite": ...})',
        "todo:removed_keywords",
        f"{PL}.utilities.cli.LightningCLI(save_config_overwrite)",
        "1.7",
        built(f"{PL}.utilities.cli", "LightningCLI", "Model, save_config_overwrite=True"),
    ),
    Row(
        "1.9-advanced-27",
        "LightningCLI(save_config_multifile=)",
        'LightningCLI(save_config_kwargs={"multifile": ...})',
        "todo:removed_keywords",
        f"{PL}.utilities.cli.LightningCLI(save_config_multifile)",
        "1.7",
        built(f"{PL}.utilities.cli", "LightningCLI", "Model, save_config_multifile=True"),
    ),
    *(
        Row(
            f"1.9-advanced-{n:02d}",
            f"Loop.{method}()",
            FABRIC_LOOP,
            "todo:removed_members",
            f"{PL}.loops.base.Loop.{method}",
            "1.9",
            on_trainer(f"trainer.fit_loop.{method}({args})"),
        )
        for n, method, args in ((28, "replace", "epoch_loop=MyLoop"), (29, "run", ""), (30, "connect", "MyLoop()"))
    ),
    *(
        Row(
            f"1.9-advanced-{n:02d}",
            f"custom loops through trainer.{loop}",
            FABRIC_LOOP,
            f"out-of-scope:trainer.{loop} is still there in 2.6; only assigning your own loop class stopped working",
            f"{T}.{loop}",
            "kept",
            guide_note=f"says to stop using trainer.{loop}; the attribute stays",
        )
        for n, loop in ((31, "fit_loop"), (32, "validate_loop"), (33, "test_loop"), (34, "predict_loop"))
    ),
    Row(
        "1.9-advanced-35",
        "the loop and data-fetcher classes",
        "nothing public (now protected)",
        "todo:removed_names",
        f"{PL}.utilities.fetching.DataFetcher",
        "2.0",
        imported(f"{PL}.utilities.fetching", "DataFetcher"),
        guide_note="garbled: 'being marked as protected -'",
    ),
    _hook_arg(
        36,
        f"{PL}.callbacks.BaseFinetuning",
        "finetune_function(self, pl_module, epoch, optimizer, opt_idx)",
        f"{PL}.callbacks.BaseFinetuning.finetune_function(opt_idx)",
        HOOKS,
    ),
    _hook_arg(
        37,
        f"{PL}.Callback",
        "on_before_optimizer_step(self, trainer, pl_module, optimizer, opt_idx)",
        f"{CB}.on_before_optimizer_step(opt_idx)",
    ),
    _hook_arg(
        38,
        f"{PL}.LightningModule",
        "training_step(self, batch, batch_idx, optimizer_idx)",
        f"{LM}.training_step(optimizer_idx)",
        gone="never",
    ),
    _hook_arg(
        39,
        f"{PL}.LightningModule",
        "on_before_optimizer_step(self, optimizer, optimizer_idx)",
        f"{LM}.on_before_optimizer_step(optimizer_idx)",
    ),
    _hook_arg(
        40,
        f"{PL}.LightningModule",
        "configure_gradient_clipping(self, optimizer, optimizer_idx, gradient_clip_val, gradient_clip_algorithm)",
        f"{LM}.configure_gradient_clipping(optimizer_idx)",
    ),
    _hook_arg(
        41,
        f"{PL}.LightningModule",
        "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure)",
        f"{LM}.optimizer_step(optimizer_idx)",
        STEP,
        shows=STEP_SHOWS,
    ),
    _hook_arg(
        42,
        f"{PL}.LightningModule",
        "optimizer_zero_grad(self, epoch, batch_idx, optimizer, optimizer_idx)",
        f"{LM}.optimizer_zero_grad(optimizer_idx)",
    ),
    _hook_arg(
        43,
        f"{PL}.LightningModule",
        "lr_scheduler_step(self, scheduler, optimizer_idx, metric)",
        f"{LM}.lr_scheduler_step(optimizer_idx)",
    ),
)
