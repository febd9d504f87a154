"""DDP with optimizer state and gradients sharded across processes (ZeRO stage 2 style)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from torch.optim import Optimizer

from newcore.exceptions import MisconfigurationException
from newcore.registry import Registry
from newcore.strategies.ddp import DDPStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class _ShardingMixin(Strategy):
    """What every sharding strategy shares: its own mixed-precision plugin, and no Apex.

    Sharded optimizers keep fp32 master weights themselves, which Apex's ``amp.initialize`` would
    patch a second time; native AMP's grad scaler is the one that knows about shards.
    A sharded model is never gathered onto the host at teardown (it may not fit there).
    """

    move_to_host_on_teardown: ClassVar[bool] = False

    @classmethod
    def _mixed_precision_plugin(cls, precision: str, device_type: str) -> PrecisionPlugin:
        """The plugin for ``"16"``/``"bf16"`` that understands this strategy's sharded gradients."""
        from newcore.plugins.precision.sharded_native_amp import ShardedMixedPrecisionPlugin

        return ShardedMixedPrecisionPlugin(precision, device_type)

    @classmethod
    def default_precision_plugin(cls, precision: str, device_type: str) -> PrecisionPlugin | None:
        if precision in ("16", "bf16"):
            return cls._mixed_precision_plugin(precision, device_type)
        return None

    def check_setup(self) -> None:
        super().check_setup()
        from newcore.plugins.precision.apex_amp import ApexMixedPrecisionPlugin

        # The private field: the public property would create a default plugin just to inspect it.
        if isinstance(self._precision_plugin, ApexMixedPrecisionPlugin):
            raise MisconfigurationException(
                f"`{self._flag}` does not support NVIDIA Apex AMP. Use native AMP instead: pass precision=16"
                " (or 'bf16') without the ApexMixedPrecisionPlugin and without amp_backend='apex'."
            )


class _ZeroMixin(Strategy):
    """DDP plus torch's ``ZeroRedundancyOptimizer``: each rank keeps and steps only its shard of the optimizer state.

    Replaces FairScale's ``ShardedDataParallel``/``OSS`` that Lightning 1.6 used (FairScale is no longer
    maintained); ``ZeroRedundancyOptimizer`` ships with torch and keeps DDP's gradient all-reduce.
    """

    def setup_optimizer(self, optimizer: Optimizer) -> Optimizer:
        from torch.distributed.optim import ZeroRedundancyOptimizer

        groups = optimizer.param_groups
        defaults = {key: value for key, value in optimizer.defaults.items() if key != "params"}
        zero = ZeroRedundancyOptimizer(groups[0]["params"], optimizer_class=type(optimizer), **defaults)
        for group in groups[1:]:
            zero.add_param_group(dict(group))
        return super().setup_optimizer(zero)

    def optimizer_state(self, optimizer: Optimizer) -> dict[str, Any]:
        from torch.distributed.optim import ZeroRedundancyOptimizer

        if not isinstance(optimizer, ZeroRedundancyOptimizer):
            return super().optimizer_state(optimizer)
        optimizer.consolidate_state_dict(to=0)  # a collective: every rank sends its shard to rank 0
        return optimizer.state_dict() if self.is_global_zero else {}


class DDPShardedStrategy(_ShardingMixin, _ZeroMixin, DDPStrategy):
    """DDP with optimizer state sharded across the processes (``ZeroRedundancyOptimizer``) to save memory."""

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(
            cls, {"ddp_sharded": {}, "ddp_sharded_find_unused_parameters_false": {"find_unused_parameters": False}}
        )
