"""DDP with optimizer state and gradients sharded across processes (ZeRO stage 2 style)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    """

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


class DDPShardedStrategy(_ShardingMixin, DDPStrategy):
    """DDP with optimizer state and gradients sharded across the processes to save memory."""

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(
            cls, {"ddp_sharded": {}, "ddp_sharded_find_unused_parameters_false": {"find_unused_parameters": False}}
        )
