"""Microsoft DeepSpeed's ZeRO: sharded optimizer state, gradients and (stage 3) parameters, with offloading."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import torch
from torch.nn import Module
from torch.optim import Optimizer

from newcore.exceptions import MisconfigurationException
from newcore.registry import Registry
from newcore.strategies.ddp import DEFAULT_PROCESS_GROUP_TIMEOUT, DDPStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin

ZERO_STAGES = (0, 1, 2, 3)
OFFLOAD_DEVICES = ("cpu", "nvme")


class DeepSpeedStrategy(DDPStrategy):
    """DeepSpeed ZeRO (stage 1-3) with optional CPU/NVMe offloading of optimizer state and parameters.

    ``config`` (a dict or the path of a DeepSpeed JSON file) takes precedence over the other arguments
    once training starts. Building the strategy never imports ``deepspeed``; :meth:`check_setup` asks
    whether it is installed. Like the other sharding strategies it leaves the model where it is at
    teardown: a ZeRO-3 model gathered onto the host may not fit there.
    """

    move_to_host_on_teardown: ClassVar[bool] = False

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        parallel_devices: list[torch.device] | None = None,
        cluster_environment: ClusterEnvironment | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
        process_group_backend: str | None = None,
        timeout: timedelta = DEFAULT_PROCESS_GROUP_TIMEOUT,
        stage: int = 2,
        offload_optimizer: bool = False,
        offload_parameters: bool = False,
        offload_params_device: str = "cpu",
        offload_optimizer_device: str = "cpu",
        nvme_path: str = "/local_nvme",
        config: str | Path | dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            cluster_environment=cluster_environment,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
            process_group_backend=process_group_backend,
            timeout=timeout,
        )
        if stage not in ZERO_STAGES:
            raise MisconfigurationException(
                f"DeepSpeed `stage={stage!r}` is not a ZeRO stage; use one of {ZERO_STAGES}."
            )
        for flag, device in (
            ("offload_params_device", offload_params_device),
            ("offload_optimizer_device", offload_optimizer_device),
        ):
            if device not in OFFLOAD_DEVICES:
                raise MisconfigurationException(f"DeepSpeed `{flag}={device!r}` must be one of {OFFLOAD_DEVICES}.")
        self.stage = stage
        self.offload_optimizer = offload_optimizer
        self.offload_parameters = offload_parameters
        self.offload_params_device = offload_params_device
        self.offload_optimizer_device = offload_optimizer_device
        self.nvme_path = nvme_path
        # Read lazily at setup: a path may only exist on the training nodes.
        self.config = config

    @classmethod
    def default_precision_plugin(cls, precision: str, device_type: str) -> PrecisionPlugin | None:
        # DeepSpeed casts and scales itself, for every precision; a generic plugin would do it twice.
        from newcore.plugins.precision.deepspeed import DeepSpeedPrecisionPlugin

        return DeepSpeedPrecisionPlugin(precision)

    def check_setup(self) -> None:
        super().check_setup()
        self._require_package("deepspeed", "pip install 'lightning-migrate[deepspeed]'")

    def setup_environment(self) -> None:
        self._require_package("deepspeed", "pip install 'lightning-migrate[deepspeed]'")
        super().setup_environment()

    def ds_config(self) -> dict[str, Any]:
        """The DeepSpeed config: ``config`` if given, else one built from the constructor arguments."""
        if isinstance(self.config, dict):
            return self.config
        if self.config is not None:
            return dict(json.loads(Path(self.config).read_text()))
        zero: dict[str, Any] = {"stage": self.stage}
        if self.offload_optimizer:
            zero["offload_optimizer"] = {"device": self.offload_optimizer_device, "nvme_path": self.nvme_path}
        if self.offload_parameters:
            zero["offload_param"] = {"device": self.offload_params_device, "nvme_path": self.nvme_path}
        return {"train_micro_batch_size_per_gpu": 1, "zero_optimization": zero}

    def setup_module_and_optimizers(
        self, module: Module, optimizers: list[Optimizer]
    ) -> tuple[Module, list[Optimizer]]:
        import deepspeed

        if len(optimizers) > 1:
            raise MisconfigurationException(f"`{self._flag}` trains with one optimizer, got {len(optimizers)}.")
        engine, optimizer, _, _ = deepspeed.initialize(
            model=module, optimizer=optimizers[0] if optimizers else None, config=self.ds_config()
        )
        self._modules.append(engine)
        return engine, [optimizer] if optimizers else []

    def setup_module(self, module: Module) -> Module:
        return self.setup_module_and_optimizers(module, [])[0]

    def unwrap_module(self, module: Module) -> Module:
        inner = getattr(module, "module", None)
        return inner if isinstance(inner, Module) else module

    def backward(self, tensor: torch.Tensor, module: Module | None = None, *args: Any, **kwargs: Any) -> None:
        engine = module if module is not None else self._modules[-1]
        engine.backward(tensor, *args, **kwargs)  # type: ignore[operator]

    def optimizer_step(self, optimizer: Optimizer, **kwargs: Any) -> Any:
        # The engine steps its own optimizer (and scaler, and gradient accumulation boundary).
        return self._modules[-1].step(**kwargs)  # type: ignore[operator]

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        offload_all = {"offload_optimizer": True, "offload_parameters": True}
        registry.register_table(
            cls,
            {
                "deepspeed": {},
                "deepspeed_stage_1": {"stage": 1},
                "deepspeed_stage_2": {"stage": 2},
                "deepspeed_stage_2_offload": {"stage": 2, "offload_optimizer": True},
                "deepspeed_stage_3": {"stage": 3},
                "deepspeed_stage_3_offload": {"stage": 3, **offload_all},
                "deepspeed_stage_3_offload_nvme": {
                    "stage": 3,
                    **offload_all,
                    "offload_params_device": "nvme",
                    "offload_optimizer_device": "nvme",
                },
            },
        )
