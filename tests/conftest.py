"""Shared fixtures: the one place where hardware and clusters are faked, and the env-leak guard."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping

import pytest

from newcore.probe import FakeProbe, use_probe

#: Environment variables through which schedulers announce themselves. Tests start without them,
#: whatever the machine running the tests has, so that detection is decided by the test alone.
CLUSTER_VARIABLE_PREFIXES = (
    "SLURM_",
    "TORCHELASTIC_",
    "KUBERNETES_",
    "LSB_",
    "JSM_",
    "OMPI_",
    "HOROVOD_",
    "PMI_",
)
CLUSTER_VARIABLES = {
    "RANK",
    "LOCAL_RANK",
    "GROUP_RANK",
    "NODE_RANK",
    "WORLD_SIZE",
    "LOCAL_WORLD_SIZE",
    "MASTER_ADDR",
    "MASTER_PORT",
    "PL_TORCH_DISTRIBUTED_BACKEND",
    "PT_XLA_DEBUG",
    "CUBLAS_WORKSPACE_CONFIG",
}

#: Canned scheduler environments: rank 0 of a 2-node x 2-process job unless a test overrides values.
CLUSTERS: dict[str, dict[str, str]] = {
    "slurm": {
        "SLURM_NTASKS": "4",
        "SLURM_JOB_NAME": "train",
        "SLURM_NODELIST": "node[1-2]",
        "SLURM_JOB_ID": "1234",
        "SLURM_PROCID": "0",
        "SLURM_LOCALID": "0",
        "SLURM_NODEID": "0",
        "SLURM_NTASKS_PER_NODE": "2",
    },
    "torchelastic": {
        "TORCHELASTIC_RUN_ID": "run1",
        "RANK": "0",
        "LOCAL_RANK": "0",
        "GROUP_RANK": "0",
        "WORLD_SIZE": "4",
        "LOCAL_WORLD_SIZE": "2",
        "MASTER_ADDR": "127.0.0.1",
        "MASTER_PORT": "29500",
    },
    "kubeflow": {
        "KUBERNETES_PORT": "tcp://10.0.0.1:443",
        "MASTER_ADDR": "master-0",
        "MASTER_PORT": "23456",
        "WORLD_SIZE": "4",
        "RANK": "0",
    },
    "lsf": {
        "LSB_JOBID": "99",
        "LSB_MCPU_HOSTS": "batch 10 node1 2 node2 2",
        "JSM_NAMESPACE_SIZE": "4",
        "JSM_NAMESPACE_RANK": "0",
        "JSM_NAMESPACE_LOCAL_RANK": "0",
    },
}


#: Variables that pytest, or torch on a lazy first import, set by themselves.
_PYTEST_OWN = {"PYTEST_CURRENT_TEST", "TORCHINDUCTOR_CACHE_DIR"}


def _is_cluster_variable(name: str) -> bool:
    return name in CLUSTER_VARIABLES or name.startswith(CLUSTER_VARIABLE_PREFIXES)


@pytest.fixture(autouse=True)
def _no_env_leaks() -> Iterator[None]:
    """Start each test without scheduler variables and fail any test that leaves the environment changed."""
    hidden = {k: v for k, v in os.environ.items() if _is_cluster_variable(k)}
    for name in hidden:
        del os.environ[name]
    before = dict(os.environ)
    yield
    after = dict(os.environ)
    os.environ.clear()
    os.environ.update(before)
    os.environ.update(hidden)
    leaked = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)} - _PYTEST_OWN
    if leaked:
        pytest.fail(f"test leaked environment variables: {sorted(leaked)}", pytrace=False)


Machine = Callable[..., FakeProbe]


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[Machine]:
    """Fake the machine: ``machine(cuda=4, tpu=8, ipu=4, mps=True, packages={"horovod"},
    interactive=True, fork=False, cluster="slurm", env={"SLURM_NTASKS": "8"})``.

    The one place where tests fake hardware; everything else in the code under test is real.
    """
    stack: list[object] = []

    def fake(
        *,
        cuda: int = 0,
        mps: bool = False,
        tpu: int = 0,
        ipu: int = 0,
        packages: frozenset[str] | set[str] | tuple[str, ...] = (),
        interactive: bool = False,
        fork: bool = True,
        cluster: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> FakeProbe:
        variables = {**CLUSTERS[cluster]} if cluster else {}
        variables.update(env or {})
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        probe = FakeProbe(
            cuda=cuda,
            mps=mps,
            tpu=tpu,
            ipu=ipu,
            packages=frozenset(packages),
            interactive=interactive,
            fork=fork,
        )
        ctx = use_probe(probe)
        ctx.__enter__()
        stack.append(ctx)
        return probe

    yield fake
    while stack:
        stack.pop().__exit__(None, None, None)  # type: ignore[attr-defined]
