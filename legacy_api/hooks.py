"""The hooks Lightning stopped calling or calls with other arguments, and what to write instead.

Which hooks each release has, and with which signature, comes from the recorded surfaces (:mod:`legacy_api.surface`);
this table only adds what the recording cannot know: the successor of a removed hook, in the words of the upgrade
guide checked against the real releases (every successor named here is a member of the same class in 2.6.6; the
guide's own rows name ``on_training_epoch_end`` and ``training_batch_end``, which no release has), and the parameters
a hook taking ``*args`` no longer receives. Standard library only; read by ``codemods`` and ``compat``.
"""

from __future__ import annotations

import functools
import re

from legacy_api._rename import version_tuple
from legacy_api.surface import RELEASES, arguments, surface

#: The Lightning classes whose hooks a user's subclass overrides: public path -> the short name used below. A base
#: renamed in some release has one path a name, newest first: a release's class is the first path it has (1.5's
#: TrainingTypePlugin is 1.6's Strategy; 2.1's Precision is PrecisionPlugin, whose old name 2.2 dropped).
HOOK_BASES: dict[str, str] = {
    "pytorch_lightning.LightningModule": "LightningModule",
    "pytorch_lightning.Callback": "Callback",
    "pytorch_lightning.LightningDataModule": "LightningDataModule",
    "pytorch_lightning.callbacks.BaseFinetuning": "BaseFinetuning",
    "pytorch_lightning.plugins.precision.Precision": "PrecisionPlugin",
    "pytorch_lightning.plugins.PrecisionPlugin": "PrecisionPlugin",
    "pytorch_lightning.strategies.Strategy": "Strategy",
    "pytorch_lightning.plugins.TrainingTypePlugin": "Strategy",
    "pytorch_lightning.plugins.environments.ClusterEnvironment": "ClusterEnvironment",
    "pytorch_lightning.accelerators.Accelerator": "Accelerator",
}

_EPOCH_END = (
    "{new}(self), which gets no outputs: append what {step} returns (detach the tensors you keep) to a list the "
    "module owns, read it there and clear it"
)
_EACH_EPOCH = (
    "on_train_epoch_{when}, on_validation_epoch_{when} and on_test_epoch_{when} (it ran around every epoch of each)"
)

#: (base, removed hook) -> what the target calls for the same logic.
SUCCESSORS: dict[tuple[str, str], str] = {
    ("LightningModule", "training_epoch_end"): _EPOCH_END.format(new="on_train_epoch_end", step="training_step"),
    ("LightningModule", "validation_epoch_end"): _EPOCH_END.format(
        new="on_validation_epoch_end", step="validation_step"
    ),
    ("LightningModule", "test_epoch_end"): _EPOCH_END.format(new="on_test_epoch_end", step="test_step"),
    ("LightningModule", "training_step_end"): "on_train_batch_end(self, outputs, batch, batch_idx), where outputs is "
    "what training_step returned (2.x no longer gathers the outputs of strategy='dp')",
    ("LightningModule", "validation_step_end"): "on_validation_batch_end(self, outputs, batch, batch_idx, "
    "dataloader_idx=0)",
    ("LightningModule", "test_step_end"): "on_test_batch_end(self, outputs, batch, batch_idx, dataloader_idx=0)",
    ("LightningModule", "on_epoch_start"): _EACH_EPOCH.format(when="start"),
    ("LightningModule", "on_epoch_end"): _EACH_EPOCH.format(when="end"),
    ("LightningModule", "on_pretrain_routine_start"): "on_fit_start",
    ("LightningModule", "on_pretrain_routine_end"): "on_fit_start",
    ("LightningModule", "on_hpc_save"): "on_save_checkpoint",
    ("LightningModule", "on_hpc_load"): "on_load_checkpoint",
    ("LightningModule", "get_progress_bar_dict"): "the progress bar callback's get_metrics(trainer, pl_module)",
    ("LightningModule", "on_post_move_to_device"): "nothing: shared parameters are tied again automatically",
    ("LightningModule", "on_train_dataloader"): "train_dataloader() itself",
    ("LightningModule", "on_val_dataloader"): "val_dataloader() itself",
    ("LightningModule", "on_test_dataloader"): "test_dataloader() itself",
    ("LightningModule", "on_predict_dataloader"): "predict_dataloader() itself",
    ("LightningModule", "get_from_queue"): "nothing in the module: the spawn launcher returns the results",
    ("LightningModule", "add_to_queue"): "nothing in the module: the spawn launcher returns the results",
    ("LightningModule", "tbptt_split_batch"): "nothing: 2.0 removed truncated back-propagation through time "
    "(truncated_bptt_steps); split the sequence yourself in training_step",
    ("LightningDataModule", "on_save_checkpoint"): "state_dict(self), whose return value is saved",
    ("LightningDataModule", "on_load_checkpoint"): "load_state_dict(self, state_dict)",
    ("LightningDataModule", "on_train_dataloader"): "train_dataloader() itself",
    ("LightningDataModule", "on_val_dataloader"): "val_dataloader() itself",
    ("LightningDataModule", "on_test_dataloader"): "test_dataloader() itself",
    ("LightningDataModule", "on_predict_dataloader"): "predict_dataloader() itself",
    ("Callback", "on_epoch_start"): _EACH_EPOCH.format(when="start"),
    ("Callback", "on_epoch_end"): _EACH_EPOCH.format(when="end"),
    ("Callback", "on_batch_start"): "on_train_batch_start(self, trainer, pl_module, batch, batch_idx)",
    ("Callback", "on_batch_end"): "on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx)",
    ("Callback", "on_keyboard_interrupt"): "on_exception(self, trainer, pl_module, exception), where exception is a "
    "KeyboardInterrupt",
    ("Callback", "on_init_start"): "nothing: code before Trainer(...) runs there",
    ("Callback", "on_init_end"): "nothing: code after Trainer(...) runs there",
    ("Callback", "on_pretrain_routine_start"): "on_fit_start",
    ("Callback", "on_pretrain_routine_end"): "on_fit_start",
    ("Callback", "on_configure_sharded_model"): "setup(self, trainer, pl_module, stage)",
    ("Callback", "on_before_accelerator_backend_setup"): "setup(self, trainer, pl_module, stage)",
    # 1.5.10's ClusterEnvironment had both; 2.6.6's (lightning_fabric) the property only.
    ("ClusterEnvironment", "creates_children"): "the creates_processes_externally property",
    ("PrecisionPlugin", "master_params"): "main_params(self, optimizer)",
    ("Accelerator", "setup_environment"): "setup_device(self, device)",
    ("PrecisionPlugin", "dispatch"): "nothing: 2.0 calls no precision hook there; the strategy's setup(self, trainer) "
    "runs before the stage",
    ("Strategy", "dispatch"): "setup(self, trainer), which runs before the stage",
}

#: (base, hook) -> parameters 1.x passed that the target no longer passes, for hooks whose recorded signature is
#: ``(self, *args, **kwargs)`` (the names cannot be compared there), with what replaced each.
GONE_PARAMETERS: dict[tuple[str, str], dict[str, str]] = {
    ("LightningModule", "training_step"): {
        "optimizer_idx": "2.0 runs several optimizers only with manual optimization (self.automatic_optimization = "
        "False; self.optimizers())",
        "hiddens": "2.0 removed truncated back-propagation through time (truncated_bptt_steps): keep the hidden "
        "state yourself",
    },
    # 2.x's precision plugin calls model.backward(tensor, *args) with the backward's own arguments only: an override
    # that still requires these two fails with a TypeError at the first step.
    ("LightningModule", "backward"): {
        "optimizer": "2.0 calls backward(loss, *args, **kwargs) without the optimizer; with several optimizers use "
        "manual optimization (self.automatic_optimization = False; self.optimizers())",
        "optimizer_idx": "2.0 runs several optimizers only with manual optimization (self.automatic_optimization = "
        "False; self.optimizers())",
    },
    # 1.9.5: (self, tensor, model, optimizer, optimizer_idx, *args, **kwargs); 2.6.6 without optimizer_idx.
    ("PrecisionPlugin", "backward"): {
        "optimizer_idx": "2.0 calls backward(tensor, model, optimizer, *args) without it"
    },
    # 1.9.5: (self, closure_loss, optimizer, optimizer_idx, *args, **kwargs); 2.6.6 without optimizer_idx.
    ("Strategy", "backward"): {"optimizer_idx": "2.0 calls backward(closure_loss, optimizer, *args) without it"},
}


#: (base, hook) -> {parameter: the value 1.x always passed}: a parameter 2.x no longer passes whose 1.x value never
#: varied, so an override that still requires it runs as in 1.x with that value as its default. 1.5.10's training
#: epoch loop and TrainerCallbackHookMixin passed ``dataloader_idx=0`` to the training batch hooks of the module and of
#: every callback whose signature named it (``loops/epoch/training_epoch_loop.py``, ``trainer/callback_hook.py``).
CONSTANT_ARGUMENTS: dict[tuple[str, str], dict[str, str]] = {
    (base, hook): {"dataloader_idx": "0"}
    for base in ("LightningModule", "Callback")
    for hook in ("on_train_batch_start", "on_train_batch_end")
}

#: (base, hook) -> (the first release that passes the parameters only with several dataloaders, {parameter: the value
#: 1.x passed with one}). 1.5.10's evaluation and prediction loops passed ``dataloader_idx`` to these hooks of the
#: module and of every callback always, 0 with one dataloader; 2.0 passes it only where there are several (Lightning
#: PR 16753). Recorded on 2.6.6 with one dataloader: a LightningModule hook that requires it raises a RuntimeError
#: before the first batch, a Callback hook a TypeError; with several both get the index as 1.5 gave it. An override
#: given the 1.x value as its default runs as in 1.5 either way.
OPTIONAL_ARGUMENTS: dict[tuple[str, str], tuple[str, dict[str, str]]] = {
    (base, f"on_{stage}_batch_{when}"): ("2.0", {"dataloader_idx": "0"})
    for base in ("LightningModule", "Callback")
    for stage in ("validation", "test", "predict")
    for when in ("start", "end")
}


def default_arguments(base: str, hook: str, target: tuple[int, ...]) -> dict[str, str]:
    """The parameters of ``base.hook`` that an override written for 1.x may take with their 1.x value as default at
    ``target`` (:data:`CONSTANT_ARGUMENTS`, and :data:`OPTIONAL_ARGUMENTS` from its release on): {name: value}."""
    if (base, hook) in CONSTANT_ARGUMENTS:
        return CONSTANT_ARGUMENTS[(base, hook)]
    optional = OPTIONAL_ARGUMENTS.get((base, hook))
    return optional[1] if optional is not None and target >= version_tuple(optional[0]) else {}


#: (base, hook) -> (the first release that no longer keeps what the hook returns, what to do instead). 1.5.10's
#: Trainer saved what Callback.on_save_checkpoint returned under checkpoint["callbacks"][state_key] and handed it to
#: on_load_checkpoint as callback_state; 1.8.6/1.9.5 raise a ValueError on a returned value ("deprecated in v1.6 and
#: is no longer supported as of v1.8"), 2.0.9 ... 2.6.6 call the hook and drop the value.
IGNORED_RETURNS: dict[tuple[str, str], tuple[str, str]] = {
    ("Callback", "on_save_checkpoint"): (
        "1.8",
        "return the state from state_dict() and restore it in load_state_dict(self, state_dict) (1.x saved the "
        "returned value and passed it to on_load_checkpoint as callback_state)",
    ),
}

#: The recorded 1.x releases: where a legacy project's hooks come from.
LEGACY_RELEASES = tuple(release for release in RELEASES if release.startswith("1."))


@functools.cache
def base_path(release: str, base: str) -> str | None:
    """The public path of Lightning's class ``base`` (a short name of :data:`HOOK_BASES`) in ``release``."""
    recorded = surface(release)
    return next((path for path, short in HOOK_BASES.items() if short == base and recorded.members(path)), None)


@functools.cache
def members(release: str, base: str) -> frozenset[str]:
    """The members of Lightning's class ``base`` (a short name of :data:`HOOK_BASES`) in ``release``."""
    path = base_path(release, base)
    return (surface(release).members(path) if path else None) or frozenset()


def signature(release: str, base: str, hook: str) -> str | None:
    """How ``release`` declares ``base``'s ``hook`` (None where it lacks it or the recording cannot tell)."""
    path = base_path(release, base)
    return surface(release).signature(f"{path}.{hook}") if path else None


_DATA = r"(train|val|test|predict)_dataloader|prepare_data|setup|teardown|transfer_batch_to_device"
#: Which members of each base are hooks, the methods Lightning calls on a subclass (the others, such as
#: ``LightningDataModule.from_argparse_args`` or ``LightningModule.log``, are API a subclass may shadow).
_HOOK = {
    "LightningModule": re.compile(
        rf"on_\w+|(training|validation|test|predict)_(step|step_end|epoch_end)|configure_\w+|optimizer_(step|zero_grad)"
        rf"|lr_scheduler_step|backward|get_progress_bar_dict|tbptt_split_batch|(add_to|get_from)_queue|{_DATA}"
    ),
    "Callback": re.compile(r"on_\w+|setup|teardown|state_dict|load_state_dict"),
    "LightningDataModule": re.compile(rf"on_\w+|state_dict|load_state_dict|{_DATA}"),
    "BaseFinetuning": re.compile(r"on_\w+|setup|teardown|state_dict|load_state_dict|finetune_function"),
}
#: A plugin's, strategy's, environment's or accelerator's public methods are all called by Lightning: a subclass
#: overrides them to change what the Trainer does.
_PUBLIC = re.compile(r"[a-z]\w*")


@functools.cache
def legacy_hooks(base: str) -> frozenset[str]:
    """Every hook ``base`` had in some recorded 1.x release."""
    return frozenset(
        name
        for release in LEGACY_RELEASES
        for name in members(release, base)
        if _HOOK.get(base, _PUBLIC).fullmatch(name)
    )


@functools.cache
def changed_hooks() -> frozenset[str]:
    """The 1.x methods of the hook bases that the newest release lacks or declares with other parameters, and the
    hooks of :data:`GONE_PARAMETERS`: the only ``def`` names whose overrides may need a TODO."""
    newest = surface(RELEASES[-1])
    names = {hook for _, hook in (*GONE_PARAMETERS, *OPTIONAL_ARGUMENTS)}
    for base in dict.fromkeys(HOOK_BASES.values()):
        for hook in legacy_hooks(base):
            now = signature(newest.release, base, hook)
            if hook not in members(newest.release, base) or any(
                signature(release, base, hook) not in (None, now) for release in LEGACY_RELEASES
            ):
                names.add(hook)
    return frozenset(names)


def parse_signature(signature: str | None) -> tuple[tuple[str, ...], int, bool] | None:
    """``(self, a, b=1, *args)`` -> (("a", "b"), 1 required, takes ``*args``); None where the signature is unknown."""
    args = arguments(signature)
    if args is None:
        return None
    names = tuple(a.arg for a in (*args.posonlyargs, *args.args))[1:]
    return names, len(names) - len(args.defaults), args.vararg is not None


#: The bases whose hooks share names and signatures (``on_save_checkpoint(self, checkpoint)``): where one of them
#: dropped a hook another keeps, the prefilter cannot tell the two ``def``\\s apart. The plugin bases' removed methods
#: (``Accelerator.training_step``) are named like current LightningModule hooks only by chance.
_SHARED_NAMES = ("LightningModule", "Callback", "LightningDataModule")


@functools.cache
def current_parameters(hook: str) -> frozenset[tuple[tuple[str, ...], bool]]:
    """How the newest release declares ``hook`` in each base that has it: (parameter names without ``self``, takes
    ``*args``). Empty where a base that had it lacks it now (``LightningDataModule.on_save_checkpoint``, which
    ``LightningModule`` keeps): a ``def`` written as another base's current hook may still be the removed one."""
    newest = RELEASES[-1]
    found = set()
    for base in dict.fromkeys(HOOK_BASES.values()):
        if hook not in members(newest, base):
            if base in _SHARED_NAMES and hook in legacy_hooks(base):
                return frozenset()
            continue
        parsed = parse_signature(signature(newest, base, hook))
        if parsed is not None:
            found.add((parsed[0], parsed[2]))
    return frozenset(found)


def removed_in(base: str, hook: str) -> str | None:
    """The minor release that first lacks ``base``'s ``hook`` after the last one that had it; None if still there."""
    present = [index for index, release in enumerate(RELEASES) if hook in members(release, base)]
    if not present or present[-1] + 1 >= len(RELEASES):
        return None
    return ".".join(RELEASES[present[-1] + 1].split(".")[:2])
