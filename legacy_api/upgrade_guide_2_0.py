"""Upgrade-guide rows of Lightning 2.0, and the removals the recorded surfaces show that no guide row names
(audience ``unlisted``; see :mod:`legacy_api.upgrade_guide_model`)."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, hook, imported, on_trainer, trainer

PL = "pytorch_lightning"
LM, CB, T = f"{PL}.LightningModule", f"{PL}.Callback", f"{PL}.Trainer"
ITER = "dataloader_iter yields (batch, batch_idx, dataloader_idx); drop the batch_idx parameter"
PACKAGE = "out-of-scope:a package requirement, outside the code"
BATCH_END = "on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx)"

ROWS = (
    Row(
        "2.0-advanced-01",
        "torchdistx / Trainer's fake-tensor initialisation",
        "Fabric's init_module(empty_init=True)",
        "out-of-scope:an integration that came after 1.5: no 1.5 code uses it",
    ),
    *(
        Row(
            f"2.0-advanced-{n:02d}",
            f"{step}(self, dataloader_iter, batch_idx)",
            ITER,
            "todo:dataloader_iter_steps",
            "",
            "",
            hook("LightningModule", f"{step}(self, dataloader_iter, batch_idx)"),
        )
        for n, step in ((2, "training_step"), (3, "validation_step"), (4, "test_step"), (5, "predict_step"))
    ),
    Row(
        "2.0-advanced-06",
        "batch = next(dataloader_iter) in a *_step",
        "batch, batch_idx, dataloader_idx = next(...)",
        "todo:dataloader_iter_steps",
        "",
        "",
        "from pytorch_lightning import LightningModule\n\n\nclass Mine(LightningModule):\n"
        "    def training_step(self, dataloader_iter):\n        batch = next(dataloader_iter)\n",
    ),
    Row(
        "2.0-advanced-07",
        "relying on Kubeflow being detected",
        "Trainer(plugins=KubeflowEnvironment())",
        "out-of-scope:a behaviour change of cluster detection, nothing in the code names it",
    ),
    Row(
        "2.0-devel-01",
        "XLAStrategy.is_distributed",
        "nothing (it was always True)",
        "out-of-scope:XLAStrategy came in 1.9 (1.5 had TPUSpawnPlugin): no 1.5 code uses it",
    ),
    Row(
        "2.0-devel-02",
        "SingleTPUStrategy.is_distributed",
        "nothing (it was always False)",
        "todo:removed_members",
        f"{PL}.plugins.SingleTPUPlugin.is_distributed",
        "1.8",
        f"from {PL}.plugins import SingleTPUPlugin\n\nplugin = SingleTPUPlugin(0)\nflag = plugin.is_distributed\n",
    ),
    Row(
        "2.0-regular-01",
        "PyTorch 1.11",
        "PyTorch 2.1 or newer",
        PACKAGE,
        guide_note="2.0 itself needs PyTorch 1.11; 2.1 is the floor of later 2.x releases",
    ),
    Row(
        "2.0-regular-02",
        "self.trainer.model.parameters() in configure_optimizers under FSDP",
        "self.parameters()",
        "out-of-scope:not a removal at 2.6: FSDPStrategy still takes self.trainer.model.parameters() (its "
        "setup_optimizers asks for it where use_orig_params=False), and self.parameters() works since 2.x defaults "
        "use_orig_params to True",
    ),
    Row(
        "2.0-regular-03",
        'Trainer(accelerator="tpu", devices=[i]) with a 1-based core index',
        "the 0-based index",
        "rewrite:device_flags",
        f"{T}(tpu_cores)",
        "2.0",
        trainer("tpu_cores=[1]"),
        shows="devices=[1]",
        guide_note="1.5 spelled it tpu_cores=[i]; the index kept its number (1.5 and 2.6 both hand it to "
        "xm.xla_device), and torch_xla's newer runtime counts cores from 0: the rewrite should say so",
    ),
    Row("2.0-regular-04", "torch_xla < 1.13", "torch_xla >= 1.13", PACKAGE),
    *(
        Row(
            f"2.0-regular-{n:02d}",
            f"trainer.{attr} as one number",
            f"sum(trainer.{attr}) (a list per dataloader)",
            "todo:removed_members",
            "",
            "",
            on_trainer(f"total = trainer.{attr}"),
        )
        for n, attr in ((5, "num_val_batches"), (6, "num_test_batches"), (7, "num_sanity_val_batches"))
    ),
    Row(
        "2.0-regular-08",
        'Trainer(devices="auto") in a notebook to take every GPU',
        "devices=-1",
        'out-of-scope:devices="auto" came in 1.6: no 1.5 code uses it',
    ),
    Row(
        "2.0-regular-09",
        'Trainer(devices="auto") in a notebook to take every GPU',
        "devices=-1",
        'out-of-scope:devices="auto" came in 1.6: no 1.5 code uses it',
        guide_note="repeats row 8",
    ),
    Row("2.0-regular-10", "pip install lightning for lightning.app", "pip install lightning[app]", PACKAGE),
    # Removals the recorded surfaces show and no guide row names.
    Row(
        "2.0-unlisted-01",
        "Callback.on_epoch_end",
        "on_train_epoch_end / on_validation_epoch_end / on_test_epoch_end",
        "todo:removed_hooks",
        f"{CB}.on_epoch_end",
        "1.8",
        hook("Callback", "on_epoch_end(self, trainer, pl_module)"),
    ),
    Row(
        "2.0-unlisted-02",
        "LightningModule.on_epoch_end",
        "on_train_epoch_end / on_validation_epoch_end / ...",
        "todo:removed_hooks",
        f"{LM}.on_epoch_end",
        "1.8",
        hook("LightningModule", "on_epoch_end(self)"),
    ),
    Row(
        "2.0-unlisted-03",
        "LightningModule.on_epoch_start",
        "on_train_epoch_start / ...",
        "todo:removed_hooks",
        f"{LM}.on_epoch_start",
        "1.8",
        hook("LightningModule", "on_epoch_start(self)"),
    ),
    Row(
        "2.0-unlisted-04",
        "LightningModule.on_pretrain_routine_start / _end",
        "on_fit_start",
        "todo:removed_hooks",
        f"{LM}.on_pretrain_routine_start",
        "1.8",
        hook("LightningModule", "on_pretrain_routine_start(self)"),
    ),
    Row(
        "2.0-unlisted-05",
        "Callback.on_train_batch_end(..., dataloader_idx)",
        BATCH_END,
        "rewrite:removed_hooks",
        f"{CB}.on_train_batch_end(dataloader_idx)",
        "1.5",
        hook("Callback", "on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx)"),
        shows="dataloader_idx=0",
    ),
    Row(
        "2.0-unlisted-06",
        "Callback.on_train_batch_start(..., dataloader_idx)",
        "on_train_batch_start(self, trainer, pl_module, batch, batch_idx)",
        "rewrite:removed_hooks",
        f"{CB}.on_train_batch_start(dataloader_idx)",
        "1.5",
        hook("Callback", "on_train_batch_start(self, trainer, pl_module, batch, batch_idx, dataloader_idx)"),
        shows="dataloader_idx=0",
    ),
    Row(
        "2.0-unlisted-07",
        "LightningModule.on_train_batch_end(..., dataloader_idx)",
        "on_train_batch_end(self, outputs, batch, batch_idx)",
        "rewrite:removed_hooks",
        f"{LM}.on_train_batch_end(dataloader_idx)",
        "1.5",
        hook("LightningModule", "on_train_batch_end(self, outputs, batch, batch_idx, dataloader_idx)"),
        shows="dataloader_idx=0",
    ),
    Row(
        "2.0-unlisted-08",
        "optimizer_step(..., using_native_amp)",
        "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure)",
        "rewrite:optimizer_step_hook",
        f"{LM}.optimizer_step(using_native_amp)",
        "1.9",
        hook(
            "LightningModule",
            "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure, "
            "on_tpu, using_native_amp, using_lbfgs)",
        ),
        shows="def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure)",
    ),
    Row(
        "2.0-unlisted-09",
        "utilities.seed.seed_everything",
        "pytorch_lightning.seed_everything",
        "rewrite:moved_modules",
        f"{PL}.utilities.seed.seed_everything",
        "2.0",
        imported(f"{PL}.utilities.seed", "seed_everything"),
        shows="from pytorch_lightning import seed_everything",
    ),
    Row(
        "2.0-unlisted-10",
        "plugins.DDPPlugin",
        "strategies.DDPStrategy",
        "rewrite:strategy_plugins",
        f"{PL}.plugins.DDPPlugin",
        "1.8",
        imported(f"{PL}.plugins", "DDPPlugin"),
        shows="DDPStrategy",
    ),
    Row(
        "2.0-unlisted-11",
        'Trainer(accelerator="ddp")',
        'Trainer(strategy="ddp")',
        "rewrite:accelerator_strategy",
        "",
        "",
        trainer('gpus=2, accelerator="ddp"'),
        shows='strategy="ddp"',
    ),
    Row(
        "2.0-unlisted-12",
        "Trainer(precision=16)",
        'Trainer(precision="16-mixed")',
        "rewrite:device_flags",
        "",
        "",
        trainer("gpus=1, precision=16"),
        shows='"16-mixed"',
    ),
    Row(
        "2.0-unlisted-13",
        "trainer: gpus: 2 in a LightningCLI config",
        "trainer: accelerator: gpu, devices: 2",
        "rewrite:device_flags",
        f"{T}(gpus)",
        "2.0",
        "trainer:\n  max_epochs: 3\n  gpus: 2\n",
        shows="devices: 2",
        path="config.yaml",
    ),
    Row(
        "2.0-unlisted-14",
        "LightningModule.on_train_epoch_end(self, outputs)",
        "on_train_epoch_end(self)",
        "rewrite:removed_hooks",
        "",
        "",
        hook("LightningModule", "on_train_epoch_end(self, outputs)"),
        shows="on_train_epoch_end(self)",
    ),
)
