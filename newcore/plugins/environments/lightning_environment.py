"""The default environment: processes started by newcore's own launcher (or by hand, one per node)."""

from __future__ import annotations

import socket

from newcore import environ
from newcore.plugins.environments.cluster_environment import ClusterEnvironment, env_int


class LightningEnvironment(ClusterEnvironment):
    """No scheduler: ranks come from the strategy, the rendezvous from ``MASTER_ADDR``/``MASTER_PORT`` if set.

    A multi-node job started by hand sets ``MASTER_ADDR``, ``MASTER_PORT``, ``NODE_RANK`` (and ``LOCAL_RANK``
    in processes it starts itself) on every node.
    """

    def __init__(self) -> None:
        self._main_port: int | None = None
        self._global_rank = 0
        self._world_size = 1

    @property
    def creates_processes_externally(self) -> bool:
        # LOCAL_RANK set means someone else already started this process as one of several.
        return environ.has("LOCAL_RANK")

    @property
    def main_address(self) -> str:
        return environ.get("MASTER_ADDR", "127.0.0.1")

    @property
    def main_port(self) -> int:
        """``MASTER_PORT`` if set, else a free port chosen once and reused for the life of this object.

        The port is not exported: the launcher passes it to the processes it starts.
        """
        if environ.has("MASTER_PORT"):
            return env_int("MASTER_PORT")
        if self._main_port is None:
            self._main_port = find_free_network_port()
        return self._main_port

    @staticmethod
    def detect() -> bool:
        return True

    def world_size(self) -> int:
        return self._world_size

    def set_world_size(self, size: int) -> None:
        self._world_size = size

    def global_rank(self) -> int:
        return self._global_rank

    def set_global_rank(self, rank: int) -> None:
        self._global_rank = rank

    def local_rank(self) -> int:
        return env_int("LOCAL_RANK", default=0)

    def node_rank(self) -> int:
        # torchrun-style launches call it GROUP_RANK; NODE_RANK is the Lightning name and wins.
        name = "NODE_RANK" if environ.has("NODE_RANK") else "GROUP_RANK"
        return env_int(name, default=0)


def find_free_network_port() -> int:
    """A TCP port that was free a moment ago on this host (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("", 0))
        port: int = sock.getsockname()[1]
        return port
