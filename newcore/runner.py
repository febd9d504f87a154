"""The Runner: drives a user's own PyTorch loop through the strategy the connector chose (Lightning Lite style).

Example::

    def train(runner: Runner, epochs: int) -> dict[str, torch.Tensor]:
        model, optimizer = runner.setup(Net(), torch.optim.SGD(...))
        loader = runner.setup_dataloaders(DataLoader(dataset, batch_size=8, shuffle=True))
        for batch in loader:
            with runner.autocast():
                loss = model(runner.to_device(batch)).sum()
            runner.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        return model.state_dict()

    state = Runner(accelerator="cpu", strategy="ddp_spawn", devices=2).launch(train, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import timedelta
from pathlib import Path
from types import TracebackType
from typing import Any

import torch
from torch.nn import Module
from torch.optim import Optimizer
from torch.utils.data import DataLoader

from newcore import checkpoint, checkpoint_sharded, data
from newcore.collective_faults import apply_timeout, parse_timeout
from newcore.connector import AcceleratorConnector
from newcore.connector.torch_flags import Deterministic, set_torch_flags
from newcore.exceptions import MisconfigurationException
from newcore.fabric_api import FabricMethods, auto_flags
from newcore.launchers.joined import run_joined
from newcore.launchers.no_function import Launched, launch_without_function
from newcore.optimizer_wrapper import StrategyOptimizer, stepped
from newcore.precision_forward import apply_precision, restore_forward
from newcore.startup_checks import check_startup
from newcore.strategies.strategy import Strategy


class Runner(FabricMethods):
    """Run ``fn(runner, *args)`` on every process of the chosen strategy; same flags and defaults as the connector.

    Also takes Lightning Fabric 2.x's ``"auto"`` for ``strategy``/``accelerator``/``devices``, and has its
    collectives and helpers (:class:`~newcore.fabric_api.FabricMethods`).

    ``timeout`` (seconds or a ``timedelta``): how long a collective waits for the other ranks before it
    fails with a :class:`~newcore.collective_faults.CollectiveError` naming the ranks that did not arrive;
    unset, the strategy's own (torch's 30 minutes). Strategies without a process group ignore it.
    """

    def __init__(
        self,
        *,
        accelerator: Any = None,
        strategy: Any = None,
        devices: int | str | Sequence[int] | None = None,
        num_nodes: int = 1,
        precision: int | str | None = None,
        plugins: Any = None,
        sync_batchnorm: bool = False,
        benchmark: bool | None = None,
        deterministic: Deterministic = None,
        timeout: timedelta | float | None = None,
        **legacy: Any,
    ) -> None:
        accelerator, strategy = auto_flags(accelerator, strategy, devices)
        process_group_timeout = parse_timeout(timeout)
        connector = AcceleratorConnector(
            accelerator=accelerator,
            strategy=strategy,
            devices=devices,
            num_nodes=num_nodes,
            precision=precision,
            plugins=plugins,
            sync_batchnorm=sync_batchnorm,
            benchmark=benchmark,
            deterministic=deterministic,
            **legacy,
        )
        self._strategy: Strategy = connector.strategy
        apply_timeout(self._strategy, process_group_timeout)
        # Kept to re-apply in processes the launcher starts: torch's global switches do not survive a spawn.
        self._deterministic = deterministic
        self._benchmark = benchmark
        self._in_process = False
        # Modules whose forward runs in the training precision, restored at teardown.
        self._precision_modules: list[Module] = []
        # Open between `launch()` without a function and teardown (see newcore.launchers.no_function).
        self._launched: Launched | None = None

    # -- launching ------------------------------------------------------------------------------

    @property
    def strategy(self) -> Strategy:
        """The strategy the connector built."""
        return self._strategy

    def launch(self, fn: Callable[..., Any] | None = None, *args: Any, **kwargs: Any) -> Any:
        """Run ``fn(self, *args, **kwargs)`` in every process; return global rank zero's result.

        The strategy is set up before ``fn`` and torn down after it, also when it raises. Without ``fn``
        (Fabric's style), set this process up and return ``None``: the code after the call is the training,
        and :meth:`teardown` (or ``with runner:``) ends it. Under ``ddp`` run as ``python script.py``, rank 0
        first starts the other ranks by re-running the script (see :mod:`newcore.launchers.no_function`);
        torchrun/SLURM ranks just join. ``ddp_spawn``/``ddp_fork`` need a function to run: they raise.
        """
        launcher = self._strategy.launcher
        check_startup(self._strategy)
        if fn is None:
            self._require_no_launcher()
            set_torch_flags(self._deterministic, self._benchmark)
            if self._launched is None and not self._in_process:
                self._launched = launch_without_function(self._strategy)
                try:
                    self._setup_process()
                except BaseException as error:
                    self._finish(error)
                    raise
            return None
        if launcher is None:
            return run_joined(self._strategy, self._run, fn, *args, **kwargs)
        return launcher.launch(self._run, fn, *args, **kwargs)

    def _run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        set_torch_flags(self._deterministic, self._benchmark)
        self._setup_process()
        try:
            return fn(self, *args, **kwargs)
        finally:
            self.teardown()

    def _setup_process(self) -> None:
        if not self._in_process:
            self._strategy.setup_environment()
            self._in_process = True

    def _require_process(self, what: str) -> None:
        """Set up this process on first use, unless the strategy's processes only exist inside ``launch``."""
        if self._in_process:
            return
        if self._strategy.launcher is not None:
            raise MisconfigurationException(
                f"`Runner.{what}` must run inside the function given to `Runner.launch`:"
                f" `strategy={self._strategy.name!r}` trains in the processes that `launch` starts."
            )
        self._setup_process()

    # -- setting up -----------------------------------------------------------------------------

    def setup(self, module: Module, *optimizers: Optimizer) -> Any:
        """Move and wrap ``module`` (and make ``optimizers`` step through the strategy).

        Returns the module alone, or ``(module, *optimizers)`` when optimizers are given. Calling the returned
        module runs its forward in the training precision (``precision="bf16"``: under autocast, outputs
        back in float32), as in Lightning Fabric; :meth:`autocast` remains for code outside the module.
        """
        self._require_process("setup")
        wrapped, prepared = self._strategy.setup_module_and_optimizers(module, list(optimizers))
        self._precision_modules.append(apply_precision(wrapped, self._strategy.precision_plugin))
        if not optimizers:
            return wrapped
        return (wrapped, *(StrategyOptimizer.wrap(optimizer, self._strategy) for optimizer in prepared))

    def setup_optimizers(self, *optimizers: Optimizer) -> Any:
        """Set up optimizers made after :meth:`setup` (required by ``fsdp``); one optimizer or a tuple."""
        self._require_process("setup_optimizers")
        wrapped = [StrategyOptimizer.wrap(self._strategy.setup_optimizer(o), self._strategy) for o in optimizers]
        return wrapped[0] if len(wrapped) == 1 else tuple(wrapped)

    def setup_dataloaders(
        self, *loaders: DataLoader[Any], use_distributed_sampler: bool = True, move_to_device: bool = True
    ) -> Any:
        """Set up loaders as Lightning Fabric does; one loader or a tuple (see :mod:`newcore.data`).

        Args:
            use_distributed_sampler: when the strategy shards data, give each process its share (a
                ``DistributedSampler``, also inside a batch sampler). ``False`` keeps the loaders' sampling.
            move_to_device: move each batch to :attr:`device`.
        """
        self._require_process("setup_dataloaders")
        kwargs = self._strategy.distributed_sampler_kwargs if use_distributed_sampler else None
        result = data.setup_dataloaders(loaders, kwargs, self.device if move_to_device else None)
        return result[0] if len(result) == 1 else tuple(result)

    def to_device(self, obj: Any) -> Any:
        """``obj`` (a tensor, module, or nested list/tuple/dict of tensors) on this process's device."""
        if isinstance(obj, (torch.Tensor, Module)):
            return obj.to(self.device)
        if isinstance(obj, dict):
            return {key: self.to_device(value) for key, value in obj.items()}
        if isinstance(obj, (list, tuple)):
            return type(obj)(self.to_device(value) for value in obj)
        return obj

    # -- the training step ----------------------------------------------------------------------

    def backward(self, loss: torch.Tensor, *args: Any, model: Module | None = None, **kwargs: Any) -> None:
        """``loss.backward(*args, **kwargs)`` through the strategy (loss scaling, sharded gradients).

        ``model``: the module the loss came from, for DeepSpeed with several modules set up.
        """
        self._strategy.backward(loss, model, *args, **kwargs)

    def autocast(self) -> AbstractContextManager[None]:
        """The precision plugin's autocast context for the forward pass."""
        return self._strategy.precision_plugin.autocast()

    # -- collectives ----------------------------------------------------------------------------

    def barrier(self, name: str | None = None) -> None:
        """Wait for every process."""
        self._strategy.barrier(name)

    def broadcast(self, obj: Any, src: int = 0) -> Any:
        """``obj`` as process ``src`` has it."""
        return self._strategy.broadcast(obj, src)

    # all_reduce, all_gather and rank_zero_first: see FabricMethods.

    # -- checkpoints ----------------------------------------------------------------------------

    def save(self, path: str | Path, state: dict[str, Any]) -> None:
        """Save ``state`` from global rank zero: modules, optimizers and objects with ``state_dict`` as state dicts.

        Other values are saved as they are and must pickle. Call it on every process: sharding strategies
        gather the state collectively. See :mod:`newcore.checkpoint` for what each value becomes, and
        :mod:`newcore.checkpoint_sharded` for ``fsdp``'s ``state_dict_type="sharded"`` (a directory of shards).
        """
        if checkpoint_sharded.saves_sharded(self._strategy):
            return checkpoint_sharded.save(self._strategy, path, state, stepped)
        self._strategy.save_checkpoint(checkpoint.state_of(self._strategy, state, stepped), path)

    def load(self, path: str | Path, state: dict[str, Any] | None = None, strict: bool = True) -> dict[str, Any]:
        """Read a checkpoint and restore ``state`` in place; return the entries ``state`` does not name.

        Modules, optimizers and objects with ``load_state_dict`` load their saved state; other values of
        ``state`` are replaced by the saved ones. With ``strict``, an entry of ``state`` that the checkpoint
        lacks, or a module state dict with missing or unexpected keys, is an error. Call it on every process.
        """
        if checkpoint_sharded.is_sharded_checkpoint(path):
            return checkpoint_sharded.load(self._strategy, path, state, strict=strict)
        saved = self._strategy.load_checkpoint(path)
        return checkpoint.restore(self._strategy, saved, state, strict=strict, path=path)

    # -- where this process stands --------------------------------------------------------------

    @property
    def device(self) -> torch.device:
        """This process's device."""
        return self._strategy.root_device

    @property
    def global_rank(self) -> int:
        """Rank of this process in the job."""
        return self._strategy.global_rank

    @property
    def local_rank(self) -> int:
        """Rank of this process on its node."""
        return self._strategy.local_rank

    @property
    def node_rank(self) -> int:
        """Rank of this node."""
        return self._strategy.node_rank

    @property
    def world_size(self) -> int:
        """Number of processes in the job."""
        return self._strategy.world_size

    @property
    def is_global_zero(self) -> bool:
        """Whether this is global rank zero."""
        return self._strategy.is_global_zero

    # -- teardown -------------------------------------------------------------------------------

    def teardown(self) -> None:
        """Tear the strategy down (idempotent); ``launch`` and ``with Runner(...)`` call it for you.

        After ``launch()`` without a function, rank 0 then waits for the ranks it started and raises the
        error of any that failed.
        """
        self._finish(None)

    def _finish(self, error: BaseException | None) -> None:
        # The wrappers go before the strategy destroys the process group: a DDP wrapper freed after it holds the
        # group's last reference, and freeing the group there (under the GIL) deadlocks with a Gloo thread that
        # is still freeing the last collective's tensors (and waits for the GIL).
        while self._precision_modules:
            restore_forward(self._precision_modules.pop())
        self._strategy.teardown()
        self._in_process = False
        launched, self._launched = self._launched, None
        if launched is not None:
            launched.end(error)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self._finish(error)
