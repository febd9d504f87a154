"""TorchElastic / ``torchrun``: the elastic agent starts every process and exports its ranks."""

from __future__ import annotations

from newcore import environ
from newcore.plugins.environments.cluster_environment import ClusterEnvironment, env_int

_REQUIRED = ("RANK", "GROUP_RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE")


class TorchElasticEnvironment(ClusterEnvironment):
    """A process started by ``torchrun`` (or ``python -m torch.distributed.run``)."""

    @property
    def creates_processes_externally(self) -> bool:
        return True

    @property
    def main_address(self) -> str:
        return environ.get("MASTER_ADDR", "127.0.0.1")

    @property
    def main_port(self) -> int:
        return env_int("MASTER_PORT")

    @staticmethod
    def detect() -> bool:
        # GROUP_RANK and LOCAL_WORLD_SIZE are exported only by the elastic agent, unlike RANK/LOCAL_RANK.
        return all(environ.has(name) for name in _REQUIRED)

    def world_size(self) -> int:
        return env_int("WORLD_SIZE")

    def set_world_size(self, size: int) -> None:
        """Ignored: the elastic agent owns the world size (it may change between restarts)."""

    def global_rank(self) -> int:
        return env_int("RANK")

    def set_global_rank(self, rank: int) -> None:
        """Ignored: the elastic agent assigned the rank."""

    def local_rank(self) -> int:
        return env_int("LOCAL_RANK")

    def node_rank(self) -> int:
        return env_int("GROUP_RANK")
