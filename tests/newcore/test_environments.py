"""Cluster environments: detection, ranks and rendezvous read from real environment variables."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from newcore.exceptions import MisconfigurationException
from newcore.plugins.environments import (
    ClusterEnvironment,
    KubeflowEnvironment,
    LightningEnvironment,
    LSFEnvironment,
    SLURMEnvironment,
    TorchElasticEnvironment,
    lightning_environment,
)
from newcore.plugins.environments.lightning_environment import find_free_network_port
from tests.conftest import Machine

#: The canned cluster in tests/conftest.py for each scheduler environment.
CLUSTER_OF: dict[str, type[ClusterEnvironment]] = {
    "slurm": SLURMEnvironment,
    "torchelastic": TorchElasticEnvironment,
    "kubeflow": KubeflowEnvironment,
    "lsf": LSFEnvironment,
}
SCHEDULERS = list(CLUSTER_OF.values())


@pytest.mark.parametrize(
    ("cluster", "env", "detected"),
    [
        pytest.param(None, {}, set(), id="no scheduler: none detected"),
        pytest.param("slurm", {}, {SLURMEnvironment}, id="slurm batch job"),
        pytest.param("slurm", {"SLURM_JOB_NAME": "bash"}, set(), id="slurm interactive bash is not managed"),
        pytest.param("slurm", {"SLURM_JOB_NAME": "interactive"}, set(), id="slurm 'interactive' is not managed"),
        pytest.param("torchelastic", {}, {TorchElasticEnvironment}, id="torchrun"),
        pytest.param(
            "torchelastic", {"KUBERNETES_PORT": "tcp://x:443"}, {TorchElasticEnvironment}, id="torchrun in a pod"
        ),
        pytest.param("kubeflow", {}, {KubeflowEnvironment}, id="kubeflow pytorchjob"),
        pytest.param("lsf", {}, {LSFEnvironment}, id="lsf with LSB_MCPU_HOSTS"),
        pytest.param(None, {"LSB_JOBID": "1", "LSB_MCPU_HOSTS": "a 1 b 1"}, set(), id="lsf without jsrun ranks"),
    ],
)
def test_detect(
    machine: Machine, cluster: str | None, env: dict[str, str], detected: set[type[ClusterEnvironment]]
) -> None:
    machine(cluster=cluster, env=env)
    assert {cls for cls in SCHEDULERS if cls.detect()} == detected
    assert LightningEnvironment.detect()


@pytest.mark.parametrize(
    ("cluster", "env", "expected"),
    [
        pytest.param(
            "slurm",
            {"SLURM_PROCID": "3", "SLURM_LOCALID": "1", "SLURM_NODEID": "1"},
            (4, 3, 1, 1, "node1", 11234),
            id="slurm rank 3 of 4",
        ),
        pytest.param(
            "torchelastic",
            {"RANK": "2", "LOCAL_RANK": "0", "GROUP_RANK": "1"},
            (4, 2, 0, 1, "127.0.0.1", 29500),
            id="torchelastic rank 2 on node 1",
        ),
        pytest.param("kubeflow", {"RANK": "3"}, (4, 3, 0, 3, "master-0", 23456), id="kubeflow pod 3 is node 3"),
        pytest.param(
            "lsf",
            {"JSM_NAMESPACE_RANK": "1", "JSM_NAMESPACE_LOCAL_RANK": "1"},
            (4, 1, 1, 0, "node1", 10099),
            id="lsf rank 1, host not listed is node 0",
        ),
    ],
)
def test_ranks_and_rendezvous(
    machine: Machine, cluster: str, env: dict[str, str], expected: tuple[int, int, int, int, str, int]
) -> None:
    machine(cluster=cluster, env=env)
    cls = next(cls for cls in SCHEDULERS if cls.detect())
    environment = cls()
    assert environment.creates_processes_externally
    got = (environment.world_size(), environment.global_rank(), environment.local_rank(), environment.node_rank())
    assert (*got, environment.main_address, environment.main_port) == expected


@pytest.mark.parametrize("cluster", sorted(CLUSTER_OF))
def test_scheduler_owned_ranks_ignore_setters(machine: Machine, cluster: str) -> None:
    machine(cluster=cluster)
    environment = CLUSTER_OF[cluster]()
    environment.set_world_size(99)
    environment.set_global_rank(42)
    assert (environment.world_size(), environment.global_rank()) == (4, 0)


@pytest.mark.parametrize(
    ("cluster", "variable", "value"),
    [
        pytest.param("slurm", "SLURM_NTASKS", "abc", id="slurm world size"),
        pytest.param("slurm", "SLURM_PROCID", "1.0", id="slurm global rank"),
        pytest.param("torchelastic", "LOCAL_RANK", "", id="torchelastic empty local rank"),
        pytest.param("kubeflow", "RANK", "zero", id="kubeflow rank"),
        pytest.param("lsf", "JSM_NAMESPACE_SIZE", "4x", id="lsf world size"),
    ],
)
def test_malformed_variable_is_named(machine: Machine, cluster: str, variable: str, value: str) -> None:
    machine(cluster=cluster, env={variable: value})
    environment = CLUSTER_OF[cluster]()
    with pytest.raises(MisconfigurationException, match=f"`{variable}={value!r}` must be an integer"):
        (environment.world_size(), environment.global_rank(), environment.local_rank())


# -- LightningEnvironment -------------------------------------------------------------------------


def test_lightning_defaults() -> None:
    environment = LightningEnvironment()
    assert not environment.creates_processes_externally
    assert environment.main_address == "127.0.0.1"
    assert (environment.world_size(), environment.global_rank(), environment.local_rank()) == (1, 0, 0)
    assert environment.node_rank() == 0


def test_lightning_ranks_come_from_setters_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setenv("GROUP_RANK", "2")
    environment = LightningEnvironment()
    environment.set_world_size(8)
    environment.set_global_rank(5)
    assert environment.creates_processes_externally
    assert (environment.world_size(), environment.global_rank(), environment.local_rank()) == (8, 5, 1)
    assert environment.node_rank() == 2
    monkeypatch.setenv("NODE_RANK", "3")
    assert environment.node_rank() == 3


def test_lightning_free_port_is_chosen_once_and_not_exported() -> None:
    environment = LightningEnvironment()
    port = environment.main_port
    assert 0 < port < 65536
    assert environment.main_port == port
    assert "MASTER_PORT" not in os.environ


def test_lightning_free_port_is_below_the_ephemeral_range() -> None:
    # Outgoing connections take their local ports from the ephemeral range; a rendezvous port there can be
    # taken (or self-connected to) before rank 0 binds it.
    ports = {find_free_network_port() for _ in range(20)}
    assert all(lightning_environment._LOWEST_PORT <= port < lightning_environment._ephemeral_start() for port in ports)
    assert len(ports) > 1  # drawn, not the same port for every job


def test_lightning_free_port_falls_back_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lightning_environment, "_ephemeral_start", lambda: lightning_environment._LOWEST_PORT + 10)
    with pytest.warns(UserWarning, match="Set `MASTER_PORT`"):
        port = find_free_network_port()
    assert 0 < port < 65536


def test_lightning_port_and_address_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MASTER_ADDR", "10.1.2.3")
    monkeypatch.setenv("MASTER_PORT", "4242")
    environment = LightningEnvironment()
    assert (environment.main_address, environment.main_port) == ("10.1.2.3", 4242)


# -- SLURM ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nodelist", "address"),
    [
        pytest.param("node[1-2],gpu3", "node1", id="range then host"),
        pytest.param("gpu3,node[1-2]", "gpu3", id="plain host first"),
        pytest.param("node[001-004]", "node001", id="zero padding is kept"),
        pytest.param("node[3,1-2]", "node3", id="first number of a list"),
        pytest.param("rack[1-2]-n[07-08]", "rack1-n07", id="two bracket groups"),
        pytest.param("a b", "a", id="space-separated"),
    ],
)
def test_slurm_main_address(machine: Machine, nodelist: str, address: str) -> None:
    machine(cluster="slurm", env={"SLURM_NODELIST": nodelist})
    assert SLURMEnvironment().main_address == address


@pytest.mark.parametrize("nodelist", ["node[1-2", "node[a-b]", "n[1]]", ","])
def test_slurm_malformed_nodelist(machine: Machine, nodelist: str) -> None:
    machine(cluster="slurm", env={"SLURM_NODELIST": nodelist})
    with pytest.raises(MisconfigurationException, match=r"`SLURM_NODELIST=.*` is not a SLURM host list"):
        _ = SLURMEnvironment().main_address


@pytest.mark.parametrize(
    ("env", "port"),
    [
        pytest.param({"SLURM_JOB_ID": "98765"}, 18765, id="10000 + last four digits of the job id"),
        pytest.param({"SLURM_JOB_ID": "7"}, 10007, id="short job id"),
        pytest.param({"MASTER_PORT": "5555"}, 5555, id="MASTER_PORT wins"),
    ],
)
def test_slurm_main_port(machine: Machine, env: dict[str, str], port: int) -> None:
    machine(cluster="slurm", env=env)
    assert SLURMEnvironment().main_port == port
    assert os.environ.get("MASTER_PORT") == env.get("MASTER_PORT")


@pytest.mark.parametrize(
    ("cluster", "env", "devices", "nodes", "managed"),
    [
        pytest.param("slurm", {}, 2, 2, True, id="4 tasks for 2 devices x 2 nodes"),
        pytest.param("slurm", {}, 4, 2, False, id="4 tasks for 8 processes: we launch"),
        pytest.param("slurm", {"SLURM_JOB_NAME": "bash"}, 2, 2, False, id="interactive allocation"),
        pytest.param(None, {}, 1, 1, False, id="no slurm"),
    ],
)
def test_slurm_manages_tasks(
    machine: Machine, cluster: str | None, env: dict[str, str], devices: int, nodes: int, managed: bool
) -> None:
    machine(cluster=cluster, env=env)
    assert SLURMEnvironment.manages_tasks(devices, nodes) is managed


def test_slurm_validate_settings(machine: Machine) -> None:
    machine(cluster="slurm", env={"SLURM_NNODES": "2"})
    SLURMEnvironment().validate_settings(num_devices=2, num_nodes=2)
    with pytest.raises(MisconfigurationException, match=r"`devices=4`.*`--ntasks-per-node=2`.*Set `devices=2`"):
        SLURMEnvironment().validate_settings(num_devices=4, num_nodes=2)
    with pytest.raises(MisconfigurationException, match=r"`num_nodes=1`.*`--nodes=2`.*Set `num_nodes=2`"):
        SLURMEnvironment().validate_settings(num_devices=2, num_nodes=1)


def test_slurm_interactive_allocation_is_not_validated(machine: Machine) -> None:
    machine(cluster="slurm", env={"SLURM_JOB_NAME": "bash"})
    SLURMEnvironment().validate_settings(num_devices=1, num_nodes=1)


def test_slurm_job_id_and_requeue(machine: Machine) -> None:
    machine(cluster="slurm")
    assert SLURMEnvironment.job_id() == "1234"
    assert repr(SLURMEnvironment(auto_requeue=False)) == "SLURMEnvironment(auto_requeue=False)"
    machine(env={"SLURM_ARRAY_JOB_ID": "50", "SLURM_ARRAY_TASK_ID": "3"})
    assert SLURMEnvironment.job_id() == "50_3"


# -- LSF ------------------------------------------------------------------------------------------


def test_lsf_node_rank_is_this_hosts_position(machine: Machine) -> None:
    machine(cluster="lsf", env={"LSB_MCPU_HOSTS": f"batch 10 other 2 {socket.gethostname()} 2"})
    environment = LSFEnvironment()
    assert environment.node_rank() == 1
    assert environment.main_address == "other"


def test_lsf_rankfile(machine: Machine, tmp_path: Path) -> None:
    rankfile = tmp_path / "ranks"
    rankfile.write_text("launch\nnodeA\nnodeA\nnodeB\nnodeB\n")
    env = {"LSB_DJOB_RANKFILE": str(rankfile), "MASTER_PORT": "6000"}
    machine(cluster="lsf", env=env)
    del os.environ["LSB_MCPU_HOSTS"]  # restored by the env-leak guard
    assert LSFEnvironment.detect()
    assert LSFEnvironment.compute_hosts() == ["nodeA", "nodeB"]
    assert (LSFEnvironment().main_address, LSFEnvironment().main_port) == ("nodeA", 6000)


def test_lsf_unreadable_rankfile(machine: Machine, tmp_path: Path) -> None:
    machine(cluster="lsf", env={"LSB_DJOB_RANKFILE": str(tmp_path / "missing")})
    del os.environ["LSB_MCPU_HOSTS"]
    with pytest.raises(MisconfigurationException, match=r"`LSB_DJOB_RANKFILE=.*` names a file that cannot be read"):
        _ = LSFEnvironment().main_address


def test_lsf_without_compute_hosts(machine: Machine) -> None:
    machine(cluster="lsf", env={"LSB_MCPU_HOSTS": "batch 10"})
    with pytest.raises(MisconfigurationException, match="`LSB_MCPU_HOSTS` lists no compute host"):
        _ = LSFEnvironment().main_address


# -- nothing writes the environment ---------------------------------------------------------------


@pytest.mark.parametrize("cluster", sorted(CLUSTER_OF))
def test_reading_an_environment_writes_nothing(machine: Machine, cluster: str) -> None:
    machine(cluster=cluster)
    before = dict(os.environ)
    environment = CLUSTER_OF[cluster]()
    _ = (environment.main_address, environment.main_port, environment.creates_processes_externally)
    _ = (environment.world_size(), environment.global_rank(), environment.local_rank(), environment.node_rank())
    environment.validate_settings(num_devices=2, num_nodes=2)
    environment.teardown()
    assert dict(os.environ) == before
