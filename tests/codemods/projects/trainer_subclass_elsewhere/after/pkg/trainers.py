"""The project's Trainers: train.py builds them without importing Lightning itself."""
from pytorch_lightning import Trainer


class BaseTrainer(Trainer):
    """Hands every flag on."""


class ClusterTrainer(BaseTrainer):
    def __init__(self, num_nodes=1, **kwargs):
        super().__init__(num_nodes=num_nodes, **kwargs)
