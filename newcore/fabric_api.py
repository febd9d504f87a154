"""The part of :class:`~newcore.runner.Runner` that speaks Lightning Fabric 2.x: collectives and helpers.

Names, signatures and defaults are Fabric 2.x's (``all_reduce(data, group=None, reduce_op="mean")``, ...), so a
loop written for Fabric runs on the Runner unchanged; the README's "Runner vs Fabric 2.x" table lists every
method and the few differences. :class:`FabricMethods` is a mixin: the Runner owns the strategy and the process.
"""

from __future__ import annotations

import logging
import os
import random
import warnings
from collections.abc import Generator, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch
from torch.nn import Module
from torch.optim import Optimizer
from torch.overrides import TorchFunctionMode

from newcore.collectives import apply_to_leaves, reduce_op_name, to_tensors
from newcore.exceptions import MisconfigurationException
from newcore.optimizer_wrapper import StrategyOptimizer
from newcore.warnings import NewcoreWarning

if TYPE_CHECKING:
    from newcore.strategies.strategy import Strategy

#: Fabric's bounds for a seed (numpy takes an unsigned 32-bit one).
_SEED_RANGE = range(0, 2**32)


def auto_flags(accelerator: Any, strategy: Any, devices: Any) -> tuple[Any, Any]:
    """``accelerator`` and ``strategy`` with Fabric 2.x's ``"auto"`` read as the connector's own defaults.

    ``strategy="auto"`` is no strategy flag (the connector's 1.6 selection); ``devices="auto"`` with no
    accelerator means ``accelerator="auto"``, which is what Fabric's defaults say. ``accelerator="auto"``
    and ``devices="auto"`` are connector spellings already.
    """
    if isinstance(strategy, str) and strategy.strip().lower() == "auto":
        strategy = None
    if accelerator is None and isinstance(devices, str) and devices.strip().lower() == "auto":
        accelerator = "auto"
    return accelerator, strategy


class FabricMethods:
    """Fabric 2.x's collectives and helpers, for a class that holds ``_strategy`` and sets processes up."""

    _strategy: Strategy

    if TYPE_CHECKING:

        def _require_process(self, what: str) -> None: ...

        def setup(self, module: Module, *optimizers: Optimizer) -> Any: ...

    # -- collectives ----------------------------------------------------------------------------

    def all_reduce(self, data: Any, group: Any | None = None, reduce_op: Any = "mean") -> Any:
        """``data`` (a tensor, a Python number, or a dict/list/tuple of them) reduced over all processes.

        ``reduce_op``: ``"mean"`` (default), ``"sum"``, ``"max"`` or ``"min"`` (or a
        ``torch.distributed.ReduceOp``), where the strategy can; anything else is an error, on one process
        too. Numbers come back as tensors; a tensor passed in holds the result in place (as in Fabric) and
        is returned. ``group``: a ``torch.distributed`` process group (default: all processes).
        """
        self._require_process("all_reduce")
        strategy = self._strategy
        name = reduce_op_name(reduce_op)
        if name is None or name not in strategy.reduce_ops:
            supported = ", ".join(repr(op) for op in strategy.reduce_ops)
            raise MisconfigurationException(
                f"`Runner.all_reduce(reduce_op={reduce_op!r})` is not supported with `{strategy._flag}`;"
                f" pass `reduce_op=` one of {supported}."
            )

        def reduce(value: Any) -> Any:
            if not isinstance(value, (torch.Tensor, bool, int, float)):
                return value
            tensor = to_tensors(value, strategy.root_device)
            reduced = strategy.all_reduce(tensor, name, group=group)
            if not isinstance(value, torch.Tensor) or value.device != reduced.device:
                return reduced
            with torch.no_grad():  # in place, as in Fabric; the collective carries no gradient anyway
                return value.copy_(reduced)

        return apply_to_leaves(data, reduce)

    def all_gather(self, data: Any, group: Any | None = None, sync_grads: bool = False) -> Any:
        """Every process's ``data`` (a tensor, a Python number, or a dict/list/tuple of them), gathered.

        Each tensor becomes one of shape ``(world_size, *shape)``; on a strategy that runs a single
        process it comes back as it is, with no new dimension (as in Fabric). ``sync_grads=True`` lets
        gradients flow back to every process's input. ``group``: a ``torch.distributed`` process group.
        """
        self._require_process("all_gather")
        data = to_tensors(data, self._strategy.root_device)
        if not self._strategy.is_distributed:
            return data
        return apply_to_leaves(
            data,
            lambda v: (
                self._strategy.all_gather(v, group=group, sync_grads=sync_grads) if isinstance(v, torch.Tensor) else v
            ),
        )

    @contextmanager
    def rank_zero_first(self, local: bool = False) -> Generator[None, None, None]:
        """Run the block on rank zero first (with ``local=True``: on each node's local rank zero), then on the rest.

        For downloads and preprocessing that one process should do before the others read the result.
        The waiting processes wait in a barrier, under the strategy's collective timeout.
        """
        self._require_process("rank_zero_first")
        first = (self._strategy.local_rank if local else self._strategy.global_rank) == 0
        if not first:
            self._strategy.barrier("rank_zero_first")
        yield
        if first:
            self._strategy.barrier("rank_zero_first")

    # -- helpers --------------------------------------------------------------------------------

    def _require_no_launcher(self) -> None:
        """Raise unless this process can train without a launcher (``Runner.launch()`` with no function)."""
        launcher = self._strategy.launcher
        from newcore.launchers.spawn import _SpawnLauncher
        from newcore.launchers.subprocess_script import _SubprocessScriptLauncher

        if launcher is None or isinstance(launcher, _SubprocessScriptLauncher):
            return  # the script launcher re-runs the script: each rank returns from launch() and trains
        if isinstance(launcher, _SpawnLauncher):
            how = "starts its workers with multiprocessing, which runs a function"
        else:
            how = "starts its processes to run a function"
        raise MisconfigurationException(
            f"`Runner.launch()` without a function cannot work with `{self._strategy._flag}`: it {how}."
            " Pass the training function, `runner.launch(train)`, or use `strategy='ddp'`, which re-runs"
            " the script for its other ranks (`python script.py`, or `torchrun --nproc_per_node=N script.py`)."
        )

    def print(self, *args: Any, **kwargs: Any) -> None:
        """Python's ``print`` on each node's local rank zero only (Fabric prints once per machine)."""
        if self._strategy.local_rank == 0:
            print(*args, **kwargs)

    def setup_module(self, module: Module, move_to_device: bool = True) -> Module:
        """Set up ``module`` alone (as ``setup(module)``), e.g. before making its optimizer under ``fsdp``."""
        if not move_to_device:
            raise MisconfigurationException(
                "`Runner.setup_module(module, move_to_device=False)` is not supported: the strategy places the"
                " module as it wraps it. Drop `move_to_device=False`."
            )
        wrapped: Module = self.setup(module)
        return wrapped

    def no_backward_sync(self, module: Module, enabled: bool = True) -> AbstractContextManager[Any]:
        """A context in which ``module``'s backward passes skip the gradient all-reduce (gradient accumulation).

        Run both the forward pass and :meth:`backward` inside it. DDP and FSDP skip the sync (their
        ``no_sync``); on one process there is nothing to skip; strategies that cannot skip warn and sync.
        """
        if not any(module is setup for setup in self._strategy._modules):
            raise MisconfigurationException(
                f"`Runner.no_backward_sync` needs the module `Runner.setup` returned, not {type(module).__name__}:"
                " pass `model` from `model = runner.setup(net, ...)`."
            )
        if not enabled or self._strategy.world_size == 1:
            return nullcontext()
        no_sync = _find_no_sync(module)
        if no_sync is None:
            warnings.warn(
                f"`{self._strategy._flag}` cannot skip the gradient synchronization: `Runner.no_backward_sync`"
                " does nothing here. Remove it, or choose `strategy='ddp'`.",
                NewcoreWarning,
                stacklevel=2,
            )
            return nullcontext()
        context: AbstractContextManager[Any] = no_sync()
        return context

    def clip_gradients(
        self,
        module: Module,
        optimizer: Optimizer,
        clip_val: float | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        error_if_nonfinite: bool = True,
    ) -> torch.Tensor | None:
        """Clip the gradients of ``optimizer``'s parameters by value (``clip_val``) or by norm (``max_norm``).

        Float16 gradients are unscaled first (the loss scaler's ``unscale_``), so the limits apply to the
        true gradients. Returns the total norm before clipping when ``max_norm`` is given, else ``None``.
        """
        if (clip_val is None) == (max_norm is None):
            raise MisconfigurationException(
                f"`Runner.clip_gradients(clip_val={clip_val!r}, max_norm={max_norm!r})`: pass exactly one of"
                " `clip_val=` (clip each gradient value) or `max_norm=` (clip the total norm)."
            )
        stepped = optimizer.optimizer if isinstance(optimizer, StrategyOptimizer) else optimizer
        scaler = getattr(self._strategy.precision_plugin, "scaler", None)
        if scaler is not None:
            scaler.unscale_(stepped)
        parameters = [p for group in stepped.param_groups for p in group["params"] if p.grad is not None]
        if clip_val is not None:
            torch.nn.utils.clip_grad_value_(parameters, clip_val)
            return None
        assert max_norm is not None
        sharded = _find_attribute(module, "clip_grad_norm_")  # FSDP: the norm spans every rank's shard
        if sharded is not None:
            norm: torch.Tensor = sharded(max_norm, norm_type)
            return norm
        return torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite=error_if_nonfinite)

    @staticmethod
    def seed_everything(seed: int | None = None, workers: bool | None = None, verbose: bool = True) -> int:
        """Seed Python's ``random``, numpy and torch (every device); return the seed.

        As Fabric's: ``seed=None`` reads ``PL_GLOBAL_SEED`` (else 0); the seed and ``workers`` (default
        ``True``) go into ``PL_GLOBAL_SEED``/``PL_SEED_WORKERS`` so that processes started later see them.
        """
        if seed is None:
            text = os.environ.get("PL_GLOBAL_SEED")
            try:
                seed = int(text) if text is not None else 0
            except ValueError:
                raise MisconfigurationException(
                    f"`PL_GLOBAL_SEED={text!r}` is not an integer seed; set it to one, or pass `seed=`."
                ) from None
        if int(seed) not in _SEED_RANGE:
            raise MisconfigurationException(
                f"`seed_everything(seed={seed!r})` is out of bounds: numpy takes seeds from 0 to"
                f" {_SEED_RANGE.stop - 1}. Pass one in that range."
            )
        seed = int(seed)
        if verbose:
            logging.getLogger(__name__).info("Seed set to %d", seed)
        os.environ["PL_GLOBAL_SEED"] = str(seed)
        os.environ["PL_SEED_WORKERS"] = str(int(workers if workers is not None else True))
        random.seed(seed)
        torch.manual_seed(seed)
        try:
            import numpy
        except ImportError:
            pass
        else:
            numpy.random.seed(seed)
        return seed

    def init_module(self, empty_init: bool | None = None) -> AbstractContextManager[None]:
        """A context in which modules are created on this process's device (in float64 under ``precision=64``).

        ``empty_init=True`` skips ``torch.nn.init`` (the weights hold uninitialised memory until a
        checkpoint is loaded into them); ``None`` and ``False`` initialise as usual.
        """
        self._require_process("init_module")
        return _init_context(self._strategy, empty=bool(empty_init))

    def load_raw(self, path: str | Path, obj: Module | Optimizer, strict: bool = True) -> None:
        """Load a plain state-dict file (``torch.save(model.state_dict(), path)``) into a module or optimizer.

        ``strict`` applies to modules: missing or unexpected keys are an error.
        """
        raw = self._strategy.load_checkpoint(path)
        if isinstance(obj, Module):
            try:
                self._strategy.load_module_state(obj, raw, strict=strict)
            except RuntimeError as error:  # torch lists the missing and unexpected keys
                detail = " ".join(str(error).split())
                raise MisconfigurationException(
                    f"`Runner.load_raw({str(path)!r}, {type(obj).__name__})` does not fit: {detail}"
                    " Load it into the module it was saved from, or pass `strict=False`."
                ) from error
        elif isinstance(obj, Optimizer):
            self._strategy.load_optimizer_state(obj, raw)
        else:
            raise MisconfigurationException(
                f"`Runner.load_raw(path, obj)` loads into a module or an optimizer, not a {type(obj).__name__}."
                " For other objects use `obj.load_state_dict(torch.load(path))`."
            )


def _modules_within(module: Module) -> Iterator[Module]:
    """``module`` and the modules it wraps (``.module``, ``._forward_module``), outermost first."""
    seen: set[int] = set()
    current: Any = module
    while isinstance(current, Module) and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = getattr(current, "module", None) or getattr(current, "_forward_module", None)


def _find_attribute(module: Module, name: str) -> Any:
    return next((getattr(m, name) for m in _modules_within(module) if callable(getattr(m, name, None))), None)


def _find_no_sync(module: Module) -> Any:
    return _find_attribute(module, "no_sync")


class _SkipInit(TorchFunctionMode):
    """Turns every ``torch.nn.init`` function into a no-op that returns its tensor."""

    def __torch_function__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None
    ) -> Any:
        if getattr(func, "__module__", None) == "torch.nn.init":
            return args[0] if args else (kwargs or {}).get("tensor")
        return func(*args, **(kwargs or {}))


@contextmanager
def _init_context(strategy: Strategy, empty: bool) -> Generator[None, None, None]:
    with ExitStack() as stack:
        stack.enter_context(strategy.root_device)
        if strategy.precision_plugin.precision == "64":
            previous = torch.get_default_dtype()
            torch.set_default_dtype(torch.float64)
            stack.callback(torch.set_default_dtype, previous)
        if empty:
            stack.enter_context(_SkipInit())
        yield
