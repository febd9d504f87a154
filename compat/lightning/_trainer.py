"""The 1.5 Trainer on the real 2.x: ``Trainer.__init__`` takes the 1.5 flags, ``from_argparse_args`` is back.

The wrapped ``__init__`` hands the call's keyword values to :func:`legacy_api.translate.translate` (the translation
``migrate-trainer`` shares), warns once per legacy flag at the user's line, raises the translation's error (a
:class:`~compat.lightning.RemovedFeatureError` for what 2.x removed, Lightning's MisconfigurationException for what
1.5 refused as well), and calls the real ``__init__`` with the 2.x flags. The flags as given stay on the trainer for
the 1.5 properties (:mod:`compat.lightning._properties`). Code already migrated passes through unchanged:
``migrate-trainer`` output is a fixed point of the translation (a second run changes nothing).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from compat._rows import compat_removed_in, flag_versions
from compat._warn import Notice, warn
from compat.lightning._names import removed_feature_error
from compat.lightning._patch import PatchLog
from legacy_api.launch_policy import under_pytest
from legacy_api.lightning15 import LEGACY_FLAGS
from legacy_api.removed_arguments import REMOVED_ARGUMENTS
from legacy_api.translate import Call, Use, translate

#: Set on each trainer the shim built: the keyword values as the user passed them.
GIVEN = "_compat_lightning_given"
#: Set on the trainer's accelerator: a weak reference to the strategy (1.5's ``accelerator.training_type_plugin``).
STRATEGY_REF = "_compat_lightning_strategy"


def _versions(use: Use) -> tuple[str, str]:
    flag = use.old.removeprefix("Trainer(").partition("=")[0]
    try:
        deprecated_in, removed_in = flag_versions(flag)
    except KeyError:
        deprecated_in, removed_in = "1.6", "2.0"
    return deprecated_in, compat_removed_in(removed_in)


def _notice(use: Use) -> Notice:
    return Notice(f"`{use.old}`", f"`{use.replacement}`", *_versions(use), rule=use.rule, rewrites=use.rewrites)


def _build(root: str, value: Any) -> Any:
    """A :class:`Call` of the translation made on this root (``find_usable_cuda_devices(2)``); lists inside."""
    if isinstance(value, list):
        return [_build(root, item) for item in value]
    if not isinstance(value, Call):
        return value
    module, _, name = f"{root}.{value.target}".rpartition(".")
    return getattr(importlib.import_module(module), name)(*value.args, **value.kwargs)


def legacy_kwargs(root: str, kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The 2.x keyword arguments for a 1.5 call on ``root``, after warning for each legacy use (or raising). Under
    pytest several devices 1.5 spawned keep ``ddp_spawn``, as migrate-trainer writes in a test suite."""
    result = translate(kwargs, test_suite=under_pytest())
    for use in result.uses:
        warn(_notice(use))
    if result.error is not None:
        from lightning_fabric.utilities.exceptions import MisconfigurationException

        error = removed_feature_error() if result.removed else MisconfigurationException
        flags = ", ".join(f"{key}={value!r}" for key, value in kwargs.items())
        raise error(f"Trainer({flags}): {result.error} (migrate-trainer rule `{result.error_rule}`)")
    return {key: _build(root, value) for key, value in result.kwargs.items()}


class PicklableRef:
    """A weak reference that survives pickling (``ref()`` as for ``weakref.ref``): ``ddp_spawn`` pickles the trainer
    into each child, and a plain ``weakref.ref`` on it (or on its accelerator) cannot be pickled. Pickled, it holds
    the object itself, which the same pickle rebuilds once (its memo): in the child it points at the child's copy."""

    def __init__(self, target: Any) -> None:
        self._ref = weakref.ref(target) if target is not None else None

    def __call__(self) -> Any:
        return self._ref() if self._ref is not None else None

    def __reduce__(self) -> tuple[Any, tuple[Any]]:
        return PicklableRef, (self(),)


def _wrap_init(root: str, original: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        new = legacy_kwargs(root, kwargs)
        try:
            original(self, *args, **new)
        except KeyError as error:
            _outside_the_cluster(new, error)
            raise
        except Exception as error:
            _spawn_in_a_notebook(error)
            raise
        self.__dict__[GIVEN] = dict(kwargs)
        accelerator = getattr(self, "accelerator", None)
        if accelerator is not None:
            accelerator.__dict__[STRATEGY_REF] = PicklableRef(self.strategy)

    return __init__


def _outside_the_cluster(kwargs: Mapping[str, Any], error: KeyError) -> None:
    """A cluster environment plugin read a variable of its job that this process lacks (``SLURMEnvironment()``
    outside SLURM: ``KeyError: 'SLURM_NODEID'``, as in 1.5): the error says so instead of a bare KeyError."""
    plugins = kwargs.get("plugins")
    items = plugins if isinstance(plugins, list | tuple) else [plugins]
    names = [type(item).__name__ for item in items if type(item).__name__.endswith("Environment")]
    if not names:
        return
    from lightning_fabric.utilities.exceptions import MisconfigurationException

    raise MisconfigurationException(
        f"plugins=[{', '.join(f'{name}()' for name in names)}] reads the environment variable {error} of its"
        " cluster's job, which this process does not have: run it inside that job, or leave the plugin out"
    ) from error


#: 2.x's refusal of a launcher that cannot start from a notebook (its ``_check_strategy_and_fallback``).
_NOTEBOOK = "is not compatible with an interactive environment"


def _spawn_in_a_notebook(error: Exception) -> None:
    """1.5 spawned (or re-ran the script) from a notebook, whose workers then failed to import its code; 2.x refuses
    it when the Trainer is built: that launcher is gone there, so the error is the removed feature's."""
    if _NOTEBOOK not in str(error):
        return
    raise removed_feature_error()(
        f"{error} 1.5 launched these processes from a notebook; 2.x no longer does: use strategy='ddp_notebook'"
        " (forked), or run the code as a script"
    ) from error


# --- argparse (gone in 2.0) ----------------------------------------------------------------------------------------
def _bool_or_str(text: str) -> bool | str:
    lowered = text.lower()
    if lowered in ("true", "t", "yes", "y", "1"):
        return True
    if lowered in ("false", "f", "no", "n", "0"):
        return False
    return text


def _int_or_str(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _number(text: str) -> int | float | str:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _parse_type(name: str, default: Any) -> Callable[[str], Any]:
    if name in ("gpus", "tpu_cores", "ipus", "devices", "num_processes"):
        return _int_or_str
    if isinstance(default, bool):
        return _bool_or_str
    if default is None:  # an Optional flag: a number, a bool word, or text (as 1.5's parsers read them)
        return lambda text: _number(text) if not isinstance(_bool_or_str(text), bool) else _bool_or_str(text)
    if isinstance(default, int | float):
        return _number
    return str


def trainer_arguments(trainer: Any) -> dict[str, Any]:
    """Every Trainer argument 1.5 code may pass, with its default: 2.x's own, the 1.5 flags, the removed ones."""
    signature = inspect.signature(trainer.__init__)
    names = {
        name: (None if param.default is inspect.Parameter.empty else param.default)
        for name, param in signature.parameters.items()
        if name != "self" and param.kind is not inspect.Parameter.VAR_KEYWORD
    }
    for flag in (*LEGACY_FLAGS, *(row.name for row in REMOVED_ARGUMENTS)):
        names.setdefault(flag, None)
    names["replace_sampler_ddp"] = True
    return names


def _argparse_notice(name: str) -> Notice:
    return Notice(
        f"`Trainer.{name}`",
        "`LightningCLI` (pytorch_lightning.cli), or your own argparse arguments passed to Trainer(...)",
        "1.9",
        compat_removed_in("2.0"),
        rule="argparse_flags",
    )


def _add_argparse_args(trainer: Any) -> Any:
    def add_argparse_args(parent_parser: argparse.ArgumentParser, **kwargs: Any) -> argparse.ArgumentParser:
        """1.5: every Trainer argument as ``--name`` (defaults from ``Trainer.__init__``)."""
        warn(_argparse_notice("add_argparse_args"))
        parser = parent_parser.add_argument_group("pl.Trainer")
        for name, default in trainer_arguments(trainer).items():
            if isinstance(default, list | dict | tuple) or callable(default):
                continue
            parse = _parse_type(name, default)
            nargs = "?" if isinstance(default, bool) else None
            const = True if nargs else None
            parser.add_argument(f"--{name}", dest=name, default=default, type=parse, nargs=nargs, const=const)
        return parent_parser

    return staticmethod(add_argparse_args)


def _from_argparse_args(trainer: Any) -> Any:
    def from_argparse_args(cls: Any, args: argparse.Namespace | Mapping[str, Any], /, **kwargs: Any) -> Any:
        """1.5: a Trainer from parsed arguments (the Trainer's own names only), ``kwargs`` overriding them."""
        warn(_argparse_notice("from_argparse_args"))
        params = vars(args) if isinstance(args, argparse.Namespace) else dict(args)
        known = trainer_arguments(cls)
        # Flags left at their default are not passed: 1.5 flags next to their 2.x spelling would otherwise clash.
        chosen = {k: v for k, v in params.items() if k in known and v != known[k]}
        chosen.update(kwargs)
        return cls(**chosen)

    return classmethod(from_argparse_args)


def install_trainer(root: str, log: PatchLog) -> Any:
    """Wrap ``<root>.Trainer.__init__`` and give the class its 1.5 argparse helpers; returns the Trainer class."""
    trainer = importlib.import_module(root).Trainer
    log.set_attr(trainer, "__init__", _wrap_init(root, trainer.__dict__["__init__"]))
    log.set_attr(trainer, "add_argparse_args", _add_argparse_args(trainer))
    log.set_attr(trainer, "from_argparse_args", _from_argparse_args(trainer))
    return trainer
