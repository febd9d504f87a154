"""Fully sharded data parallel: parameters, gradients and optimizer state all sharded (ZeRO stage 3 style)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import torch
from torch.nn import Module
from torch.optim import Optimizer

from newcore.exceptions import MisconfigurationException
from newcore.registry import Registry
from newcore.strategies.ddp import DEFAULT_PROCESS_GROUP_TIMEOUT, DDPStrategy
from newcore.strategies.sharded import _ShardingMixin
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class DDPFullyShardedStrategy(_ShardingMixin, DDPStrategy):
    """Fully sharded data parallel: each process holds only its shard of parameters, gradients and optimizer state.

    Lightning 1.6 backed it with FairScale; newcore wraps torch's native
    ``torch.distributed.fsdp.FullyShardedDataParallel`` (which also works with Gloo on CPU) and passes
    ``fsdp_kwargs`` to it. Optimizers must be created from the *wrapped* module's parameters:
    ``model = runner.setup(model)``, then ``runner.setup_optimizers(SGD(model.parameters()))``.

    ``state_dict_type`` (Lightning Fabric's name): ``"full"`` (the default here; Fabric's is ``"sharded"``)
    makes ``Runner.save`` gather the whole model and optimizer state into one file on rank zero;
    ``"sharded"`` has every rank write its own shards into a directory with ``torch.distributed.checkpoint``
    (see :mod:`newcore.checkpoint_sharded`), which never holds the whole model in one process.
    ``Runner.load`` reads either kind, whatever this is set to.
    """

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        parallel_devices: list[torch.device] | None = None,
        cluster_environment: ClusterEnvironment | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
        process_group_backend: str | None = None,
        timeout: timedelta = DEFAULT_PROCESS_GROUP_TIMEOUT,
        cpu_offload: bool = False,
        state_dict_type: str = "full",
        **fsdp_kwargs: Any,
    ) -> None:
        if state_dict_type not in ("full", "sharded"):
            raise MisconfigurationException(
                f"`DDPFullyShardedStrategy(state_dict_type={state_dict_type!r})` is not a checkpoint format."
                ' Pass "full" (one file, gathered on rank zero) or "sharded" (a directory of per-rank shards).'
            )
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            cluster_environment=cluster_environment,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
            process_group_backend=process_group_backend,
            timeout=timeout,
        )
        self.cpu_offload = cpu_offload
        self.state_dict_type = state_dict_type
        self.fsdp_kwargs = fsdp_kwargs

    def module_to_device(self, module: Module) -> Module:
        # FSDP moves each shard to `device_id` itself; moving the whole model first could run the device out of memory.
        return module

    def _wrap_module(self, module: Module) -> Module:
        from torch.distributed.fsdp import CPUOffload, FullyShardedDataParallel

        if self.layer_sync is not None:
            module = self.layer_sync.apply(module)
        return FullyShardedDataParallel(
            module,
            device_id=self.root_device,
            cpu_offload=CPUOffload(offload_params=self.cpu_offload),
            **self.fsdp_kwargs,
        )

    def unwrap_module(self, module: Module) -> Module:
        from torch.distributed.fsdp import FullyShardedDataParallel

        return module.module if isinstance(module, FullyShardedDataParallel) else module

    def setup_optimizer(self, optimizer: Optimizer) -> Optimizer:
        wrapped = {id(p) for module in self._modules for p in module.parameters()}
        if any(id(p) not in wrapped for group in optimizer.param_groups for p in group["params"]):
            raise MisconfigurationException(
                f"`{self._flag}` flattens the parameters when it wraps the model, so an optimizer made before"
                " `runner.setup(model)` updates nothing. Set up the model first, then create the optimizer from"
                " the returned model's parameters and pass it to `runner.setup_optimizers`."
            )
        return super().setup_optimizer(optimizer)

    def module_state(self, module: Module, *, full: bool = True) -> dict[str, Any]:
        """``module``'s state dict: whole on every rank (``full``), or this rank's shards of it."""
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

        return get_model_state_dict(self._wrapped(module), options=StateDictOptions(full_state_dict=full))

    def optimizer_state(self, optimizer: Optimizer, *, full: bool = True) -> dict[str, Any]:
        """``optimizer``'s state dict, keyed by parameter names: whole (``full``), or this rank's shards."""
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict

        options = StateDictOptions(full_state_dict=full)
        return dict(get_optimizer_state_dict(self._module_of(optimizer), optimizer, options=options))

    def load_module_state(
        self, module: Module, state: dict[str, Any], strict: bool = True, *, full: bool = True
    ) -> None:
        from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict

        # Full: every rank holds the whole state dict (each read the file) and keeps only its shard of it.
        options = StateDictOptions(full_state_dict=full, strict=strict)
        set_model_state_dict(self._wrapped(module), state, options=options)

    def load_optimizer_state(self, optimizer: Optimizer, state: dict[str, Any], *, full: bool = True) -> None:
        from torch.distributed.checkpoint.state_dict import StateDictOptions, set_optimizer_state_dict

        options = StateDictOptions(full_state_dict=full)
        set_optimizer_state_dict(self._module_of(optimizer), optimizer, state, options=options)

    def _wrapped(self, module: Module) -> Module:
        """The FSDP module set up from ``module`` (the user may hold the module they passed to ``setup``)."""
        return next((m for m in self._modules if module is m or module is self.unwrap_module(m)), module)

    def _module_of(self, optimizer: Optimizer) -> Module:
        """The set-up module whose flat parameters ``optimizer`` steps."""
        stepped = {id(p) for group in optimizer.param_groups for p in group["params"]}
        return next((m for m in self._modules if any(id(p) in stepped for p in m.parameters())), self._modules[0])

    @classmethod
    def _mixed_precision_plugin(cls, precision: str, device_type: str) -> PrecisionPlugin:
        from newcore.plugins.precision.fully_sharded_native_amp import FullyShardedMixedPrecisionPlugin

        return FullyShardedMixedPrecisionPlugin(precision, device_type)

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"ddp_fully_sharded": {}, "fsdp": {}})
