"""Checks made before a job's processes meet: layouts that would hang, or train every rank alone, fail at once.

Each of these used to run without a word: two nodes that each picked their own rendezvous port waited for
each other forever; SLURM tasks that the connector did not recognise as the job's ranks (``devices``
unset) all trained as rank 0 and wrote the same checkpoint; a ``torchrun`` job with another process
count than ``devices`` split its data and devices wrongly.
"""

from __future__ import annotations

from newcore import environ
from newcore.exceptions import MisconfigurationException
from newcore.plugins.environments import LightningEnvironment, SLURMEnvironment, TorchElasticEnvironment
from newcore.plugins.environments.cluster_environment import ClusterEnvironment, env_int
from newcore.strategies.parallel import ParallelStrategy
from newcore.strategies.strategy import Strategy


def check_startup(strategy: Strategy) -> None:
    """Raise :class:`~newcore.MisconfigurationException` if this process's job cannot form as configured."""
    env, devices, nodes = None, 1, 1
    if isinstance(strategy, ParallelStrategy):
        env, devices, nodes = strategy.cluster_environment, strategy.num_processes, strategy.num_nodes
    if nodes > 1 and isinstance(env, LightningEnvironment) and not environ.has("MASTER_PORT"):
        raise MisconfigurationException(
            f"`num_nodes={nodes}` needs one rendezvous port shared by every node, but `MASTER_PORT` is not set:"
            " each node would pick a free port of its own and wait for the others forever. Set `MASTER_ADDR`"
            " (node 0's address) and `MASTER_PORT` (a free port there) to the same values on every node,"
            " and `NODE_RANK` to each node's index."
        )
    if SLURMEnvironment.detect():
        _check_slurm(env, devices, nodes)
    if TorchElasticEnvironment.detect():
        _check_torchrun(devices, nodes)


def _check_slurm(env: ClusterEnvironment | None, devices: int, nodes: int) -> None:
    tasks = env_int("SLURM_NTASKS")
    if isinstance(env, SLURMEnvironment):
        env.validate_settings(devices, nodes)
        return
    if tasks <= nodes:
        return  # at most one task per node: newcore's launcher starts the processes on each node
    SLURMEnvironment().validate_settings(devices, nodes)
    raise MisconfigurationException(
        f"The SLURM job started {tasks} tasks, but `devices={devices}`, `num_nodes={nodes}` ask for"
        f" {devices * nodes} processes: every task would train on its own as rank 0. Set `devices` and"
        f" `num_nodes` so that their product is {tasks} (one task per device), or start one task per node."
    )


def _check_torchrun(devices: int, nodes: int) -> None:
    local, world = env_int("LOCAL_WORLD_SIZE"), env_int("WORLD_SIZE")
    if local != devices or world != devices * nodes:
        raise MisconfigurationException(
            f"torchrun started {local} processes per node ({world} in all), but `devices={devices}`,"
            f" `num_nodes={nodes}` ask for {devices} per node ({devices * nodes} in all). Pass"
            f" `devices={local}` and `num_nodes={max(1, world // max(1, local))}`, or change `--nproc-per-node`"
            " and `--nnodes`."
        )
