"""SLURM: ``srun`` starts every process and exports its ranks."""

from __future__ import annotations

import re

from newcore import environ
from newcore.exceptions import MisconfigurationException
from newcore.plugins.environments.cluster_environment import ClusterEnvironment, env_int

#: One host-list entry: name characters and bracket groups of numbers and ranges, e.g. ``rack[1-2]-n[01,03]``.
_HOST_PATTERN = re.compile(r"(?:[^\[\],\s]+|\[\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*\])+")
#: Job names SLURM gives an interactive shell allocation, where the user (not srun) starts processes.
_INTERACTIVE_JOB_NAMES = ("bash", "interactive")


class SLURMEnvironment(ClusterEnvironment):
    """A job whose processes ``srun`` started.

    Args:
        auto_requeue: whether the job should requeue itself when SLURM signals that time is up.
    """

    def __init__(self, auto_requeue: bool = True) -> None:
        self.auto_requeue = auto_requeue

    @property
    def creates_processes_externally(self) -> bool:
        return True

    @property
    def main_address(self) -> str:
        """The first host of ``SLURM_NODELIST`` (``"node[1-2],gpu3"`` gives ``"node1"``)."""
        nodelist = environ.get("SLURM_NODELIST", "").strip()
        return first_slurm_host(nodelist) if nodelist else "127.0.0.1"

    @property
    def main_port(self) -> int:
        """``MASTER_PORT`` if set, else 10000 plus the last four digits of the job id.

        Every task of the job computes the same port without talking to the others, and two jobs
        sharing a node are unlikely to collide.
        """
        if environ.has("MASTER_PORT"):
            return env_int("MASTER_PORT")
        if environ.has("SLURM_JOB_ID"):
            return 10000 + env_int("SLURM_JOB_ID") % 10000
        return 12910

    @staticmethod
    def detect() -> bool:
        return environ.has("SLURM_NTASKS") and SLURMEnvironment.job_name() not in _INTERACTIVE_JOB_NAMES

    @staticmethod
    def manages_tasks(num_devices: int, num_nodes: int) -> bool:
        """Whether SLURM started exactly one task per requested device, so newcore must launch nothing."""
        return SLURMEnvironment.detect() and env_int("SLURM_NTASKS") == num_devices * num_nodes

    @staticmethod
    def job_name() -> str | None:
        """``SLURM_JOB_NAME``; ``"bash"`` or ``"interactive"`` mark a shell allocation."""
        return environ.get("SLURM_JOB_NAME")

    @staticmethod
    def job_id() -> str | None:
        """The job id; for an array job, ``"<array job id>_<task id>"`` so each array task is distinct."""
        array_id = environ.get("SLURM_ARRAY_JOB_ID")
        if array_id is not None:
            return f"{array_id}_{environ.get('SLURM_ARRAY_TASK_ID', '')}"
        return environ.get("SLURM_JOB_ID")

    def world_size(self) -> int:
        return env_int("SLURM_NTASKS")

    def set_world_size(self, size: int) -> None:
        """Ignored: SLURM fixed the world size when it started the tasks."""

    def global_rank(self) -> int:
        return env_int("SLURM_PROCID")

    def set_global_rank(self, rank: int) -> None:
        """Ignored: SLURM assigned the rank."""

    def local_rank(self) -> int:
        return env_int("SLURM_LOCALID")

    def node_rank(self) -> int:
        return env_int("SLURM_NODEID")

    def validate_settings(self, num_devices: int, num_nodes: int) -> None:
        # In an interactive allocation the user starts the processes, so SLURM's task layout says nothing.
        if self.job_name() in _INTERACTIVE_JOB_NAMES:
            return
        if environ.has("SLURM_NTASKS_PER_NODE"):
            per_node = env_int("SLURM_NTASKS_PER_NODE")
            if per_node != num_devices:
                raise MisconfigurationException(
                    f"You set `devices={num_devices}`, but the SLURM job starts `--ntasks-per-node={per_node}`"
                    f" tasks per node, one per device. Set `devices={per_node}`, or change the job script."
                )
        if environ.has("SLURM_NNODES"):
            nodes = env_int("SLURM_NNODES")
            if nodes != num_nodes:
                raise MisconfigurationException(
                    f"You set `num_nodes={num_nodes}`, but the SLURM job runs on `--nodes={nodes}` nodes."
                    f" Set `num_nodes={nodes}`, or change the job script."
                )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(auto_requeue={self.auto_requeue})"


def first_slurm_host(nodelist: str) -> str:
    """The first host of a SLURM host list: ``"rack[1-2]-n[01,03],gpu3"`` gives ``"rack1-n01"``."""
    entry = _first_entry(nodelist.strip())
    if not _HOST_PATTERN.fullmatch(entry):
        raise MisconfigurationException(
            f"The environment variable `SLURM_NODELIST={nodelist!r}` is not a SLURM host list"
            " (e.g. 'node[1-4],gpu7'). Fix it in the job script, or pass another `ClusterEnvironment` in `plugins`."
        )
    # Each bracket group lists numbers and ranges; the first host takes the first number of every group.
    return re.sub(r"\[(\d+)[^\]]*\]", r"\1", entry)


def _first_entry(nodelist: str) -> str:
    """The first comma- or space-separated entry, ignoring commas inside brackets."""
    depth = 0
    for index, char in enumerate(nodelist):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char in ", " and depth == 0:
            return nodelist[:index]
    return nodelist
