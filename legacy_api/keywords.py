"""Keyword arguments that later releases renamed or stopped taking, where the recorded signatures cannot say why.

Which keywords each release's classes and Trainer methods take comes from the recorded surfaces
(:mod:`legacy_api.surface`). This table adds the pure renames (the old keyword was an alias the release assigned to
the new one, checked in 1.5.10's source) and, for a keyword a class now forwards through ``**kwargs`` to something
else, what to pass instead. Standard library only; read by ``codemods`` (rule ``removed_keywords``) and ``compat``.
"""

from __future__ import annotations

import functools

from legacy_api.surface import RELEASES, arguments, surface

#: (owner, old keyword) -> the keyword that means the same. Owners are ``Trainer.<method>`` or a class's public path.
#: Each old keyword was deprecated in 1.4 and gone in 1.6; 1.5.10 assigned it to the new one (``train_dataloaders =
#: train_dataloader``), taking the old one when both were given.
RENAMED: dict[tuple[str, str], str] = {
    ("Trainer.fit", "train_dataloader"): "train_dataloaders",
    ("Trainer.tune", "train_dataloader"): "train_dataloaders",
    ("Trainer.validate", "val_dataloaders"): "dataloaders",
    ("Trainer.test", "test_dataloaders"): "dataloaders",
    ("pytorch_lightning.callbacks.ModelCheckpoint", "every_n_val_epochs"): "every_n_epochs",
    # Lightning's upgrade guide, 1.4 -> 1.5 (row 1.4-regular-04); 1.4.9's ModelCheckpoint set _every_n_epochs to
    # period after reading every_n_epochs ("period takes precedence over every_n_epochs for backwards compatibility");
    # 1.5.10's no longer takes it (recorded signature; a TypeError there).
    ("pytorch_lightning.callbacks.ModelCheckpoint", "period"): "every_n_epochs",
    # Deprecated in 1.5; 1.5.10's log/log_dict took sync_dist_op as reduce_fx where reduce_fx was left "default".
    ("pytorch_lightning.LightningModule.log", "sync_dist_op"): "reduce_fx",
    ("pytorch_lightning.LightningModule.log_dict", "sync_dist_op"): "reduce_fx",
    # 1.4.9/1.5.10 set instance = model where only model= was given; 1.6.5 dropped model= (sources of each release).
    ("pytorch_lightning.utilities.model_helpers.is_overridden", "model"): "instance",
}

#: (owner, old keyword) -> the keyword the target's class maps it to itself, with a deprecation warning: the same
#: meaning, so the codemod renames it (the warning goes), and compat has nothing to add. 2.x's CometLogger (comet_ml's
#: ``start()`` API) takes ``project=`` and ``name=`` (through ``**kwargs``) and maps the 1.x keywords to them (2.6.6's
#: source); 1.5.10 gave them to comet_ml's ``Experiment`` and ``set_name``.
MAPPED: dict[tuple[str, str], str] = {
    ("pytorch_lightning.loggers.CometLogger", "project_name"): "project",
    ("pytorch_lightning.loggers.CometLogger", "experiment_name"): "name",
}


def renamed_keyword(release: str, owner: str, keyword: str) -> str | None:
    """The keyword :data:`RENAMED` or :data:`MAPPED` give ``keyword`` of ``owner``, also where a call names the
    class by another of its paths (``pytorch_lightning.callbacks.model_checkpoint.ModelCheckpoint``): the classes'
    homes in ``release``'s recorded surface are compared."""
    found = RENAMED.get((owner, keyword)) or MAPPED.get((owner, keyword))
    if found is not None or owner.startswith("Trainer."):
        return found
    recorded = surface(release)
    home = recorded.resolve(owner)
    if home is None:
        return None
    pairs = (*RENAMED.items(), *MAPPED.items())
    return next((new for (other, old), new in pairs if old == keyword and recorded.resolve(other) == home), None)


def revalued(release: str, owner: str, keyword: str, written: str) -> str | None:
    """The value :data:`REVALUED` gives ``keyword=written`` of ``owner``, also where a call names the class by
    another of its paths (compared like :func:`renamed_keyword`)."""
    found = REVALUED.get((owner, keyword, written))
    if found is not None:
        return found
    recorded = surface(release)
    home = recorded.resolve(owner)
    if home is None:
        return None
    rows = REVALUED.items()
    return next(
        (
            new
            for (other, old, value), new in rows
            if (old, value) == (keyword, written) and recorded.resolve(other) == home
        ),
        None,
    )


#: Signatures the recordings lack, read in the real sources: the defining path (a function's, or a class's
#: ``__init__``) -> (the first minor it holds for, the signature it has from there to the newest recorded release).
#: The recordings hold classes' own methods only: a module's functions are absent, and 2.x's ``Logger`` defines no
#: ``__init__`` (nor does ``lightning_fabric``'s ``Logger`` it derives from), so ``object.__init__`` refuses every
#: argument: on real 2.6.6 ``super().__init__(agg_key_funcs={})`` in a ``Logger`` subclass raises ``TypeError:
#: object.__init__() takes exactly one argument``; 1.8.6 first lacks the ``__init__`` 1.7.7 deprecated.
UNRECORDED: dict[str, tuple[str, str]] = {
    "pytorch_lightning.utilities.model_helpers.is_overridden": ("1.6", "(method_name, instance=None, parent=None)"),
    "pytorch_lightning.loggers.logger.Logger.__init__": ("1.8", "(self)"),
}


def unrecorded(path: str, release: str) -> str | None:
    """The signature :data:`UNRECORDED` keeps for ``path`` at ``release`` (``"2.6.6"``), else None."""
    found = UNRECORDED.get(path)
    if found is None:
        return None
    since, signature = found
    minor = tuple(int(part) for part in release.split(".")[:2])
    return signature if minor >= tuple(int(part) for part in since.split(".")) else None


#: The methods of a Lightning class a call on ``self`` reaches (``self.log(...)`` in a LightningModule), whose
#: keywords are checked like a class's: (hook base, method) -> the method's public path.
SELF_METHODS: dict[tuple[str, str], str] = {
    ("LightningModule", "log"): "pytorch_lightning.LightningModule.log",
    ("LightningModule", "log_dict"): "pytorch_lightning.LightningModule.log_dict",
}

#: (owner, keyword, value as written) -> the value that means the same at the target, where a default's meaning
#: changed. LightningCLI(seed_everything_default=None) did not seed in 1.5.10 (``if seed is not None``); 2.x seeds
#: with a random seed unless the value is False (``_set_seed``). ModelCheckpoint(period=-1) only ever ran on 1.2 and
#: before, which saved no checkpoint at an epoch's end for a period below 1 (``self.period < 1  # no models are
#: saved``, 1.2.10); 1.3.8 and 1.4.9 rejected every_n_epochs < 0 (period set it), as 2.x does, where every_n_epochs=0
#: is the same "no epoch checkpoints" (sources of each release).
REVALUED: dict[tuple[str, str, str], str] = {
    ("pytorch_lightning.cli.LightningCLI", "seed_everything_default", "None"): "False",
    ("pytorch_lightning.callbacks.ModelCheckpoint", "period", "-1"): "0",
}

#: (owner, old keyword) -> (the keyword whose dict takes it, its key there): keywords 1.7 folded into one dict
#: (deprecated in 1.7, gone in 2.0; Lightning's upgrade guide, 1.9 advanced rows 26-27). 1.5.10's LightningCLI gave
#: them to its save_config_callback as (config_filename, overwrite=, multifile=); 2.6.6's gives it
#: ``**save_config_kwargs``, and SaveConfigCallback takes config_filename, overwrite and multifile (both sources).
FOLDED: dict[tuple[str, str], tuple[str, str]] = {
    ("pytorch_lightning.cli.LightningCLI", "save_config_filename"): ("save_config_kwargs", "config_filename"),
    ("pytorch_lightning.cli.LightningCLI", "save_config_overwrite"): ("save_config_kwargs", "overwrite"),
    ("pytorch_lightning.cli.LightningCLI", "save_config_multifile"): ("save_config_kwargs", "multifile"),
}

_AGGREGATE = "aggregate the metrics yourself before logging them (1.x merged one step's with it)"

#: (class name, keyword) -> what to write instead, for a keyword the target refuses with no one-to-one successor.
INSTEAD: dict[tuple[str, str], str] = {
    ("SimpleProfiler", "output_filename"): "pass dirpath= and filename= (the report goes to dirpath/filename)",
    ("AdvancedProfiler", "output_filename"): "pass dirpath= and filename= (the report goes to dirpath/filename)",
    # 1.0 split filepath= into the folder and the file name pattern (gone before 1.4: no recorded release takes it).
    ("ModelCheckpoint", "filepath"): "pass dirpath= (the folder) and filename= (the name pattern, without .ckpt)",
    # 1.5.10's LightningLoggerBase.agg_and_log_metrics merged the metrics logged at one step with them; 1.7.7
    # deprecated both ("deprecated in v1.6 and will be removed in v1.8"), and 2.x logs each call as it comes.
    # (FOLDED, where the call gives its save_config_callback a class of its own, which 1.5.10 handed config_filename
    # by position and 2.x hands it by name)
    ("LightningCLI", "save_config_filename"): 'pass save_config_kwargs={"config_filename": ...}',
    ("LightningCLI", "save_config_overwrite"): 'pass save_config_kwargs={"overwrite": ...}',
    ("LightningCLI", "save_config_multifile"): 'pass save_config_kwargs={"multifile": ...}',
    ("Logger", "agg_key_funcs"): _AGGREGATE,
    ("Logger", "agg_default_func"): _AGGREGATE,
}

#: (class name, parameter) -> what 1.x's default meant, for a parameter the target requires.
DEFAULTED: dict[tuple[str, str], str] = {
    ("EarlyStopping", "monitor"): "1.5.10 took None as the metric 'early_stop_on'",
}

_RECORDED = (
    "1.x recorded the functions it named; 2.x records every action it profiles (record_function('[pl][profile]...')), "
    "so drop it and wrap your own code in torch.profiler.record_function"
)

#: (class name, keyword) -> what to pass instead, for a keyword 1.x's class took itself and the target's forwards
#: through ``**kwargs`` (to torch's ``DistributedDataParallel`` for the DDP strategies: a ``TypeError`` there).
FORWARDED: dict[tuple[str, str], str] = {
    # 1.6-1.9's DDPStrategy never took these (a 1.5 DDPPlugin's are dropped: OVERRIDDEN).
    ("DDPStrategy", "num_nodes"): "pass Trainer(num_nodes=...) instead",
    ("DDPStrategy", "sync_batchnorm"): "pass Trainer(sync_batchnorm=True) instead",
    # 2.6.6 maps them itself, with a warning: save_dir to comet_ml's offline_directory (1.5 also wrote checkpoints
    # there, and ran offline where no api_key was given), offline to online, not inverted (offline=True runs online).
    ("CometLogger", "save_dir"): "2.x reads it as comet_ml's offline_directory= and no longer runs offline without an "
    "api_key: pass online=False for that, and ModelCheckpoint(dirpath=) for the checkpoints 1.x wrote there",
    ("CometLogger", "offline"): "2.x reads offline=True as online=True (not inverted): pass online=False instead",
    ("PyTorchProfiler", "profiled_functions"): _RECORDED,
    ("PyTorchProfiler", "record_functions"): _RECORDED,
}


#: A strategy's keyword the Trainer overwrites with its own flag (keyword -> (the Trainer flag, its default)): 1.5.10's
#: ``resolve_training_type_plugin`` set a plugin's ``num_nodes`` and ``sync_batchnorm`` from the Trainer's (run on
#: real 1.5.10: ``Trainer(strategy=DDPPlugin(num_nodes=2))`` has ``num_nodes`` 1), and every later release's
#: connector sets the strategy's ``num_nodes`` and layer sync from the Trainer too (2.6.6: ``_lazy_init_strategy``),
#: while 2.x's ``DDPStrategy`` forwards the keyword to torch's ``DistributedDataParallel`` (a ``TypeError`` at the
#: first ``fit``) and ``DeepSpeedStrategy`` refuses it. Dropping it keeps what 1.x ran.
OVERRIDDEN: dict[str, tuple[str, str]] = {
    "num_nodes": ("num_nodes", "1"),
    "sync_batchnorm": ("sync_batchnorm", "False"),
}


def required(signature: str | None) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """The parameters a recorded signature requires: (positional-or-keyword ones in order, keyword-only ones),
    ``self`` left out; None where it is unknown."""
    args = arguments(signature)
    if args is None:
        return None
    positional = [*args.posonlyargs, *args.args]
    bare = positional[: len(positional) - len(args.defaults)]
    kwonly = {a.arg for a, default in zip(args.kwonlyargs, args.kw_defaults, strict=True) if default is None}
    return tuple(a.arg for a in bare if a.arg != "self"), frozenset(kwonly)


def signature_keywords(signature: str | None) -> tuple[frozenset[str], bool] | None:
    """The keywords a recorded signature (``(self, a, *, b=1, **kwargs)``) accepts by name, and whether it takes
    ``**kwargs``; None where it is unknown."""
    args = arguments(signature)
    if args is None:
        return None
    return frozenset(a.arg for a in (*args.args, *args.kwonlyargs)), args.kwarg is not None


@functools.cache
def removed_keywords() -> frozenset[str]:
    """Every keyword some recorded 1.x release's Lightning class or Trainer method took and the newest release's
    same class or method does not name: what a call may pass that the target refuses or forwards (the prefilter's
    vocabulary for rule ``removed_keywords``)."""
    newest = surface(RELEASES[-1])
    found = {old for owner, old in RENAMED if owner not in UNRECORDED}
    for release in RELEASES:
        if not release.startswith("1."):
            continue
        old = surface(release)
        paths = [f"{path}.__init__" for path in sorted(old.aliases)]
        paths += [f"pytorch_lightning.Trainer.{method}" for method in ("fit", "validate", "test", "predict")]
        paths += sorted(SELF_METHODS.values())
        for path in paths:
            then, now = old.signature(path), newest.signature(path)
            if then is None or now is None or then == now:
                continue  # unknown, gone (another rule's matter) or the same
            before, after = signature_keywords(then), signature_keywords(now)
            if before is not None and after is not None:
                found.update(before[0] - after[0])
    found.update(keyword for _, keyword in FORWARDED)
    found.update(OVERRIDDEN)
    return frozenset(found - {"self"})


def function_keywords() -> dict[str, frozenset[str]]:
    """A Lightning function's name -> the keywords of it :data:`RENAMED` renames (``is_overridden``: ``model``):
    the prefilter's vocabulary for these, kept apart from :func:`removed_keywords` since ``model=`` alone is in
    every other file."""
    found: dict[str, set[str]] = {}
    for owner, old in RENAMED:
        if owner in UNRECORDED:
            found.setdefault(owner.rpartition(".")[2], set()).add(old)
    return {name: frozenset(keywords) for name, keywords in found.items()}
