"""Cluster environments: what a scheduler tells each process about its job."""

from newcore.plugins.environments.cluster_environment import ClusterEnvironment
from newcore.plugins.environments.kubeflow_environment import KubeflowEnvironment
from newcore.plugins.environments.lightning_environment import LightningEnvironment
from newcore.plugins.environments.lsf_environment import LSFEnvironment
from newcore.plugins.environments.slurm_environment import SLURMEnvironment
from newcore.plugins.environments.torchelastic_environment import TorchElasticEnvironment

__all__ = [
    "ClusterEnvironment",
    "KubeflowEnvironment",
    "LSFEnvironment",
    "LightningEnvironment",
    "SLURMEnvironment",
    "TorchElasticEnvironment",
]
