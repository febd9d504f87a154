"""Attributes of the Trainer and of the objects it holds that 1.x had and a target release lacks, and what replaced
each (read by rule ``removed_attributes``).

Which attributes exist comes from the recorded surfaces (:mod:`legacy_api.surface`): a *kind* of object (the
Trainer, a strategy, an accelerator, a precision plugin, one of the Trainer's connectors) is a family of classes, the
subclasses of its base in each release. An attribute is *gone* when some 1.x release before the target had it on a
class of the family and no class of the family has it at the target: a concrete strategy the code does not name may be
any of them, so an attribute that one 2.x strategy still has is never called gone. Two kinds of facts the recordings
cannot give are kept here, each checked against the real releases (tests/legacy_api/test_attributes.py):

* :data:`RUNTIME`: attributes a real 2.6.6 Trainer has although its recording lacks them (the recorder sees ``dir()``
  and the ``self.<attr>`` assignments of the class's own methods; these are set by connectors);
* :data:`CONNECTORS_2X`: the members of the 2.x connectors, private classes no 2.x recording holds, taken from a real
  2.6.6 Trainer (``dir()`` and ``vars()``); they answer for target 2.6 only, and a connector attribute is never
  called gone at another 2.x target.

:data:`INSTEAD` holds what replaced an attribute, in the words of Lightning's CHANGELOG and deprecation messages;
where it names nothing, :func:`instead` looks for the same attribute on the object that took over the role (the
accelerator's pass-throughs moved to the strategy in 1.6, the connectors' public values live on the Trainer).
Standard library only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from legacy_api.surface import RELEASES, Surface, surface

LEGACY_RELEASES = tuple(release for release in RELEASES if release.startswith("1."))


@dataclass(frozen=True)
class Kind:
    """One kind of object: its name in messages and the public paths of its base class (the first one a release
    has counts)."""

    name: str
    bases: tuple[str, ...]


_CONNECTORS = "pytorch_lightning.trainer.connectors"
KINDS: dict[str, Kind] = {
    "trainer": Kind("Trainer", ("pytorch_lightning.Trainer",)),
    "strategy": Kind(
        "Strategy", ("pytorch_lightning.strategies.Strategy", "pytorch_lightning.plugins.TrainingTypePlugin")
    ),
    "accelerator": Kind("Accelerator", ("pytorch_lightning.accelerators.Accelerator",)),
    "precision": Kind(
        "Precision", ("pytorch_lightning.plugins.precision.Precision", "pytorch_lightning.plugins.PrecisionPlugin")
    ),
    "accelerator_connector": Kind(
        "AcceleratorConnector", (f"{_CONNECTORS}.accelerator_connector.AcceleratorConnector",)
    ),
    "checkpoint_connector": Kind("CheckpointConnector", (f"{_CONNECTORS}.checkpoint_connector.CheckpointConnector",)),
    "logger_connector": Kind("LoggerConnector", (f"{_CONNECTORS}.logger_connector.logger_connector.LoggerConnector",)),
    "data_connector": Kind("DataConnector", (f"{_CONNECTORS}.data_connector.DataConnector",)),
}

#: (kind of the owner, attribute) -> the kind of the object it holds, in some release (``trainer.training_type_plugin``
#: in 1.x, ``trainer.strategy`` from 1.6, ``trainer._accelerator_connector`` from 1.6).
HELD: dict[tuple[str, str], str] = {
    ("trainer", "strategy"): "strategy",
    ("trainer", "training_type_plugin"): "strategy",
    ("trainer", "accelerator"): "accelerator",
    ("trainer", "precision_plugin"): "precision",
    ("trainer", "accelerator_connector"): "accelerator_connector",
    ("trainer", "_accelerator_connector"): "accelerator_connector",
    ("trainer", "checkpoint_connector"): "checkpoint_connector",
    ("trainer", "_checkpoint_connector"): "checkpoint_connector",
    ("trainer", "logger_connector"): "logger_connector",
    ("trainer", "_logger_connector"): "logger_connector",
    ("trainer", "data_connector"): "data_connector",
    ("trainer", "_data_connector"): "data_connector",
    ("accelerator", "training_type_plugin"): "strategy",
    ("accelerator", "precision_plugin"): "precision",
    ("strategy", "accelerator"): "accelerator",
    ("strategy", "precision_plugin"): "precision",
    ("accelerator_connector", "strategy"): "strategy",
    ("accelerator_connector", "training_type_plugin"): "strategy",
    ("accelerator_connector", "accelerator"): "accelerator",
    ("accelerator_connector", "precision_plugin"): "precision",
}

#: kind -> attributes a real 2.6.6 object of that kind has that its recording lacks (set outside the class's own
#: methods: ``callbacks``, ``fast_dev_run``, ``overfit_batches`` and ``profiler`` by the Trainer's connectors).
RUNTIME: dict[str, frozenset[str]] = {
    "trainer": frozenset({"callbacks", "fast_dev_run", "overfit_batches", "profiler"}),
}

_ACCELERATOR_CONNECTOR_26 = """
_accelerator_flag _accelerator_types _check_and_init_precision _check_config_and_set_final_flags
_check_device_config_and_set_final_flags _check_strategy_and_fallback _choose_and_init_cluster_environment
_choose_auto_accelerator _choose_gpu_accelerator_backend _choose_strategy _cluster_environment_flag _devices_flag
_init_strategy _layer_sync _lazy_init_strategy _num_nodes_flag _parallel_devices _precision_flag
_precision_plugin_flag _registered_strategies _set_devices_flag_if_auto_passed
_set_parallel_devices_and_init_accelerator _strategy_flag _validate_precision_choice accelerator checkpoint_io
cluster_environment is_distributed precision_plugin strategy use_distributed_sampler
"""
_CHECKPOINT_CONNECTOR_26 = """
_CheckpointConnector__get_max_ckpt_path_from_folder _CheckpointConnector__max_ckpt_version_in_folder _ckpt_path
_get_lightning_module_state_dict _get_loops_state_dict _hpc_resume_path _loaded_checkpoint _parse_ckpt_path
_restore_modules_and_callbacks _select_ckpt_path _user_managed dump_checkpoint hpc_save_path restore restore_callbacks
restore_datamodule restore_loops restore_lr_schedulers restore_model restore_optimizers
restore_optimizers_and_schedulers restore_precision_plugin_state restore_training_state resume_end resume_start
trainer
"""
_LOGGER_CONNECTOR_26 = """
_callback_metrics _current_fx _evaluation_epoch_end _first_loop_iter _logged_metrics _progress_bar_metrics
callback_metrics configure_logger epoch_end_reached log_eval_end_metrics log_metrics logged_metrics metrics
on_batch_end on_batch_start on_epoch_end on_trainer_init progress_bar_metrics reset_metrics reset_results
should_reset_tensors should_update_logs teardown trainer update_eval_epoch_metrics update_eval_step_metrics
update_train_epoch_metrics update_train_step_metrics
"""
_DATA_CONNECTOR_26 = """
_datahook_selector _prepare_dataloader _requires_distributed_sampler _resolve_sampler attach_data attach_dataloaders
attach_datamodule on_trainer_init prepare_data trainer
"""
#: kind -> (the release they were taken from, the members of its private 2.x connector beyond ``object``'s).
CONNECTORS_2X: dict[str, tuple[str, frozenset[str]]] = {
    "accelerator_connector": ("2.6.6", frozenset(_ACCELERATOR_CONNECTOR_26.split())),
    "checkpoint_connector": ("2.6.6", frozenset(_CHECKPOINT_CONNECTOR_26.split())),
    "logger_connector": ("2.6.6", frozenset(_LOGGER_CONNECTOR_26.split())),
    "data_connector": ("2.6.6", frozenset(_DATA_CONNECTOR_26.split())),
}

_PRIVATE = "private since 1.6 ({attr}); ask the Trainer instead"
_LOOPS = "2.x runs the hooks from the Trainer's loops; override Strategy.setup/teardown or a Callback instead"
#: (kind, attribute) -> what to use instead (CHANGELOG, deprecation messages of 1.5 to 1.9).
INSTEAD: dict[tuple[str, str], str] = {
    ("trainer", "progress_bar_dict"): "trainer.progress_bar_callback.get_metrics(trainer, pl_module)",
    ("trainer", "weights_summary"): "the ModelSummary(max_depth=...) callback",
    ("trainer", "checkpoint_connector"): "private since 1.6 (trainer._checkpoint_connector); the checkpoint fit "
    "restored from is trainer.ckpt_path",
    ("trainer", "logger_connector"): "private since 1.6 (trainer._logger_connector); the values are "
    "trainer.callback_metrics, trainer.logged_metrics and trainer.progress_bar_metrics",
    ("trainer", "accelerator_connector"): "private since 1.5 (trainer._accelerator_connector, rewritten in 1.6); ask "
    "trainer.strategy, trainer.accelerator, trainer.precision_plugin",
    ("trainer", "data_connector"): "private since 1.6 (trainer._data_connector)",
    ("trainer", "train_loop"): "trainer.fit_loop",
    ("trainer", "lr_schedulers"): "trainer.lr_scheduler_configs (a list of LRSchedulerConfig, not dicts)",
    ("trainer", "weights_save_path"): "a ModelCheckpoint(dirpath=...) callback; trainer.default_root_dir",
    ("trainer", "resume_from_checkpoint"): "trainer.ckpt_path (set by fit(ckpt_path=...))",
    ("trainer", "tune"): "pytorch_lightning.tuner.Tuner(trainer).lr_find(...) or .scale_batch_size(...)",
    ("trainer", "tuner"): "pytorch_lightning.tuner.Tuner(trainer), whose lr_find and scale_batch_size take the model",
    ("trainer", "run_stage"): "trainer.fit, validate, test or predict",
    ("trainer", "verbose_evaluate"): "trainer.validate(verbose=...) and trainer.test(verbose=...)",
    ("trainer", "slurm_job_id"): "SLURMEnvironment.job_id()",
    ("trainer", "terminate_on_nan"): "Trainer(detect_anomaly=True)",
    ("trainer", "disable_validation"): "trainer.limit_val_batches == 0",
    ("trainer", "call_hook"): "nothing public: call the module's or the callbacks' hook yourself",
    ("strategy", "on_gpu"): "strategy.root_device.type == 'cuda'",
    ("strategy", "on_tpu"): "isinstance(trainer.accelerator, XLAAccelerator) (TPUAccelerator before 2.0)",
    ("strategy", "should_rank_save_checkpoint"): "nothing: the strategy's save_checkpoint decides which rank writes "
    "(trainer.is_global_zero for the usual ones)",
    ("strategy", "precision"): "trainer.precision",
    ("strategy", "sync_batchnorm"): "the Trainer(sync_batchnorm=...) flag; the strategy keeps no copy",
    ("strategy", "torch_distributed_backend"): "strategy.process_group_backend",
    ("strategy", "init_ddp_connection"): "strategy.setup_distributed()",
    ("strategy", "results"): "what trainer.fit/validate/test/predict return",
    ("strategy", "dispatch"): _LOOPS,
    ("strategy", "pre_dispatch"): _LOOPS,
    ("strategy", "post_dispatch"): _LOOPS,
    ("strategy", "start_training"): _LOOPS,
    ("strategy", "start_evaluating"): _LOOPS,
    ("strategy", "start_predicting"): _LOOPS,
    ("accelerator", "root_device"): "trainer.strategy.root_device",
    ("accelerator", "scaler"): "trainer.precision_plugin.scaler",
    ("accelerator", "optimizers"): "trainer.optimizers",
    ("accelerator", "lr_schedulers"): "trainer.lr_scheduler_configs",
    ("precision", "backend"): "nothing: 2.0 keeps native AMP only",
    ("precision", "amp_type"): "nothing: 2.0 keeps native AMP only",
    ("precision", "amp_level"): "nothing: apex is gone in 2.0",
    ("accelerator_connector", "amp_level"): "nothing: apex is gone in 2.0",
    ("accelerator_connector", "parallel_devices"): "trainer.strategy.parallel_devices",
    ("accelerator_connector", "precision"): "trainer.precision",
    ("checkpoint_connector", "resume_from_checkpoint_fit_path"): "trainer.ckpt_path",
    ("checkpoint_connector", "resume_checkpoint_path"): "trainer.ckpt_path",
    ("checkpoint_connector", "hpc_save"): "trainer.save_checkpoint(path)",
    ("checkpoint_connector", "save_checkpoint"): "trainer.save_checkpoint(path)",
    ("logger_connector", "gpus_metrics"): "the DeviceStatsMonitor callback",
    ("logger_connector", "log_gpu_memory"): "the DeviceStatsMonitor callback",
}
#: kind -> the kinds whose objects took over its public values, asked in order (``trainer.accelerator.root_device``
#: moved to the strategy; ``conn.num_nodes`` is ``trainer.num_nodes``).
SUCCESSORS: dict[str, tuple[str, ...]] = {
    "accelerator": ("strategy",),
    "accelerator_connector": ("trainer", "strategy"),
    "checkpoint_connector": ("trainer",),
    "logger_connector": ("trainer",),
    "data_connector": ("trainer",),
}
_SPELLED = {"trainer": "trainer", "strategy": "trainer.strategy"}


def _base_keys(release: Surface, kind: str) -> frozenset[str]:
    keys = (release._class(path) for path in KINDS[kind].bases)
    return frozenset(key for key in keys if key is not None)


@functools.cache
def recorded_members(release: str, kind: str) -> frozenset[str] | None:
    """Every member of a class of ``kind`` in ``release`` (the family's union), or None where the release records no
    such class (the 2.x connectors are private)."""
    recorded = surface(release)
    bases = _base_keys(recorded, kind)
    if not bases:
        return None
    found: set[str] = set()
    for key, info in recorded.classes.items():
        if bases & set(recorded.mro(key)):
            found |= info.members
    return frozenset(found)


def target_members(release: str, kind: str) -> frozenset[str] | None:
    """What an object of ``kind`` has at ``release``: the recording, the runtime facts; None when unknown."""
    members = recorded_members(release, kind)
    if members is None:
        taken, connector = CONNECTORS_2X.get(kind, ("", frozenset()))
        return connector | {"__init__"} if taken == release else None
    return members | RUNTIME.get(kind, frozenset()) if release == RELEASES[-1] else members


def _before(release: str) -> tuple[str, ...]:
    return tuple(old for old in LEGACY_RELEASES if RELEASES.index(old) < RELEASES.index(release))


def gone(release: str, kind: str, attr: str) -> bool:
    """Whether some 1.x release before ``release`` had ``attr`` on an object of ``kind`` and ``release`` has not."""
    now = target_members(release, kind)
    if now is None or attr in now:
        return False
    return any(attr in (recorded_members(old, kind) or ()) for old in _before(release))


def removed_in(release: str, kind: str, attr: str) -> str:
    """When ``attr`` went, for a message: ``"in 1.6"``, the minor release that first lacks it after the last 1.x release
    before ``release`` that had it; ``"after 1.9"`` where that release records no class of ``kind`` (a 2.x
    connector)."""
    had = [old for old in _before(release) if attr in (recorded_members(old, kind) or ())]
    index = RELEASES.index(had[-1]) + 1 if had else RELEASES.index(release)
    if recorded_members(RELEASES[index], kind) is None and had:
        return "after " + ".".join(had[-1].split(".")[:2])
    return "in " + ".".join(RELEASES[index].split(".")[:2])


def instead(release: str, kind: str, attr: str) -> str:
    """What to use instead of ``kind``'s ``attr`` at ``release`` (empty: nothing known)."""
    if (kind, attr) in INSTEAD:
        return INSTEAD[(kind, attr)]
    for successor in SUCCESSORS.get(kind, ()):
        if attr in (target_members(release, successor) or ()) and not attr.startswith("_"):
            return f"{_SPELLED[successor]}.{attr}"
    return ""


@functools.cache
def vocabulary() -> frozenset[str]:
    """Every attribute of every kind that some recorded release lacks after an earlier one had it: what a line must
    mention for the rule to look at it."""
    return frozenset(
        attr
        for release in RELEASES[1:]
        for kind in KINDS
        for old in LEGACY_RELEASES
        for attr in recorded_members(old, kind) or ()
        if gone(release, kind, attr)
    )


def kind_of_class(qualified: str) -> str | None:
    """The kind of objects the Lightning class at ``qualified`` (a public path) makes, in the newest recorded release
    that has it (``pytorch_lightning.plugins.DDPPlugin`` -> ``"strategy"``); None for any other class."""
    for release in reversed(RELEASES):
        recorded = surface(release)
        key = recorded._class(qualified)
        if key is None:
            continue
        ancestry = set(recorded.mro(key))
        return next((kind for kind in KINDS if _base_keys(recorded, kind) & ancestry), None)
    return None
