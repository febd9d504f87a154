"""Rows of the renames table for names 1.6-1.8 moved to another module of ``pytorch_lightning`` (rule
``moved_modules``). Standard library only; joined into ``legacy_api.renames.RENAMES``.

Each row was read in the real releases' own sources (the deprecation messages, ``legacy_api/data/api_surface.json``'s
recordings): the old path exists up to the release before ``removed_in``, the new one from ``deprecated_in`` on, and
the old one was the same object re-exported or a shim calling the new one.
"""

from __future__ import annotations

from collections.abc import Iterator

from legacy_api._rename import PL, Rename

RULE = "moved_modules"


def _moved_module_rows() -> Iterator[Rename]:
    # utilities.rank_zero became the home of the rank-zero helpers in 1.6; 1.6.5's utilities.distributed says
    # "rank_zero_info/_debug has been deprecated in v1.6 ... use the equivalent function from
    # pytorch_lightning.utilities.rank_zero"; 1.5.10's rank_zero_warn/_deprecation there were 1.3.7's shims; the
    # re-export of rank_zero_only in utilities.distributed is gone from 2.0.
    for name, removed in (
        ("rank_zero_only", "2.0"),
        ("rank_zero_info", "2.0"),
        ("rank_zero_debug", "2.0"),
        ("rank_zero_warn", "1.6"),
        ("rank_zero_deprecation", "1.6"),
    ):
        yield Rename(
            f"utilities.distributed.{name}", f"utilities.rank_zero.{name}", "function", "1.6", removed, RULE, (PL,)
        )
    # 1.8.6's utilities/seed.py: "seed_everything has been deprecated in v1.8.0"; the top-level
    # pytorch_lightning.seed_everything is the same function in every recorded release (1.4.9 ... 2.6.6).
    yield Rename("utilities.seed.seed_everything", "seed_everything", "function", "1.8", "2.0", RULE, (PL,))
    # 1.7.7's utilities/cli.py: "pytorch_lightning.utilities.cli.X has been deprecated in v1.7 and will be removed in
    # v1.9" (1.9.5 keeps them raising); pytorch_lightning.cli has them from 1.7.
    for name in ("LightningCLI", "SaveConfigCallback", "LightningArgumentParser"):
        yield Rename(f"utilities.cli.{name}", f"cli.{name}", "class", "1.7", "1.9", RULE, (PL,))
    yield Rename("utilities.cli.instantiate_class", "cli.instantiate_class", "function", "1.7", "1.9", RULE, (PL,))
    # 1.7.7: "pytorch_lightning.core.lightning.LightningModule has been deprecated in v1.7 and will be removed in v1.9"
    # (the module is core.module from 1.7), and likewise callbacks.base.Callback (callbacks.callback from 1.7).
    yield Rename("core.lightning", "core.module", "module", "1.7", "1.9", RULE, (PL,))
    yield Rename("callbacks.base", "callbacks.callback", "module", "1.7", "1.9", RULE, (PL,))
    # 1.8 moved the cluster environments to lightning_lite and dropped their pytorch_lightning submodules without a
    # deprecation (1.7.7 has plugins/environments/torchelastic_environment.py, 1.8.6 does not); the package
    # plugins.environments re-exports each class in every recorded release (1.4.9 ... 2.6.6), and in 1.5.10 the
    # submodule's class is the package's (the recording resolves both paths to one key).
    for module, name in (
        ("cluster_environment", "ClusterEnvironment"),
        ("kubeflow_environment", "KubeflowEnvironment"),
        ("lightning_environment", "LightningEnvironment"),
        ("lsf_environment", "LSFEnvironment"),
        ("slurm_environment", "SLURMEnvironment"),
        ("torchelastic_environment", "TorchElasticEnvironment"),
    ):
        yield Rename(
            f"plugins.environments.{module}.{name}", f"plugins.environments.{name}", "class", "1.8", "1.8", RULE, (PL,)
        )
    # 1.8.6's utilities/apply_func.py: "move_data_to_device has been deprecated in v1.8.0 and will be removed in
    # v2.0.0"; pytorch_lightning.utilities re-exports move_data_to_device in every recorded release (1.5.10: the
    # apply_func function itself; 2.x: lightning_fabric's, the same code less torchtext.legacy's Batch).
    yield Rename(
        "utilities.apply_func.move_data_to_device",
        "utilities.move_data_to_device",
        "function",
        "1.8",
        "2.0",
        RULE,
        (PL,),
    )


def _profiler_rows() -> Iterator[Rename]:
    """``pytorch_lightning.profiler`` -> ``pytorch_lightning.profilers`` (rule ``profiler_package``).

    1.7.7's profiler/simple.py (and advanced, pytorch, xla, base): "`pytorch_lightning.profiler.SimpleProfiler` is
    deprecated in v1.7 and will be removed in v1.9. Use the equivalent `pytorch_lightning.profilers.SimpleProfiler`",
    each a subclass that only warns; 1.9.5 keeps the package raising. ``BaseProfiler`` is a subclass of ``Profiler``
    from 1.7 ("deprecated in v1.6 ... Please use `Profiler` instead"); 1.5.10's BaseProfiler has 2.6.6's
    ``Profiler.__init__(dirpath, filename)`` and methods. ``AbstractProfiler`` was a bare ABC of five abstract methods
    (no __init__, no describe/profile, which 2.x's Trainer calls and whose attributes Profiler.__init__ sets): no
    exact successor, a TODO. 1.5.10's ``profiler.profilers`` re-exported them all (deprecated in 1.4, gone in 1.6).
    """
    rule = "profiler_package"
    for module, name in (
        ("simple", "SimpleProfiler"),
        ("advanced", "AdvancedProfiler"),
        ("pytorch", "PyTorchProfiler"),
        ("xla", "XLAProfiler"),
        ("base", "PassThroughProfiler"),
    ):
        for old in (f"profiler.{name}", f"profiler.profilers.{name}"):
            yield Rename(old, f"profilers.{name}", "class", "1.7", "1.9", rule, (PL,))
        yield Rename(f"profiler.{module}.{name}", f"profilers.{module}.{name}", "class", "1.7", "1.9", rule, (PL,))
    for old in ("profiler.BaseProfiler", "profiler.profilers.BaseProfiler"):
        yield Rename(old, "profilers.Profiler", "class", "1.7", "1.8", rule, (PL,))
    yield Rename("profiler.base.BaseProfiler", "profilers.profiler.Profiler", "class", "1.7", "1.8", rule, (PL,))
    note = (
        "AbstractProfiler is gone in 1.8: subclass pytorch_lightning.profilers.Profiler and call its __init__ "
        "(2.x's Trainer calls profile() and describe(), which read the attributes it sets)"
    )
    for old in ("profiler.AbstractProfiler", "profiler.base.AbstractProfiler", "profiler.profilers.AbstractProfiler"):
        yield Rename(old, None, "class", "1.6", "1.8", rule, (PL,), note)
