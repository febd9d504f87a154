"""The default environment: processes started by newcore's own launcher (or by hand, one per node)."""

from __future__ import annotations

import random
import socket
import warnings
from pathlib import Path

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
    """A TCP port below the OS's ephemeral range that was free a moment ago.

    Not ``bind(("", 0))``: that hands out a port from the ephemeral range, the range every outgoing
    connection also draws its local port from. Between choosing the port and rank 0's store binding it, a
    client socket may take it (on Linux a rank connecting early can even connect to itself), and the
    rendezvous fails or hangs. Ports below the range are taken only by servers that bind them by number.
    """
    low, high = _LOWEST_PORT, _ephemeral_start()
    if high - low >= 1000:
        draw = random.SystemRandom()  # not `random`: a seeded generator gives every job the same ports
        for _ in range(64):
            port = draw.randrange(low, high)
            if _bindable(port):
                return port
    warnings.warn(
        f"newcore found no free port in {low}-{high - 1}, below the ephemeral range; using one the OS picks,"
        " which another connection may take before the processes meet. Set `MASTER_PORT` to choose it.",
        stacklevel=2,
    )
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("", 0))
        chosen: int = sock.getsockname()[1]
        return chosen


#: Above the 10000-19999 that the SLURM and LSF environments derive from job ids.
_LOWEST_PORT = 20000
#: IANA's dynamic range, which macOS and Windows use; Linux says its own in /proc.
_DEFAULT_EPHEMERAL_START = 49152


def _ephemeral_start() -> int:
    try:
        first = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0]
        return int(first)
    except (OSError, ValueError, IndexError):
        return _DEFAULT_EPHEMERAL_START


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("", port))
        except OSError:
            return False
        return True
