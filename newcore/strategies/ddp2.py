"""DDP across nodes with ``DataParallel`` inside each node (removed in Lightning 1.7)."""

from __future__ import annotations

from newcore.registry import Registry
from newcore.strategies.ddp import DDPStrategy
from newcore.strategies.dp import _require_cuda
from newcore.strategies.strategy import Strategy


class DDP2Strategy(DDPStrategy):
    """One process per node that splits its batch over the node's GPUs; gradients are synced between nodes."""

    def check_setup(self) -> None:
        super().check_setup()
        _require_cuda(self)

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"ddp2": {}})
