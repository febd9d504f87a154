"""IBM LSF with ``jsrun``: the Job Step Manager starts every process and exports its ranks."""

from __future__ import annotations

import os
import socket

from newcore import environ
from newcore.exceptions import MisconfigurationException
from newcore.plugins.environments.cluster_environment import ClusterEnvironment, env_int

_JSM_VARIABLES = ("JSM_NAMESPACE_SIZE", "JSM_NAMESPACE_RANK", "JSM_NAMESPACE_LOCAL_RANK")


class LSFEnvironment(ClusterEnvironment):
    """An LSF job step started by ``jsrun``.

    LSF lists the job's hosts in ``LSB_MCPU_HOSTS`` (``"batch 10 node1 2 node2 2"``: host, slot count, ...)
    or in the rank file ``LSB_DJOB_RANKFILE`` (one host per line). The first host is the launch node,
    which runs no training process, so it is skipped.
    """

    @property
    def creates_processes_externally(self) -> bool:
        return True

    @property
    def main_address(self) -> str:
        return self.compute_hosts()[0]

    @property
    def main_port(self) -> int:
        """``MASTER_PORT`` if set, else 10000 plus the job id modulo 1000, the same on every host of the job."""
        if environ.has("MASTER_PORT"):
            return env_int("MASTER_PORT")
        return 10000 + env_int("LSB_JOBID") % 1000

    @staticmethod
    def detect() -> bool:
        if "LSB_JOBID" not in os.environ:  # checked first: the connector asks on every construction
            return False
        has_hosts = environ.has("LSB_DJOB_RANKFILE") or environ.has("LSB_MCPU_HOSTS")
        return has_hosts and all(environ.has(name) for name in _JSM_VARIABLES)

    @staticmethod
    def compute_hosts() -> list[str]:
        """The job's distinct compute hosts in LSF's order, launch node excluded."""
        if environ.has("LSB_MCPU_HOSTS"):
            variable, hosts = "LSB_MCPU_HOSTS", os.environ["LSB_MCPU_HOSTS"].split()[::2]
        else:
            variable, hosts = "LSB_DJOB_RANKFILE", _read_rankfile()
        compute = list(dict.fromkeys(hosts[1:]))
        if not compute:
            raise MisconfigurationException(
                f"The environment variable `{variable}` lists no compute host after the launch node."
                " Run the script through `jsrun` inside an LSF job, or pass another `ClusterEnvironment` in `plugins`."
            )
        return compute

    def world_size(self) -> int:
        return env_int("JSM_NAMESPACE_SIZE")

    def set_world_size(self, size: int) -> None:
        """Ignored: ``jsrun`` fixed the world size."""

    def global_rank(self) -> int:
        return env_int("JSM_NAMESPACE_RANK")

    def set_global_rank(self, rank: int) -> None:
        """Ignored: ``jsrun`` assigned the rank."""

    def local_rank(self) -> int:
        return env_int("JSM_NAMESPACE_LOCAL_RANK")

    def node_rank(self) -> int:
        """This host's position among the compute hosts (0 if LSF does not list it, e.g. a test run)."""
        hosts = self.compute_hosts()
        hostname = socket.gethostname()
        return hosts.index(hostname) if hostname in hosts else 0


def _read_rankfile() -> list[str]:
    path = os.environ["LSB_DJOB_RANKFILE"]
    try:
        with open(path, encoding="utf-8") as file:
            return [line.strip() for line in file if line.strip()]
    except OSError as error:
        raise MisconfigurationException(
            f"The environment variable `LSB_DJOB_RANKFILE={path!r}` names a file that cannot be read: {error}."
        ) from None
