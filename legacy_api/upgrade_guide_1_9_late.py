"""Upgrade-guide rows of Lightning 1.9 for regular and advanced users, from row 44 on (see
:mod:`legacy_api.upgrade_guide_model`)."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, built, hook, imported, in_module, on_trainer, trainer

PL = "pytorch_lightning"
LM, CB, T = f"{PL}.LightningModule", f"{PL}.Callback", f"{PL}.Trainer"
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
        "1.9-advanced-44",
        '"frequency" in configure_optimizers\' dicts',
        MANUAL,
        "todo:optimizer_frequency",
        "",
        "",
        in_module("return [{'optimizer': opt_a, 'frequency': 5}, {'optimizer': opt_b, 'frequency': 1}]").replace(
            "training_step(self, batch, batch_idx)", "configure_optimizers(self)"
        ),
    ),
    _hook_arg(
        45,
        f"{PL}.LightningModule",
        "backward(self, loss, optimizer, optimizer_idx)",
        f"{LM}.backward(optimizer)",
        "todo:removed_hooks",
    ),
    _hook_arg(
        46,
        f"{PL}.LightningModule",
        "backward(self, loss, optimizer, optimizer_idx, *args, **kwargs)",
        f"{LM}.backward(optimizer_idx)",
        "todo:removed_hooks",
    ),
    _hook_arg(
        47,
        f"{PL}.plugins.PrecisionPlugin",
        "optimizer_step(self, model, optimizer, optimizer_idx, closure, **kwargs)",
        f"{PL}.plugins.PrecisionPlugin.optimizer_step(optimizer_idx)",
        HOOKS,
    ),
    _hook_arg(
        48,
        f"{PL}.plugins.PrecisionPlugin",
        "backward(self, model, closure_loss, optimizer, optimizer_idx, *args, **kwargs)",
        f"{PL}.plugins.PrecisionPlugin.backward(optimizer_idx)",
        HOOKS,
    ),
    _hook_arg(
        49,
        f"{PL}.plugins.PrecisionPlugin",
        "optimizer_step(self, model, optimizer, optimizer_idx, closure, **kwargs)",
        f"{PL}.plugins.PrecisionPlugin.optimizer_step(optimizer_idx)",
        HOOKS,
    ),
    _hook_arg(
        50,
        f"{PL}.plugins.DDPPlugin",
        "backward(self, closure_loss, optimizer, optimizer_idx, *args, **kwargs)",
        f"{PL}.plugins.DDPPlugin.backward(optimizer_idx)",
        HOOKS,
        "1.8",
    ),
    _hook_arg(
        51,
        f"{PL}.plugins.DDPPlugin",
        "optimizer_step(self, optimizer, opt_idx, closure, model=None, **kwargs)",
        f"{PL}.plugins.DDPPlugin.optimizer_step(opt_idx)",
        HOOKS,
        "1.8",
    ),
    Row(
        "1.9-advanced-52",
        "Trainer.optimizer_frequencies",
        MANUAL,
        "todo:removed_attributes",
        f"{T}.optimizer_frequencies",
        "2.0",
        on_trainer("freqs = trainer.optimizer_frequencies"),
    ),
    Row(
        "1.9-advanced-53",
        "PL_INTER_BATCH_PARALLELISM=1",
        "nothing (removed)",
        "out-of-scope:an environment variable, set outside Python",
    ),
    Row(
        "1.9-advanced-54",
        'strategy="horovod" / HorovodPlugin',
        "the lightning-horovod package, or DDP",
        "todo:strategy_names",
        f"{PL}.plugins.HorovodPlugin",
        "1.8",
        trainer('gpus=2, accelerator="horovod"'),
    ),
    Row(
        "1.9-advanced-55",
        'strategy="colossalai"',
        "the lightning-colossalai package",
        "out-of-scope:ColossalAI came in 1.8: no 1.5 code uses it",
    ),
    Row(
        "1.9-advanced-56",
        "callbacks.QuantizationAwareTraining",
        "torch.ao.quantization directly",
        "todo:removed_names",
        f"{PL}.callbacks.QuantizationAwareTraining",
        "2.0",
        imported(f"{PL}.callbacks", "QuantizationAwareTraining"),
    ),
    *(
        Row(
            f"1.9-advanced-{n:02d}",
            f"LightningModule.{stage}_step_end",
            f"on_{batch}_batch_end",
            HOOKS,
            f"{LM}.{stage}_step_end",
            "2.0",
            hook("LightningModule", f"{stage}_step_end(self, out)"),
        )
        for n, stage, batch in ((57, "training", "train"), (58, "validation", "validation"), (59, "test", "test"))
    ),
    Row(
        "1.9-advanced-60",
        "DDPSpawnPlugin / DDPSpawnStrategy",
        'DDPStrategy(start_method="spawn")',
        "rewrite:strategy_plugins",
        f"{PL}.strategies.DDPSpawnStrategy",
        "2.0",
        built(f"{PL}.plugins", "DDPSpawnPlugin"),
        shows='start_method="spawn"',
    ),
    Row(
        "1.9-advanced-61",
        "the running mean of the loss in the progress bar",
        'self.log("loss", loss, prog_bar=True)',
        "out-of-scope:a behaviour change, nothing in the code names it",
    ),
    Row(
        "1.9-advanced-62",
        "on_predict_epoch_end(self, outputs)",
        "trainer.predict_loop.predictions",
        "todo:removed_hooks",
        f"{LM}.on_predict_epoch_end(outputs)",
        "never",
        hook("LightningModule", "on_predict_epoch_end(self, outputs)"),
    ),
    Row(
        "1.9-advanced-63",
        "self.log(name, dict)",
        "self.log_dict(...) or one self.log per value",
        "todo:removed_keywords",
        "",
        "",
        in_module("self.log('metrics', {'acc': acc, 'f1': f1})"),
    ),
    Row("1.9-regular-01", "Python 3.7", "Python 3.8 or newer", PACKAGE),
    Row("1.9-regular-02", "PyTorch 1.10", "PyTorch 1.11 or newer", PACKAGE),
    _flag(3, "regular", "gpus", "2", 'accelerator="gpu", devices=2', DEVICES),
    _flag(4, "regular", "tpu_cores", "8", 'accelerator="tpu", devices=8', DEVICES),
    _flag(5, "regular", "ipus", "4", 'accelerator="ipu", devices=4', "todo:ipu_accelerator"),
    _flag(6, "regular", "num_processes", "2", 'accelerator="cpu", devices=2', DEVICES),
    _flag(
        7,
        "regular",
        "resume_from_checkpoint",
        '"last.ckpt"',
        "trainer.fit(model, ckpt_path=...)",
        "todo:removed_arguments",
    ),
    _flag(
        8, "regular", "auto_select_gpus", "True", 'devices="auto" (or pick GPUs yourself)', "rewrite:auto_select_gpus"
    ),
    Row(
        "1.9-regular-09",
        "tuner.auto_gpu_select.pick_single_gpu",
        'devices="auto"',
        "todo:removed_names",
        f"{PL}.tuner.auto_gpu_select.pick_single_gpu",
        "2.0",
        imported(f"{PL}.tuner.auto_gpu_select", "pick_single_gpu"),
    ),
    Row(
        "1.9-regular-10",
        "tuner.auto_gpu_select.pick_multiple_gpus",
        'devices="auto"',
        "todo:removed_names",
        f"{PL}.tuner.auto_gpu_select.pick_multiple_gpus",
        "2.0",
        imported(f"{PL}.tuner.auto_gpu_select", "pick_multiple_gpus"),
    ),
    _flag(
        11,
        "regular",
        "accumulate_grad_batches",
        "{0: 8, 4: 4}",
        "callbacks=[GradientAccumulationScheduler(...)]",
        "todo:trainer_flag_values",
        note="the flag stays; only a dict value stopped working",
        gone="kept",
    ),
    Row(
        "1.9-regular-12",
        "pytorch_lightning.profiler",
        "pytorch_lightning.profilers",
        "rewrite:profiler_package",
        f"{PL}.profiler.PyTorchProfiler",
        "2.0",
        imported(f"{PL}.profiler", "PyTorchProfiler"),
        shows="from pytorch_lightning.profilers import PyTorchProfiler",
    ),
    Row(
        "1.9-regular-13",
        "trainer.tune() / trainer.tuner",
        "tuner.Tuner(trainer) or the finder callbacks",
        "todo:removed_attributes",
        f"{T}.tune",
        "2.0",
        on_trainer("trainer.tune(model)"),
    ),
    _flag(
        14,
        "regular",
        "auto_scale_batch_size",
        "True",
        "Tuner(trainer).scale_batch_size(model) / BatchSizeFinder",
        "todo:removed_arguments",
    ),
    _flag(
        15,
        "regular",
        "auto_lr_find",
        "True",
        "Tuner(trainer).lr_find(model) / LearningRateFinder",
        "todo:removed_arguments",
    ),
)
