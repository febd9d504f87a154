"""Upgrade-guide rows of Lightning 1.7 (see :mod:`legacy_api.upgrade_guide_model`)."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, hook, imported, in_module, on_trainer, trainer

PL = "pytorch_lightning"
LM, DM, CB, T = f"{PL}.LightningModule", f"{PL}.LightningDataModule", f"{PL}.Callback", f"{PL}.Trainer"
MOVED, RANK_ZERO = "rewrite:moved_modules", "utilities.rank_zero import"
# removed_names' TODO points at a re-export (cli.rank_zero_warn) rather than utilities.rank_zero: the exact rewrite
# moved_modules does for utilities.distributed would do here too (rows of the renames table, 1.6's own message).
WARNINGS = "todo:removed_names"
ENV = "out-of-scope:an environment variable, set outside Python"


def _trainer_attribute(n: int, audience: str, attr: str, replacement: str, outcome: str, note: str = "") -> Row:
    return Row(
        f"1.7-{audience}-{n:02d}",
        f"Trainer.{attr}",
        replacement,
        outcome,
        f"{T}.{attr}",
        "1.8",
        on_trainer(f"value = trainer.{attr}"),
        guide_note=note,
    )


def _callback_hook(n: int, name: str, replacement: str, args: str = "trainer, pl_module") -> Row:
    return Row(
        f"1.7-advanced-{n:02d}",
        f"Callback.{name}",
        replacement,
        "todo:removed_hooks",
        f"{CB}.{name}",
        "1.8",
        hook("Callback", f"{name}(self, {args})"),
    )


ROWS = (
    Row(
        "1.7-advanced-01",
        'DDP2Strategy / strategy="ddp2"',
        "DDPStrategy",
        "report:strategy_removals",
        f"{PL}.strategies.DDP2Strategy",
        "1.8",
        imported(f"{PL}.strategies", "DDP2Strategy"),
    ),
    _trainer_attribute(2, "advanced", "training_type_plugin", "Trainer.strategy", "rewrite:trainer_properties"),
    Row(
        "1.7-advanced-03",
        "TrainingTypePlugin and its *Plugin subclasses",
        "Strategy and the *Strategy classes",
        "rewrite:strategy_plugins",
        f"{PL}.plugins.TrainingTypePlugin",
        "1.8",
        imported(f"{PL}.plugins", "TrainingTypePlugin"),
        guide_note="spells the class TrainingTypePluginsn",
    ),
    Row(
        "1.7-advanced-04",
        "utilities.DistributedType",
        "strategy name strings (the enum became private)",
        "rewrite:enum_members",
        f"{PL}.utilities.DistributedType",
        "1.8",
        f"from {PL}.utilities import DistributedType\n\nmode = DistributedType.DDP\n",
    ),
    Row(
        "1.7-advanced-05",
        "utilities.DeviceType",
        "accelerator name strings (the enum became private)",
        "rewrite:enum_members",
        f"{PL}.utilities.DeviceType",
        "1.6",
        f"from {PL}.utilities import DeviceType\n\nkind = DeviceType.GPU\n",
    ),
    Row(
        "1.7-advanced-06",
        "utilities.meta (init_meta_context, ...)",
        "torchdistx, or Fabric's init_module(empty_init=True)",
        "todo:removed_names",
        f"{PL}.utilities.meta.init_meta_context",
        "1.9",
        imported(f"{PL}.utilities.meta", "init_meta_context"),
        guide_note="spells the module pl.utiltiies.meta",
    ),
    _callback_hook(7, "on_configure_sharded_model", "Callback.setup"),
    _callback_hook(8, "on_before_accelerator_backend_setup", "Callback.setup"),
    _callback_hook(9, "on_batch_start", "Callback.on_train_batch_start"),
    _callback_hook(10, "on_batch_end", "Callback.on_train_batch_end"),
    _callback_hook(11, "on_epoch_start", "on_train_epoch_start / on_validation_epoch_start / on_test_epoch_start"),
    _callback_hook(12, "on_pretrain_routine_start", "Callback.on_fit_start"),
    _callback_hook(13, "on_init_start", "Callback.on_train_start (or the callback's __init__)", "trainer"),
    _callback_hook(14, "on_init_end", "Callback.on_train_start", "trainer"),
    _trainer_attribute(15, "advanced", "num_processes", "Trainer.num_devices", "todo:trainer_properties"),
    _trainer_attribute(16, "advanced", "gpus", "Trainer.num_devices (or device_ids)", "todo:trainer_properties"),
    _trainer_attribute(17, "advanced", "num_gpus", "Trainer.num_devices", "todo:trainer_properties"),
    _trainer_attribute(18, "advanced", "ipus", "Trainer.num_devices", "todo:trainer_properties"),
    _trainer_attribute(19, "advanced", "tpu_cores", "Trainer.num_devices", "todo:trainer_properties"),
    _trainer_attribute(
        20, "advanced", "num_processes", "Trainer.num_devices", "todo:trainer_properties", note="repeats row 15"
    ),
    Row(
        "1.7-advanced-21",
        "strategies.ipu.LightningIPUModule",
        "nothing (removed; IPU support left for lightning-graphcore)",
        "todo:removed_names",
        f"{PL}.strategies.ipu.LightningIPUModule",
        "1.8",
        imported(f"{PL}.strategies.ipu", "LightningIPUModule"),
    ),
    Row(
        "1.7-advanced-22",
        "logger.agg_and_log_metrics(...)",
        "logger.log_metrics(...)",
        "todo:removed_members",
        f"{PL}.loggers.TensorBoardLogger.agg_and_log_metrics",
        "1.8",
        f"from {PL}.loggers import TensorBoardLogger\n\nlogger = TensorBoardLogger('logs')\n"
        "logger.agg_and_log_metrics({'a': 1.0}, step=0)\n",
    ),
    Row(
        "1.7-advanced-23",
        "LightningLoggerBase(agg_key_funcs=)",
        "aggregate metrics yourself before logging",
        "silent:todo naming the removal",
        f"{PL}.loggers.LightningLoggerBase(agg_key_funcs)",
        "1.7",
        f"from {PL}.loggers import LightningLoggerBase\n\n\nclass Mine(LightningLoggerBase):\n"
        "    def __init__(self):\n        super().__init__(agg_key_funcs={})\n",
    ),
    Row(
        "1.7-advanced-24",
        "LightningLoggerBase(agg_default_func=)",
        "aggregate metrics yourself before logging",
        "silent:todo naming the removal",
        f"{PL}.loggers.LightningLoggerBase(agg_default_func)",
        "1.7",
        f"from {PL}.loggers import LightningLoggerBase\n\n\nclass Mine(LightningLoggerBase):\n"
        "    def __init__(self):\n        super().__init__(agg_default_func=sum)\n",
    ),
    _trainer_attribute(25, "advanced", "validated_ckpt_path", "Trainer.ckpt_path", "todo:removed_attributes"),
    _trainer_attribute(26, "advanced", "tested_ckpt_path", "Trainer.ckpt_path", "todo:removed_attributes"),
    _trainer_attribute(27, "advanced", "predicted_ckpt_path", "Trainer.ckpt_path", "todo:removed_attributes"),
    Row(
        "1.7-advanced-28",
        "returning a state from Callback.on_save_checkpoint",
        "Callback.state_dict / load_state_dict",
        "silent:todo on the hook",
        "",
        "",
        f"from {PL} import Callback\n\n\nclass Mine(Callback):\n"
        "    def on_save_checkpoint(self, trainer, pl_module, checkpoint):\n        return {'seen': 1}\n",
        guide_note="the hook stays; only its return value is ignored since 2.0",
    ),
    _trainer_attribute(
        1,
        "devel",
        "get_deprecated_arg_names",
        "nothing (removed)",
        "todo:argparse_flags",
        note="the row has no 'Then' cell",
    ),
    _trainer_attribute(2, "devel", "run_stage", "Trainer.fit / validate / test / predict", "todo:removed_attributes"),
    *(
        Row(
            f"1.7-devel-{n:02d}",
            f"{module}.{name}",
            f"utilities.rank_zero.{name}",
            outcome,
            f"{PL}.{module}.{name}",
            gone,
            imported(f"{PL}.{module}", name),
            shows=shows,
            guide_note=note,
        )
        for n, module, name, outcome, gone, shows, note in (
            (3, "utilities.distributed", "rank_zero_only", MOVED, "2.0", RANK_ZERO, ""),
            (4, "utilities.distributed", "rank_zero_debug", MOVED, "2.0", RANK_ZERO, ""),
            (5, "utilities.distributed", "rank_zero_info", MOVED, "2.0", RANK_ZERO, ""),
            (6, "utilities.warnings", "rank_zero_warn", WARNINGS, "1.8", "", ""),
            (7, "utilities.warnings", "rank_zero_deprecation", WARNINGS, "1.8", "", ""),
            (8, "utilities.warnings", "LightningDeprecationWarning", WARNINGS, "1.8", "", ""),
            (9, "utilities.warnings", "LightningDeprecationWarning", WARNINGS, "1.8", "", "repeats row 8"),
        )
    ),
    _trainer_attribute(10, "devel", "data_parallel_device_ids", "Trainer.device_ids", "todo:trainer_properties"),
    Row(
        "1.7-devel-11",
        "subclassing TrainerCallbackHookMixin",
        "nothing: Trainer has the methods",
        "todo:removed_names",
        f"{PL}.trainer.callback_hook.TrainerCallbackHookMixin",
        "1.8",
        imported(f"{PL}.trainer.callback_hook", "TrainerCallbackHookMixin"),
    ),
    Row(
        "1.7-devel-12",
        "profiler.BaseProfiler",
        "profilers.Profiler",
        "todo:removed_names",
        f"{PL}.profiler.BaseProfiler",
        "1.9",
        imported(f"{PL}.profiler", "BaseProfiler"),
        guide_note="spells it BaseProfilerto",
    ),
    Row("1.7-devel-13", "PL_TORCH_DISTRIBUTED_BACKEND=gloo", 'DDPStrategy(process_group_backend="gloo")', ENV),
    Row(
        "1.7-devel-14",
        "PrecisionPlugin.on_load_checkpoint",
        "PrecisionPlugin.load_state_dict",
        "out-of-scope:2.6.6 still calls Precision.on_load_checkpoint(checkpoint) "
        "(checkpoint_connector: prec_plugin.on_load_checkpoint); "
        "the base's rename is rule precision_plugins'",
        f"{PL}.plugins.PrecisionPlugin.on_load_checkpoint",
        "2.2",
        hook("PrecisionPlugin", "on_load_checkpoint(self, checkpoint)", f"{PL}.plugins"),
    ),
    Row(
        "1.7-devel-15",
        "PrecisionPlugin.on_save_checkpoint",
        "PrecisionPlugin.state_dict",
        "out-of-scope:2.6.6 still calls Precision.on_save_checkpoint(checkpoint) "
        "(checkpoint_connector: prec_plugin.on_save_checkpoint); "
        "the base's rename is rule precision_plugins'",
        f"{PL}.plugins.PrecisionPlugin.on_save_checkpoint",
        "2.2",
        hook("PrecisionPlugin", "on_save_checkpoint(self, checkpoint)", f"{PL}.plugins"),
        guide_note="names load_state_dict as the replacement; saving is state_dict",
    ),
    _trainer_attribute(16, "devel", "root_gpu", "trainer.strategy.root_device.index", "todo:trainer_properties"),
    _trainer_attribute(17, "devel", "use_amp", 'trainer.precision ("16-mixed")', "todo:trainer_properties"),
    Row(
        "1.7-devel-18",
        "LightningModule.use_amp",
        "self.trainer.precision",
        "todo:removed_members",
        f"{LM}.use_amp",
        "1.8",
        in_module("amp = self.use_amp"),
    ),
    _trainer_attribute(19, "devel", "verbose_evaluate", "the evaluation loop's verbose", "todo:removed_attributes"),
    _trainer_attribute(20, "devel", "should_rank_save_checkpoint", "nothing (removed)", "todo:trainer_properties"),
    Row(
        "1.7-devel-21",
        "subclassing TrainerOptimizersMixin",
        "core.optimizer's functions",
        "todo:removed_names",
        f"{PL}.trainer.optimizers.TrainerOptimizersMixin",
        "1.8",
        imported(f"{PL}.trainer.optimizers", "TrainerOptimizersMixin"),
    ),
    Row(
        "1.7-devel-22",
        "subclassing TrainerDataLoadingMixin",
        "Trainer and its data connector",
        "todo:removed_names",
        f"{PL}.trainer.data_loading.TrainerDataLoadingMixin",
        "1.8",
        imported(f"{PL}.trainer.data_loading", "TrainerDataLoadingMixin"),
    ),
    _trainer_attribute(23, "devel", "lightning_optimizers", "trainer.strategy's optimizers", "todo:trainer_properties"),
    Row(
        "1.7-devel-24",
        "Trainer.call_hook(...)",
        "nothing public (split into protected helpers)",
        "todo:removed_attributes",
        f"{T}.call_hook",
        "1.8",
        on_trainer("trainer.call_hook('on_fit_start')"),
    ),
    Row(
        "1.7-devel-25",
        "SimpleProfiler.profile_iterable",
        "nothing (removed)",
        "todo:removed_members",
        f"{PL}.profiler.SimpleProfiler.profile_iterable",
        "1.8",
        f"from {PL}.profiler import SimpleProfiler\n\nprofiler = SimpleProfiler()\n"
        "items = profiler.profile_iterable(data, 'load')\n",
    ),
    Row(
        "1.7-devel-26",
        "AdvancedProfiler.profile_iterable",
        "nothing (removed)",
        "todo:removed_members",
        f"{PL}.profiler.AdvancedProfiler.profile_iterable",
        "1.8",
        f"from {PL}.profiler import AdvancedProfiler\n\nprofiler = AdvancedProfiler()\n"
        "items = profiler.profile_iterable(data, 'load')\n",
    ),
    Row(
        "1.7-devel-27",
        "callbacks.device_stats_monitor.prefix_metric_keys",
        "nothing (removed)",
        "todo:removed_names",
        f"{PL}.callbacks.device_stats_monitor.prefix_metric_keys",
        "1.8",
        imported(f"{PL}.callbacks.device_stats_monitor", "prefix_metric_keys"),
        guide_note="the row has no 'Then' cell",
    ),
    Row(
        "1.7-devel-28",
        "on_train_batch_end outputs laid out (optimizers, tbptt steps)",
        "outputs laid out (tbptt steps, optimizers); multiple optimizers are gone in 2.0",
        "out-of-scope:a change in the shape of a value the hook receives, not in any name the code spells",
    ),
    Row(
        "1.7-devel-29",
        "training_epoch_end outputs laid out (optimizers, batches, tbptt steps)",
        "on_train_epoch_end (training_epoch_end is gone in 2.0)",
        "rewrite:epoch_end_hooks",
        f"{LM}.training_epoch_end",
        "2.0",
        hook("LightningModule", "training_epoch_end(self, outputs)"),
        shows="def on_train_epoch_end(self)",
    ),
    Row(
        "1.7-regular-01",
        "LoggerCollection([...])",
        "Trainer(logger=[...]) and trainer.loggers",
        "todo:logger_base",
        f"{PL}.loggers.LoggerCollection",
        "1.8",
        f"from {PL}.loggers import LoggerCollection\n\nloggers = LoggerCollection([])\n",
    ),
    _trainer_attribute(
        2, "regular", "lr_schedulers", "trainer.lr_scheduler_configs (dataclasses)", "todo:removed_attributes"
    ),
    Row(
        "1.7-regular-03",
        "NeptuneLogger with the neptune-client < 1.0 API",
        "the neptune >= 1.0 API",
        "out-of-scope:the API of a third-party package, not Lightning's",
    ),
    Row(
        "1.7-regular-04",
        "LightningDataModule.on_save_checkpoint",
        "LightningDataModule.state_dict",
        "todo:removed_hooks",
        f"{DM}.on_save_checkpoint",
        "1.8",
        hook("LightningDataModule", "on_save_checkpoint(self, checkpoint)"),
        guide_note="names the hook on_save and the replacement on_save_checkpoint; 1.6 moved it to state_dict",
    ),
    Row(
        "1.7-regular-05",
        "LightningDataModule.on_load_checkpoint",
        "LightningDataModule.load_state_dict",
        "todo:removed_hooks",
        f"{DM}.on_load_checkpoint",
        "1.8",
        hook("LightningDataModule", "on_load_checkpoint(self, checkpoint)"),
        guide_note="names the same hook as old and new; 1.6 moved it to load_state_dict",
    ),
    Row(
        "1.7-regular-06",
        "LightningModule.on_hpc_load",
        "LightningModule.on_load_checkpoint",
        "todo:removed_hooks",
        f"{LM}.on_hpc_load",
        "1.8",
        hook("LightningModule", "on_hpc_load(self, checkpoint)"),
    ),
    Row(
        "1.7-regular-07",
        "LightningModule.on_hpc_save",
        "LightningModule.on_save_checkpoint",
        "todo:removed_hooks",
        f"{LM}.on_hpc_save",
        "1.8",
        hook("LightningModule", "on_hpc_save(self, checkpoint)"),
    ),
    Row(
        "1.7-regular-08",
        "Trainer(weights_save_path=)",
        "ModelCheckpoint(dirpath=)",
        "todo:removed_arguments",
        f"{T}(weights_save_path)",
        "1.8",
        trainer('weights_save_path="ckpts"'),
    ),
    _trainer_attribute(
        9,
        "regular",
        "weights_save_path",
        "the checkpoint callback's dirpath",
        "todo:removed_attributes",
        note="the row has no 'Then' cell",
    ),
)
