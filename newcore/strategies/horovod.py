"""Horovod: ring all-reduce data parallel, with processes started by ``horovodrun``/``mpirun``."""

from __future__ import annotations

from newcore.registry import Registry
from newcore.strategies.parallel import ParallelStrategy
from newcore.strategies.strategy import Strategy


class HorovodStrategy(ParallelStrategy):
    """Data parallel through Horovod's all-reduce; horovodrun starts one process per device.

    There is no launcher: by the time this strategy runs, Horovod's own launcher has started every rank.
    """

    def check_setup(self) -> None:
        super().check_setup()
        self._require_package(
            "horovod",
            "pip install 'lightning-migrate[horovod]'",
            hint="If building the wheel fails, tools/install-horovod.sh builds Horovod with PyTorch support.",
        )

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"horovod": {}})
