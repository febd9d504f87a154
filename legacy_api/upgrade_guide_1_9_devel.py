"""Upgrade-guide rows of Lightning 1.9 for developers (see :mod:`legacy_api.upgrade_guide_model`)."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, hook, imported, in_module, on_trainer

PL = "pytorch_lightning"
LM, DM, T = f"{PL}.LightningModule", f"{PL}.LightningDataModule", f"{PL}.Trainer"
CLI = "LightningCLI (or your own argparse)"
MANUAL = "manual optimization"
MOVED = "rewrite:moved_packages"
ARGPARSE = "todo:argparse_flags"
SILENT = "silent:todo naming the removal"
LOOPS = "nothing public: write the loop yourself (Fabric)"


def _name(
    n: int,
    module: str,
    name: str,
    replacement: str,
    outcome: str = "todo:removed_names",
    note: str = "",
    gone: str = "2.0",
) -> Row:
    """A 1.x name imported from ``pytorch_lightning.<module>``."""
    return Row(
        f"1.9-devel-{n:02d}",
        f"{module}.{name}",
        replacement,
        outcome,
        f"{PL}.{module}.{name}",
        gone,
        imported(f"{PL}.{module}", name),
        guide_note=note,
    )


def _trainer(n: int, expr: str, attr: str, replacement: str, outcome: str = SILENT, probe: bool = True) -> Row:
    """A use of a Trainer instance; ``probe=False`` where the recordings cannot show it (a property's setter)."""
    return Row(
        f"1.9-devel-{n:02d}",
        f"Trainer.{attr}",
        replacement,
        outcome,
        f"{T}.{attr}" if probe else "",
        "2.0" if probe else "",
        on_trainer(expr),
    )


ROWS = (
    Row(
        "1.9-devel-01",
        "LightningDistributedModule(pl_module=...)",
        "forward_module=",
        "todo:removed_names",
        f"{PL}.overrides.distributed.LightningDistributedModule(pl_module)",
        "2.0",
        f"import {PL} as pl\n\nwrapped = pl.overrides.distributed.LightningDistributedModule(pl_module=model)\n",
    ),
    _name(2, "overrides.data_parallel", "LightningParallelModule", 'strategy="ddp" (DataParallel is gone)'),
    Row(
        "1.9-devel-03",
        "the pl_module attribute of the module wrappers",
        "wrapper.module (forward_module)",
        "todo:removed_names",
        "",
        "",
        f"import {PL} as pl\n\ninner = pl.overrides.distributed.LightningDistributedModule(model).pl_module\n",
        guide_note="its replacement cell repeats row 2's",
    ),
    _name(4, "overrides.base", "unwrap_lightning_module", "trainer.lightning_module"),
    _name(5, "overrides.distributed", "LightningDistributedModule", "DDPStrategy's own wrapping"),
    _name(6, "plugins", "ApexMixedPrecisionPlugin", 'precision="16-mixed" (torch.amp)', "todo:precision_plugins"),
    _name(
        7,
        "plugins",
        "NativeMixedPrecisionPlugin",
        "MixedPrecisionPlugin (2.x: MixedPrecision)",
        "rewrite:precision_plugins",
    ),
    _trainer(
        8,
        "trainer.fit_loop.min_steps = 10",
        "fit_loop.min_steps (setter)",
        "Trainer(min_steps=)",
        "todo:removed_members",
        probe=False,
    ),
    _trainer(
        9,
        "trainer.fit_loop.max_steps = 10",
        "fit_loop.max_steps (setter)",
        "Trainer(max_steps=)",
        "todo:removed_members",
        probe=False,
    ),
    _trainer(
        10,
        "parallel = trainer.data_parallel",
        "data_parallel",
        "isinstance(trainer.strategy, ParallelStrategy)",
        "todo:trainer_properties",
    ),
    _name(11, "utilities.xla_device", "XLADeviceUtils", "XLAAccelerator.is_available()"),
    _name(12, "utilities.device_parser", "parse_gpu_ids", "lightning_fabric.utilities.device_parser"),
    _name(13, "utilities.cloud_io", "load", "lightning_fabric.utilities.cloud_io._load"),
    _name(14, "utilities.apply_func", "apply_to_collection", "lightning_utilities.core.apply_func", MOVED),
    _name(15, "core.mixins", "DeviceDtypeModuleMixin", "lightning_fabric.utilities.device_dtype_mixin", gone="1.8"),
    _name(16, "utilities.distributed", "sync_ddp_if_available", "torch.distributed directly"),
    _name(
        17,
        "utilities.data",
        "has_len",
        "nothing (removed)",
        note="utilities.data is still a module in 2.6; only has_len and get_len left it",
    ),
    _name(18, "utilities.optimizer", "optimizers_to_device", "lightning_fabric.utilities.optimizer"),
    _name(19, "utilities.seed", "reset_seed", "lightning_fabric.utilities.seed.reset_seed", MOVED),
    Row(
        "1.9-devel-20",
        "LightningModule.truncated_bptt_steps",
        MANUAL,
        "todo:removed_members",
        f"{LM}.truncated_bptt_steps",
        "2.0",
        in_module("self.truncated_bptt_steps = 5"),
    ),
    Row(
        "1.9-devel-21",
        "LightningModule.tbptt_split_batch",
        MANUAL,
        "todo:removed_hooks",
        f"{LM}.tbptt_split_batch",
        "2.0",
        hook("LightningModule", "tbptt_split_batch(self, batch, split_size)"),
    ),
    Row(
        "1.9-devel-22",
        "training_step(self, batch, batch_idx, hiddens)",
        MANUAL,
        "todo:removed_hooks",
        "",
        "",
        hook("LightningModule", "training_step(self, batch, batch_idx, hiddens)"),
    ),
    _name(23, "utilities.finite_checks", "print_nan_gradients", "nothing (removed)"),
    _name(24, "utilities.finite_checks", "detect_nan_parameters", "nothing (removed)"),
    _name(25, "utilities.parsing", "flatten_dict", "nothing (removed)"),
    _name(26, "utilities.metrics", "metrics_to_scalars", "nothing (removed)"),
    _name(27, "utilities.memory", "get_model_size_mb", "nothing (removed)"),
    _name(
        28,
        "plugins.training_type.utils",
        "on_colab_kaggle",
        "nothing (removed)",
        "todo:strategy_plugins",
        "the guide names strategies.utils: the 1.6+ home of the same function",
        "1.8",
    ),
    *(
        Row(
            f"1.9-devel-{n:02d}",
            f"LightningDataModule.{method}()",
            CLI,
            outcome,
            f"{DM}.{method}",
            "2.0",
            f"from {PL} import LightningDataModule\n\n\nclass Data(LightningDataModule):\n    pass\n\n\n"
            f"data = Data.{method}(args)\n",
        )
        for n, method, outcome in (
            (29, "add_argparse_args", ARGPARSE),
            (30, "parse_argparser", ARGPARSE),
            (31, "from_argparse_args", ARGPARSE),
            (32, "get_init_arguments_and_types", ARGPARSE),
        )
    ),
    *(
        Row(
            f"1.9-devel-{n:02d}",
            f"Trainer.{method}()",
            CLI,
            ARGPARSE,
            f"{T}.{method}",
            "2.0",
            f"from {PL} import Trainer\n\nvalue = Trainer.{method}(args)\n",
        )
        for n, method in (
            (33, "default_attributes"),
            (34, "from_argparse_args"),
            (35, "parse_argparser"),
            (36, "match_env_arguments"),
            (37, "add_argparse_args"),
        )
    ),
    _name(38, "utilities.argparse", "from_argparse_args", CLI, ARGPARSE),
    _name(39, "utilities.argparse", "parse_argparser", CLI, ARGPARSE),
    _name(40, "utilities.argparse", "parse_env_variables", CLI, ARGPARSE, note="spells it argparseparse_env_variables"),
    _name(41, "utilities.argparse", "get_init_arguments_and_types", CLI, ARGPARSE, note="gives no module"),
    _name(42, "utilities.argparse", "add_argparse_args", CLI, ARGPARSE),
    _name(43, "utilities.parsing", "str_to_bool", "your own parsing (or LightningCLI)"),
    _name(44, "utilities.parsing", "str_to_bool_or_int", "your own parsing (or LightningCLI)"),
    _name(45, "utilities.parsing", "str_to_bool_or_str", "your own parsing (or LightningCLI)"),
    _name(46, "utilities.distributed", "AllGatherGrad", "torch.distributed.nn.functional.all_gather"),
    Row(
        "1.9-devel-47",
        "PL_RECONCILE_PROCESS=1",
        "your logger's own handling",
        "out-of-scope:an environment variable, set outside Python",
    ),
    Row(
        "1.9-devel-48",
        "overriding ModelIO.load_from_checkpoint in a mixin",
        "LightningModule.load_from_checkpoint",
        "todo:removed_names",
        f"{PL}.core.saving.ModelIO",
        "2.0",
        imported(f"{PL}.core.saving", "ModelIO"),
    ),
    Row(
        "1.9-devel-49",
        "Accelerator.setup_environment",
        "Accelerator.setup_device",
        "todo:removed_hooks",
        f"{PL}.accelerators.Accelerator.setup_environment",
        "2.0",
        hook("CPUAccelerator", "setup_environment(self, root_device)", f"{PL}.accelerators"),
    ),
    Row(
        "1.9-devel-50",
        "PL_FAULT_TOLERANT_TRAINING=1",
        "your own resumable loop (Fabric)",
        "out-of-scope:an environment variable, set outside Python",
    ),
    _name(51, "overrides.distributed", "IndexBatchSamplerWrapper", "nothing public (now protected)"),
    _name(52, "loops", "DataLoaderLoop", LOOPS),
    _name(53, "loops", "EvaluationEpochLoop", LOOPS),
    _name(54, "loops", "PredictionEpochLoop", LOOPS),
    _trainer(
        55,
        "trainer.reset_train_dataloader(model)",
        "reset_train_dataloader",
        "trainer.fit_loop.setup_data() (the top-level loops)",
        "todo:removed_attributes",
    ),
    Row(
        "1.9-devel-56",
        "LightningModule.precision",
        "self.trainer.precision",
        "todo:removed_members",
        f"{LM}.precision",
        "2.0",
        in_module("bits = self.precision"),
    ),
    _trainer(
        57,
        "trainer.model = model",
        "model (setter)",
        "pass the model to fit/validate/test/predict",
        "todo:removed_members",
        probe=False,
    ),
    _name(58, "trainer.supporters", "CombinedLoaderIterator", "CombinedLoader (utilities.combined_loader)"),
    _name(
        59,
        "trainer.supporters",
        "CombinedLoaderIterator",
        "CombinedLoader (utilities.combined_loader)",
        note="repeats row 58",
    ),
    _name(
        60,
        "callbacks",
        "ProgressBarBase",
        "callbacks.ProgressBar (the same base, renamed)",
        "rewrite:progress_bar_base",
    ),
    *(
        Row(
            f"1.9-devel-{n:02d}",
            f"ProgressBarBase.{attr}",
            "the trainer's loop progress counters",
            "todo:removed_members",
            f"{PL}.callbacks.ProgressBarBase.{attr}",
            "2.0",
            f"from {PL}.callbacks import ProgressBarBase\n\n\nclass Bar(ProgressBarBase):\n"
            f"    def on_train_batch_end(self, *args):\n        print(self.{attr})\n",
        )
        for n, attr in (
            (61, "train_batch_idx"),
            (62, "val_batch_idx"),
            (63, "test_batch_idx"),
            (64, "predict_batch_idx"),
        )
    ),
    _trainer(
        65,
        "writers = trainer.prediction_writer_callbacks",
        "prediction_writer_callbacks",
        "[c for c in trainer.callbacks if isinstance(c, BasePredictionWriter)]",
        "todo:removed_attributes",
    ),
    Row(
        "1.9-devel-66",
        "PrecisionPlugin.dispatch",
        "nothing (removed)",
        "todo:removed_hooks",
        f"{PL}.plugins.PrecisionPlugin.dispatch",
        "2.0",
        hook("PrecisionPlugin", "dispatch(self, trainer)", f"{PL}.plugins"),
    ),
    Row(
        "1.9-devel-67",
        "Strategy.dispatch (TrainingTypePlugin.dispatch)",
        "nothing (removed)",
        "todo:removed_hooks",
        f"{PL}.plugins.DDPPlugin.dispatch",
        "1.8",
        hook("DDPPlugin", "dispatch(self, trainer)", f"{PL}.plugins"),
    ),
)
