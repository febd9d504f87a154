"""The config keys whose uses the project index weighs, and what the index's facts say of tuning.

Shared by the index (``codemods.project.index``) and the facts read after the scan (``codemods.project.facts``),
which needs the index's types: kept apart so neither imports the other. Standard library only.
"""

from __future__ import annotations

#: The Trainer flags 1.5 read only in ``Trainer.tune()`` (``Tuner._tune``; ``tuner.lr_find()`` and
#: ``tuner.scale_batch_size()`` set their own values first): where nothing in the project tunes, they did nothing.
TUNE_FLAGS = ("auto_lr_find", "auto_scale_batch_size")
#: Config keys whose reads may move to another key (``codemods.project.moved_reads``); the index says where it cannot
#: see every use of one (the fact ``unindexed:<key>``).
#: Old key -> the key that carries its value once its config is migrated.
#: Section keys that decide the accelerator and the device count: an override that sets every one of them a
#: config section has may be planned as if it saw every flag (``trainer.gpus=0`` is then ``accelerator=cpu``).
DECIDERS = frozenset(
    {"gpus", "tpu_cores", "ipus", "num_processes", "accelerator", "distributed_backend", "devices", "auto_select_gpus"}
)
MOVES: dict[str, str] = {"gpus": "devices"}
MOVABLE = tuple(MOVES)
#: Trainer flags that 2.x no longer takes, with what replaced each: a config read of one (``cfg.trainer.gpus``)
#: that no config given to the run sets reads a value from elsewhere (a command line): rule ``config_reads``.
UNSET_READS: dict[str, str] = {
    "gpus": 'accelerator="gpu", devices=N',
    "tpu_cores": 'accelerator="tpu", devices=N',
    "ipus": 'accelerator="ipu", devices=N',
    "num_processes": 'accelerator="cpu", devices=N',
    "distributed_backend": "strategy=",
}


def never_tunes(project: object) -> bool:
    """Whether ``project`` is a run's index (``codemods.project.index.ProjectIndex``; tests may plan without one) and
    nothing in it may tune a Trainer (its facts lack ``tunes``)."""
    facts = getattr(project, "facts", None)
    return isinstance(facts, frozenset) and "tunes" not in facts
