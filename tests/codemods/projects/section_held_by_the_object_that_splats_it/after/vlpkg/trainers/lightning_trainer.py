from omegaconf import OmegaConf, open_dict
from pytorch_lightning import Trainer

from vlpkg.trainers.base import BaseTrainer


class LightningTrainer(BaseTrainer):
    def __init__(self, config):
        super().__init__(config)
        self.trainer_config = self.config.trainer.params
        self.resume_from_checkpoint = None
        self.model = None

    def load_trainer(self):
        params = self.trainer_config
        with open_dict(params):
            params.pop("resume_from_checkpoint")
        kwargs = OmegaConf.to_container(params, resolve=True)
        self.trainer = Trainer(max_epochs=1, **kwargs)
