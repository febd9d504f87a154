"""Kubeflow's PyTorchJob operator: one pod per process, ranks exported by the operator."""

from __future__ import annotations

import os

from newcore import environ
from newcore.plugins.environments.cluster_environment import ClusterEnvironment, env_int
from newcore.plugins.environments.torchelastic_environment import TorchElasticEnvironment

_REQUIRED = ("KUBERNETES_PORT", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK")


class KubeflowEnvironment(ClusterEnvironment):
    """A PyTorchJob pod. Each pod runs one process, so the node rank is the global rank."""

    @property
    def creates_processes_externally(self) -> bool:
        return True

    @property
    def main_address(self) -> str:
        return os.environ["MASTER_ADDR"]

    @property
    def main_port(self) -> int:
        return env_int("MASTER_PORT")

    @staticmethod
    def detect() -> bool:
        # torchrun inside a Kubernetes pod exports the same variables; its richer ranks take precedence.
        return all(environ.has(name) for name in _REQUIRED) and not TorchElasticEnvironment.detect()

    def world_size(self) -> int:
        return env_int("WORLD_SIZE")

    def set_world_size(self, size: int) -> None:
        """Ignored: the operator fixed the world size."""

    def global_rank(self) -> int:
        return env_int("RANK")

    def set_global_rank(self, rank: int) -> None:
        """Ignored: the operator assigned the rank."""

    def local_rank(self) -> int:
        return 0

    def node_rank(self) -> int:
        return env_int("RANK")
