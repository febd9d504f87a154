"""Upgrade-guide rows of Lightning 1.8 and of 1.9's regular and advanced users (see
:mod:`legacy_api.upgrade_guide_model`)."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, built, hook, imported, in_module, on_trainer, trainer

PL = "pytorch_lightning"
LM, CB, T = f"{PL}.LightningModule", f"{PL}.Callback", f"{PL}.Trainer"
SILENT_ARG = "silent:todo on the override: the target no longer passes that argument"
HOOKS, DEVICES = "todo:removed_hooks", "rewrite:device_flags"
FABRIC_LOOP = "implement the loop yourself (Fabric); custom loops are no longer pluggable"
MANUAL = "manual optimization (self.automatic_optimization = False)"
PACKAGE = "out-of-scope:a Python/PyTorch version requirement, outside the code"


def _flag(n: int, audience: str, flag: str, value: str, replacement: str, outcome: str, note: str = "",
          gone: str = "2.0") -> Row:
    return Row(f"1.9-{audience}-{n:02d}", f"Trainer({flag}=)", replacement, outcome, f"{T}({flag})", gone,
               trainer(f"{flag}={value}"), guide_note=note)


def _hook_arg(n: int, base: str, signature: str, probe: str, outcome: str = HOOKS, gone: str = "2.0") -> Row:
    name = signature.partition("(")[0]
    return Row(f"1.9-advanced-{n:02d}", f"{base.rpartition('.')[2]}.{name}(..., {probe.partition('(')[2][:-1]})",
               MANUAL, outcome, probe, gone, hook(base.rpartition(".")[2], signature, base.rpartition(".")[0]))


ROWS = (
    Row("1.8-advanced-01", "pytorch_lightning.callbacks.base", "pytorch_lightning.callbacks.callback",
        "rewrite:moved_modules", f"{PL}.callbacks.base.Callback", "1.9", imported(f"{PL}.callbacks.base", "Callback"),
        shows="callbacks.callback import"),
    Row("1.8-advanced-02", "pytorch_lightning.loops.base", "pytorch_lightning.loops.loop (private _Loop in 2.0)",
        "todo:removed_names", f"{PL}.loops.base.Loop", "1.9", imported(f"{PL}.loops.base", "Loop")),
    Row("1.8-advanced-03", "pytorch_lightning.utilities.cli", "pytorch_lightning.cli", "rewrite:moved_modules",
        f"{PL}.utilities.cli.LightningCLI", "1.9", imported(f"{PL}.utilities.cli", "LightningCLI"), shows="cli import"),
    Row("1.8-advanced-04", "pytorch_lightning.profiler.*", "pytorch_lightning.profilers", "todo:removed_names",
        f"{PL}.profiler.SimpleProfiler", "2.0", imported(f"{PL}.profiler", "SimpleProfiler"), shows="profilers import"),
    Row("1.8-advanced-05", "accelerators.GPUAccelerator", "accelerators.CUDAAccelerator", "rewrite:gpu_accelerator",
        f"{PL}.accelerators.GPUAccelerator", "1.9", imported(f"{PL}.accelerators", "GPUAccelerator"),
        shows="CUDAAccelerator"),
    Row("1.8-advanced-06", "LightningDeepSpeedModule", "strategy=\"deepspeed\" / DeepSpeedStrategy",
        "report:strategy_plugins", f"{PL}.strategies.deepspeed.LightningDeepSpeedModule", "1.9",
        imported(f"{PL}.plugins.training_type.deepspeed", "LightningDeepSpeedModule")),
    Row("1.8-advanced-07", "with init_meta_context()", "DeepSpeed ZeRO stage 3 (or Fabric's empty_init)",
        "silent:todo naming the removal", f"{PL}.utilities.meta.init_meta_context", "1.9",
        f"from {PL}.utilities.meta import init_meta_context\n\nwith init_meta_context():\n    model = make()\n"),
    Row("1.8-advanced-08", "Hydra multi-run launched by Lightning's DDP", "launch the runs yourself",
        "out-of-scope:a behaviour of the DDP launcher under Hydra, nothing the code names"),
    Row("1.8-advanced-09", "utilities.memory.get_gpu_memory_map", "accelerators.cuda.get_nvidia_gpu_stats",
        "todo:removed_names", f"{PL}.utilities.memory.get_gpu_memory_map", "1.9",
        imported(f"{PL}.utilities.memory", "get_gpu_memory_map")),
    Row("1.8-devel-01", "subclassing loggers.base.LightningLoggerBase", "loggers.logger.Logger", "silent:rewrite to Logger",
        f"{PL}.loggers.base.LightningLoggerBase", "1.9", hook("LightningLoggerBase", "name(self)", f"{PL}.loggers.base"),
        shows="Logger"),
    Row("1.8-devel-02", "subclassing profiler.base.BaseProfiler", "profilers.profiler.Profiler", "silent:rewrite to Profiler",
        f"{PL}.profiler.base.BaseProfiler", "1.9", hook("BaseProfiler", "start(self, action_name)", f"{PL}.profiler.base")),
    Row("1.8-devel-03", "subclassing profiler.base.AbstractProfiler", "profilers.profiler.Profiler",
        "silent:rewrite to Profiler", f"{PL}.profiler.base.AbstractProfiler", "1.9",
        hook("AbstractProfiler", "start(self, action_name)", f"{PL}.profiler.base")),
    Row("1.8-regular-01", "LightningCLI(seed_everything_default=None)", "LightningCLI(seed_everything_default=False)",
        "silent:rewrite to False", f"{PL}.cli.LightningCLI(seed_everything_default)", "kept",
        built(f"{PL}.utilities.cli", "LightningCLI", "Model, seed_everything_default=None"),
        guide_note="the keyword stays; only None stopped meaning 'no seed'"),
    Row("1.8-regular-02", "Trainer.reset_train_val_dataloaders()", "trainer.fit_loop.setup_data()",
        "silent:todo naming fit_loop.setup_data", f"{T}.reset_train_val_dataloaders", "1.9",
        on_trainer("trainer.reset_train_val_dataloaders(model)")),
    Row("1.8-regular-03", "pytorch_lightning.core.lightning", "pytorch_lightning.core.module", "rewrite:moved_modules",
        f"{PL}.core.lightning.LightningModule", "1.9", imported(f"{PL}.core.lightning", "LightningModule"),
        shows="core.module import"),
    Row("1.9-advanced-01", "pytorch_lightning.lite (LightningLite)", "lightning_fabric (Fabric)",
        "report:lite_fabric", f"{PL}.lite.LightningLite", "2.0", imported(f"{PL}.lite", "LightningLite")),
    Row("1.9-advanced-02", "Trainer(strategy=\"dp\")", "strategy=\"ddp\" (or DeepSpeed)", "todo:strategy_names",
        "", "", trainer('gpus=2, strategy="dp"')),
    *(
        Row(f"1.9-advanced-{n:02d}", f"LightningModule.{stage}_epoch_end(outputs)",
            f"on_{stage}_epoch_end(self), outputs collected in the module", HOOKS,
            f"{LM}.{stage}_epoch_end", "2.0", hook("LightningModule", f"{stage}_epoch_end(self, outputs)"))
        for n, stage in ((3, "training"), (4, "validation"), (5, "test"))
    ),
    _flag(6, "advanced", "multiple_trainloader_mode", '"min_size"', "CombinedLoader(loaders, mode=...)",
          "todo:removed_arguments"),
    _flag(7, "advanced", "move_metrics_to_cpu", "True", "offload in the metric itself (torchmetrics)",
          "todo:removed_arguments"),
    _flag(8, "advanced", "track_grad_norm", "2", "log utilities.grad_norm(...) in on_before_optimizer_step",
          "todo:removed_arguments"),
    _flag(9, "advanced", "replace_sampler_ddp", "False", "Trainer(use_distributed_sampler=)",
          "rewrite:replace_sampler_ddp"),
    _hook_arg(10, f"{PL}.LightningModule", "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, "
              "optimizer_closure, on_tpu, using_native_amp, using_lbfgs)", f"{LM}.optimizer_step(on_tpu)"),
    Row("1.9-advanced-11", "optimizer_step(..., using_lbfgs)", "manual optimization", "todo:removed_hooks",
        f"{LM}.optimizer_step(using_lbfgs)", "2.0",
        hook("LightningModule", "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx=0, "
             "optimizer_closure=None, on_tpu=False, using_native_amp=False, using_lbfgs=False)"),
        guide_note="rows 10 and 11 are the same signature change (with using_native_amp, which has no row)"),
    Row("1.9-advanced-12", "NVIDIA apex (Trainer(amp_backend=\"apex\"))", "precision=\"16-mixed\" (torch.amp)",
        "todo:amp_flags", f"{T}(amp_backend)", "2.0", trainer('gpus=1, precision=16, amp_backend="apex"')),
    _flag(13, "advanced", "using_native_amp", "True", "precision=\"16-mixed\"",
          "out-of-scope:the guide names a Trainer flag that never existed (using_native_amp was a property)",
          note="no recorded Trainer takes using_native_amp="),
    _flag(14, "advanced", "amp_backend", '"native"', "precision=\"16-mixed\"", "rewrite:amp_flags"),
    _flag(15, "advanced", "amp_level", '"O2"', "precision=\"16-mixed\"", "rewrite:amp_flags"),
    *(
        Row(f"1.9-advanced-{n:02d}", f"Trainer.{attr}", "trainer.precision", "todo:trainer_properties",
            probe, gone, on_trainer(f"value = trainer.{attr}"))
        # using_native_amp and amp_level were properties of a Trainer mixin the recordings do not list.
        for n, attr, probe, gone in ((16, "using_native_amp", "", ""), (17, "amp_backend", f"{T}.amp_backend", "2.0"),
                                     (18, "amp_level", "", ""))
    ),
    Row("1.9-advanced-19", "the FairScale integration (strategy=\"ddp_sharded\")", "strategy=\"fsdp\" (torch's FSDP)",
        "todo:strategy_names", "", "", trainer('gpus=2, strategy="ddp_sharded"')),
    Row("1.9-advanced-20", "overrides.fairscale.LightningShardedDataParallel", "torch's FSDP",
        "todo:removed_names", f"{PL}.overrides.fairscale.LightningShardedDataParallel", "2.0",
        imported(f"{PL}.overrides.fairscale", "LightningShardedDataParallel")),
    Row("1.9-advanced-21", "FullyShardedNativeMixedPrecisionPlugin", "FSDPMixedPrecisionPlugin / strategy=\"fsdp\"",
        "report:precision_plugins", f"{PL}.plugins.FullyShardedNativeMixedPrecisionPlugin", "2.0",
        imported(f"{PL}.plugins", "FullyShardedNativeMixedPrecisionPlugin")),
    Row("1.9-advanced-22", "ShardedNativeMixedPrecisionPlugin", "precision=\"16-mixed\" with strategy=\"fsdp\"",
        "report:precision_plugins", f"{PL}.plugins.ShardedNativeMixedPrecisionPlugin", "2.0",
        imported(f"{PL}.plugins", "ShardedNativeMixedPrecisionPlugin")),
    Row("1.9-advanced-23", "DDPFullyShardedPlugin / DDPFullyShardedStrategy", "FSDPStrategy", "report:strategy_removals",
        f"{PL}.plugins.DDPFullyShardedPlugin", "1.8", imported(f"{PL}.plugins", "DDPFullyShardedPlugin")),
    Row("1.9-advanced-24", "DDPShardedPlugin / DDPShardedStrategy", "FSDPStrategy", "report:strategy_removals",
        f"{PL}.plugins.DDPShardedPlugin", "1.8", imported(f"{PL}.plugins", "DDPShardedPlugin")),
    Row("1.9-advanced-25", "DDPSpawnShardedPlugin / DDPSpawnShardedStrategy", "FSDPStrategy",
        "report:strategy_removals", f"{PL}.plugins.DDPSpawnShardedPlugin", "1.8",
        imported(f"{PL}.plugins", "DDPSpawnShardedPlugin")),
    Row("1.9-advanced-26", "LightningCLI(save_config_overwrite=)", "LightningCLI(save_config_kwargs={\"overwrite\": ...})",
        "todo:removed_keywords", f"{PL}.utilities.cli.LightningCLI(save_config_overwrite)", "1.7",
        built(f"{PL}.utilities.cli", "LightningCLI", "Model, save_config_overwrite=True")),
    Row("1.9-advanced-27", "LightningCLI(save_config_multifile=)", "LightningCLI(save_config_kwargs={\"multifile\": ...})",
        "todo:removed_keywords", f"{PL}.utilities.cli.LightningCLI(save_config_multifile)", "1.7",
        built(f"{PL}.utilities.cli", "LightningCLI", "Model, save_config_multifile=True")),
    *(
        Row(f"1.9-advanced-{n:02d}", f"Loop.{method}()", FABRIC_LOOP, "silent:todo naming the removal",
            f"{PL}.loops.base.Loop.{method}", "1.9", on_trainer(f"trainer.fit_loop.{method}({args})"))
        for n, method, args in ((28, "replace", "epoch_loop=MyLoop"), (29, "run", ""), (30, "connect", "MyLoop()"))
    ),
    *(
        Row(f"1.9-advanced-{n:02d}", f"custom loops through trainer.{loop}", FABRIC_LOOP,
            f"out-of-scope:trainer.{loop} is still there in 2.6; only assigning your own loop class stopped working",
            f"{T}.{loop}", "kept", guide_note=f"says to stop using trainer.{loop}; the attribute stays")
        for n, loop in ((31, "fit_loop"), (32, "validate_loop"), (33, "test_loop"), (34, "predict_loop"))
    ),
    Row("1.9-advanced-35", "the loop and data-fetcher classes", "nothing public (now protected)",
        "todo:removed_names", f"{PL}.utilities.fetching.DataFetcher", "2.0",
        imported(f"{PL}.utilities.fetching", "DataFetcher"), guide_note="garbled: 'being marked as protected -'"),
    _hook_arg(36, f"{PL}.callbacks.BaseFinetuning", "finetune_function(self, pl_module, epoch, optimizer, opt_idx)",
              f"{PL}.callbacks.BaseFinetuning.finetune_function(opt_idx)", SILENT_ARG),
    _hook_arg(37, f"{PL}.Callback", "on_before_optimizer_step(self, trainer, pl_module, optimizer, opt_idx)",
              f"{CB}.on_before_optimizer_step(opt_idx)"),
    _hook_arg(38, f"{PL}.LightningModule", "training_step(self, batch, batch_idx, optimizer_idx)",
              f"{LM}.training_step(optimizer_idx)", gone="never"),
    _hook_arg(39, f"{PL}.LightningModule", "on_before_optimizer_step(self, optimizer, optimizer_idx)",
              f"{LM}.on_before_optimizer_step(optimizer_idx)"),
    _hook_arg(40, f"{PL}.LightningModule", "configure_gradient_clipping(self, optimizer, optimizer_idx, "
              "gradient_clip_val, gradient_clip_algorithm)", f"{LM}.configure_gradient_clipping(optimizer_idx)"),
    _hook_arg(41, f"{PL}.LightningModule", "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, "
              "optimizer_closure)", f"{LM}.optimizer_step(optimizer_idx)"),
    _hook_arg(42, f"{PL}.LightningModule", "optimizer_zero_grad(self, epoch, batch_idx, optimizer, optimizer_idx)",
              f"{LM}.optimizer_zero_grad(optimizer_idx)"),
    _hook_arg(43, f"{PL}.LightningModule", "lr_scheduler_step(self, scheduler, optimizer_idx, metric)",
              f"{LM}.lr_scheduler_step(optimizer_idx)"),
    Row("1.9-advanced-44", "\"frequency\" in configure_optimizers' dicts", MANUAL, "silent:todo naming manual optimization",
        "", "", in_module("return [{'optimizer': opt_a, 'frequency': 5}, {'optimizer': opt_b, 'frequency': 1}]")
        .replace("training_step(self, batch, batch_idx)", "configure_optimizers(self)")),
    _hook_arg(45, f"{PL}.LightningModule", "backward(self, loss, optimizer, optimizer_idx)",
              f"{LM}.backward(optimizer)", SILENT_ARG),
    _hook_arg(46, f"{PL}.LightningModule", "backward(self, loss, optimizer, optimizer_idx, *args, **kwargs)",
              f"{LM}.backward(optimizer_idx)", SILENT_ARG),
    _hook_arg(47, f"{PL}.plugins.PrecisionPlugin", "optimizer_step(self, model, optimizer, optimizer_idx, closure, "
              "**kwargs)", f"{PL}.plugins.PrecisionPlugin.optimizer_step(optimizer_idx)", SILENT_ARG),
    _hook_arg(48, f"{PL}.plugins.PrecisionPlugin", "backward(self, model, closure_loss, optimizer, optimizer_idx, "
              "*args, **kwargs)", f"{PL}.plugins.PrecisionPlugin.backward(optimizer_idx)", SILENT_ARG),
    _hook_arg(49, f"{PL}.plugins.PrecisionPlugin", "optimizer_step(self, model, optimizer, optimizer_idx, closure, "
              "**kwargs)", f"{PL}.plugins.PrecisionPlugin.optimizer_step(optimizer_idx)", SILENT_ARG),
    _hook_arg(50, f"{PL}.plugins.DDPPlugin", "backward(self, closure_loss, optimizer, optimizer_idx, *args, **kwargs)",
              f"{PL}.plugins.DDPPlugin.backward(optimizer_idx)", SILENT_ARG, "1.8"),
    _hook_arg(51, f"{PL}.plugins.DDPPlugin", "optimizer_step(self, optimizer, opt_idx, closure, model=None, "
              "**kwargs)", f"{PL}.plugins.DDPPlugin.optimizer_step(opt_idx)", SILENT_ARG, "1.8"),
    Row("1.9-advanced-52", "Trainer.optimizer_frequencies", MANUAL, "silent:todo naming the removal",
        f"{T}.optimizer_frequencies", "2.0", on_trainer("freqs = trainer.optimizer_frequencies")),
    Row("1.9-advanced-53", "PL_INTER_BATCH_PARALLELISM=1", "nothing (removed)",
        "out-of-scope:an environment variable, set outside Python"),
    Row("1.9-advanced-54", "strategy=\"horovod\" / HorovodPlugin", "the lightning-horovod package, or DDP",
        "todo:strategy_names", f"{PL}.plugins.HorovodPlugin", "1.8", trainer('gpus=2, accelerator="horovod"')),
    Row("1.9-advanced-55", "strategy=\"colossalai\"", "the lightning-colossalai package",
        "out-of-scope:ColossalAI came in 1.8: no 1.5 code uses it"),
    Row("1.9-advanced-56", "callbacks.QuantizationAwareTraining", "torch.ao.quantization directly",
        "todo:removed_names", f"{PL}.callbacks.QuantizationAwareTraining", "2.0",
        imported(f"{PL}.callbacks", "QuantizationAwareTraining")),
    *(
        Row(f"1.9-advanced-{n:02d}", f"LightningModule.{stage}_step_end", f"on_{batch}_batch_end",
            HOOKS, f"{LM}.{stage}_step_end", "2.0", hook("LightningModule", f"{stage}_step_end(self, out)"))
        for n, stage, batch in ((57, "training", "train"), (58, "validation", "validation"), (59, "test", "test"))
    ),
    Row("1.9-advanced-60", "DDPSpawnPlugin / DDPSpawnStrategy", "DDPStrategy(start_method=\"spawn\")",
        "rewrite:strategy_plugins", f"{PL}.strategies.DDPSpawnStrategy", "2.0",
        built(f"{PL}.plugins", "DDPSpawnPlugin"), shows='start_method="spawn"'),
    Row("1.9-advanced-61", "the running mean of the loss in the progress bar", "self.log(\"loss\", loss, prog_bar=True)",
        "out-of-scope:a behaviour change, nothing in the code names it"),
    Row("1.9-advanced-62", "on_predict_epoch_end(self, outputs)", "trainer.predict_loop.predictions",
        "todo:removed_hooks", f"{LM}.on_predict_epoch_end(outputs)", "never",
        hook("LightningModule", "on_predict_epoch_end(self, outputs)")),
    Row("1.9-advanced-63", "self.log(name, dict)", "self.log_dict(...) or one self.log per value",
        "silent:todo naming log_dict", "", "", in_module("self.log('metrics', {'acc': acc, 'f1': f1})")),
    Row("1.9-regular-01", "Python 3.7", "Python 3.8 or newer", PACKAGE),
    Row("1.9-regular-02", "PyTorch 1.10", "PyTorch 1.11 or newer", PACKAGE),
    _flag(3, "regular", "gpus", "2", "accelerator=\"gpu\", devices=2", DEVICES),
    _flag(4, "regular", "tpu_cores", "8", "accelerator=\"tpu\", devices=8", DEVICES),
    _flag(5, "regular", "ipus", "4", "accelerator=\"ipu\", devices=4", "todo:ipu_accelerator"),
    _flag(6, "regular", "num_processes", "2", "accelerator=\"cpu\", devices=2", DEVICES),
    _flag(7, "regular", "resume_from_checkpoint", '"last.ckpt"', "trainer.fit(model, ckpt_path=...)",
          "todo:removed_arguments"),
    _flag(8, "regular", "auto_select_gpus", "True", "devices=\"auto\" (or pick GPUs yourself)", "rewrite:auto_select_gpus"),
    Row("1.9-regular-09", "tuner.auto_gpu_select.pick_single_gpu", "devices=\"auto\"", "todo:removed_names",
        f"{PL}.tuner.auto_gpu_select.pick_single_gpu", "2.0", imported(f"{PL}.tuner.auto_gpu_select", "pick_single_gpu")),
    Row("1.9-regular-10", "tuner.auto_gpu_select.pick_multiple_gpus", "devices=\"auto\"", "todo:removed_names",
        f"{PL}.tuner.auto_gpu_select.pick_multiple_gpus", "2.0",
        imported(f"{PL}.tuner.auto_gpu_select", "pick_multiple_gpus")),
    _flag(11, "regular", "accumulate_grad_batches", "{0: 8, 4: 4}", "callbacks=[GradientAccumulationScheduler(...)]",
          "silent:rewrite to the callback"),
    Row("1.9-regular-12", "pytorch_lightning.profiler", "pytorch_lightning.profilers", "todo:removed_names",
        f"{PL}.profiler.PyTorchProfiler", "2.0", imported(f"{PL}.profiler", "PyTorchProfiler"), shows="profilers import"),
    Row("1.9-regular-13", "trainer.tune() / trainer.tuner", "tuner.Tuner(trainer) or the finder callbacks",
        "silent:todo naming Tuner", f"{T}.tune", "2.0", on_trainer("trainer.tune(model)")),
    _flag(14, "regular", "auto_scale_batch_size", "True", "Tuner(trainer).scale_batch_size(model) / BatchSizeFinder",
          "todo:removed_arguments"),
    _flag(15, "regular", "auto_lr_find", "True", "Tuner(trainer).lr_find(model) / LearningRateFinder",
          "todo:removed_arguments"),
)
