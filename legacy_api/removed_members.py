"""Members of Lightning's user-facing classes (LightningModule, LightningDataModule, callbacks, loggers, profilers,
loops) that 1.x code reads, calls or sets and a target release lacks or gives another meaning, with what to write
instead (read by rule ``removed_members``).

Rule ``removed_attributes`` answers for the Trainer and the objects it holds (strategies, accelerators, precision
plugins, connectors); this table covers the classes a user subclasses or builds, one row per member the upgrade guide
names. Whether a member exists in a release comes from the recorded surfaces (:mod:`legacy_api.surface`), so a row
acts only at targets that lack it (``tests/legacy_api/test_removed_members.py`` checks every ``gone`` row against the
recordings: some 1.x release has it on ``owner``, 2.6.6 does not). What replaced each member is in the words of the
release's own deprecation message or CHANGELOG, and names only what 2.6.6 has. Standard library only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from legacy_api.surface import RELEASES, surface

LEGACY_RELEASES = tuple(release for release in RELEASES if release.startswith("1."))

#: ``gone``: any use of a member the target's class lacks; ``store``: an assignment to a member the target still
#: reads but no longer lets you set; ``changed``: a read of a member whose value has another shape at the target.
Use = Literal["gone", "store", "changed"]


@dataclass(frozen=True)
class Member:
    """One member of a Lightning class. ``owner`` is the class's public 1.x path; a receiver of any class deriving
    from it (in a 1.x recording) matches."""

    owner: str
    attr: str
    instead: str
    use: Use = "gone"
    #: For ``store`` and ``changed`` rows, the minor release that changed it (the recordings cannot tell).
    since: str = ""
    #: A ``gone`` member 1.x Lightning acted on when user code set it: a store is flagged too (else only reads are:
    #: ``self.dims = ...`` in a user's data module is just the user's own attribute at 2.x).
    effect: bool = False

    @property
    def owner_name(self) -> str:
        return self.owner.rpartition(".")[2]


_PL = "pytorch_lightning"
_LM = f"{_PL}.LightningModule"
_DM = f"{_PL}.LightningDataModule"
_BAR = f"{_PL}.callbacks.ProgressBarBase"
_LOGGER = f"{_PL}.loggers.LightningLoggerBase"
_LOOP = f"{_PL}.loops.Loop"
_STATE = "nothing: 1.6 dropped the data module's state tracking; keep a flag of your own in prepare_data/setup/teardown"
_TRANSFORMS = "an attribute of your own data module (1.7 dropped it from LightningDataModule)"
_LOOPS = "nothing: 2.0 made the loops private and no longer pluggable; write the loop yourself with Fabric"
_TBPTT = "nothing: 2.0 removed truncated back-propagation through time; split the sequence yourself in training_step"
#: 1.4.9's write_prediction/write_prediction_dict torch.save'd test-step outputs (deprecated in 1.3, gone in 1.5).
_PREDICTIONS = "what predict_step returns, run by trainer.predict() (a BasePredictionWriter callback saves it)"
_BATCHES = "a list with one count per dataloader since 2.0: sum(...) for the total"


def _bar(stage: str, loop: str) -> Member:
    return Member(_BAR, f"{stage}_batch_idx", f"self.trainer.{loop}.epoch_loop.batch_progress.current.processed")


MEMBERS: tuple[Member, ...] = (
    Member(_LM, "grad_norm", "pytorch_lightning.utilities.grad_norm(self, norm_type)"),
    Member(_LM, "datamodule", "self.trainer.datamodule"),
    Member(_LM, "loaded_optimizer_states_dict", "nothing: load optimizer states in on_load_checkpoint"),
    Member(_LM, "get_progress_bar_dict", "self.trainer.progress_bar_callback.get_metrics(self.trainer, self)"),
    Member(_LM, "summarize", "pytorch_lightning.utilities.model_summary.summarize(self)"),
    Member(_LM, "model_size", "pytorch_lightning.utilities.model_summary.ModelSummary(self).model_size"),
    Member(_LM, "use_amp", "self.trainer.precision (a string such as '16-mixed')"),
    Member(_LM, "precision", "self.trainer.precision (a string such as '16-mixed')"),
    Member(_LM, "truncated_bptt_steps", _TBPTT, effect=True),
    Member(_LM, "write_prediction", _PREDICTIONS),
    Member(_LM, "write_prediction_dict", _PREDICTIONS),
    *(Member(_DM, f"has_{what}", _STATE) for what in ("prepared_data",)),
    *(
        Member(_DM, f"has_{when}_{stage}", _STATE)
        for when in ("setup", "teardown")
        for stage in ("fit", "validate", "test", "predict")
    ),
    *(Member(_DM, name, _TRANSFORMS) for name in ("train_transforms", "val_transforms", "test_transforms")),
    *(Member(_DM, name, _TRANSFORMS) for name in ("size", "dims")),
    Member(f"{_PL}.callbacks.ModelCheckpoint", "save_function", "trainer.save_checkpoint(filepath)"),
    Member(f"{_PL}.callbacks.LearningRateMonitor", "lr_sch_names", "list(monitor.lrs.keys())"),
    _bar("train", "fit_loop"),
    Member(
        _BAR,
        "val_batch_idx",
        "self.trainer.validate_loop.epoch_loop.batch_progress.current.processed "
        "(self.trainer.fit_loop.epoch_loop.val_loop while fitting)",
    ),
    _bar("test", "test_loop"),
    _bar("predict", "predict_loop"),
    Member(f"{_PL}.loggers.LoggerCollection", "close", "finalize('success') on each logger of the list"),
    Member(_LOGGER, "close", "logger.finalize('success')"),
    Member(_LOGGER, "agg_and_log_metrics", "logger.log_metrics(metrics, step) (2.x logs without aggregating)"),
    # 1.7.7's SingleTPUStrategy.is_distributed returned False; 1.8 dropped it (its successor has none).
    Member(f"{_PL}.plugins.SingleTPUPlugin", "is_distributed", "False: a single-device strategy never is distributed"),
    Member(f"{_PL}.profiler.BaseProfiler", "profile_iterable", "nothing: wrap each next() in profiler.profile(name)"),
    *(Member(_LOOP, name, _LOOPS) for name in ("replace", "run", "connect")),
    Member(f"{_PL}.loops.FitLoop", "min_steps", "Trainer(min_steps=...)", use="store", since="2.0"),
    Member(f"{_PL}.loops.FitLoop", "max_steps", "Trainer(max_steps=...)", use="store", since="2.0"),
    Member(f"{_PL}.Trainer", "train_loop", "trainer.fit_loop (renamed in 1.6)", use="store", since="1.6"),
    Member(f"{_PL}.Trainer", "model", "pass the model to trainer.fit/validate/test/predict", use="store", since="2.0"),
    *(
        Member(f"{_PL}.Trainer", f"num_{stage}_batches", _BATCHES, use="changed", since="2.0")
        for stage in ("val", "test", "sanity_val")
    ),
)

#: (owner class, attribute) -> the class of the object it holds, for chains such as ``trainer.fit_loop.run()``.
HELD: dict[tuple[str, str], str] = {
    (f"{_PL}.Trainer", f"{loop}_loop"): f"{_PL}.loops.{cls}"
    for loop, cls in (("fit", "FitLoop"), ("validate", "EvaluationLoop"), ("test", "EvaluationLoop"),
                      ("predict", "PredictionLoop"))
}  # fmt: skip


@functools.cache
def by_attribute() -> dict[str, tuple[Member, ...]]:
    """Attribute name -> its rows."""
    found: dict[str, list[Member]] = {}
    for member in MEMBERS:
        found.setdefault(member.attr, []).append(member)
    return {attr: tuple(rows) for attr, rows in found.items()}


@functools.cache
def derives(cls: str, owner: str) -> bool:
    """Whether the Lightning class at public path ``cls`` is ``owner`` or derives from it in some recorded 1.x release
    (any: a deprecated path is a separate shim class in the releases that keep it)."""
    for release in LEGACY_RELEASES:
        recorded = surface(release)
        key, base = recorded.resolve(cls), recorded.resolve(owner)
        if key in recorded.classes and base in recorded.classes and base in recorded.mro(key):
            return True
    return False


def removed_in(owner: str, attr: str) -> str | None:
    """The minor release whose recording first lacks ``owner.attr`` after one that had it; None if none does."""
    last = None
    for release in RELEASES:
        members = surface(release).members(owner)
        if members is not None and attr in members:
            last = release
        elif last is not None:
            return ".".join(release.split(".")[:2])
    if last is not None and last != RELEASES[-1]:
        return ".".join(RELEASES[RELEASES.index(last) + 1].split(".")[:2])
    return None
