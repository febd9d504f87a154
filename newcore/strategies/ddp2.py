"""DDP across nodes with ``DataParallel`` inside each node (removed in Lightning 1.7)."""

from __future__ import annotations

from newcore.exceptions import MisconfigurationException
from newcore.registry import Registry
from newcore.strategies.ddp import DDPStrategy
from newcore.strategies.dp import _require_cuda
from newcore.strategies.strategy import Strategy


class DDP2Strategy(DDPStrategy):
    """One process per node that splits its batch over the node's GPUs; gradients are synced between nodes."""

    def check_setup(self) -> None:
        super().check_setup()
        _require_cuda(self)

    def setup_environment(self) -> None:
        raise MisconfigurationException(
            "`strategy='ddp2'` was removed in Lightning 1.7 and newcore does not train with it."
            " Use `strategy='ddp'` (one process per GPU), which gives the same results."
        )

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"ddp2": {}})
