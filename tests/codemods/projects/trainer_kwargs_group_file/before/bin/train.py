import hydra
from omegaconf import OmegaConf
from pytorch_lightning import Trainer
from pytorch_lightning.callbacks import ModelCheckpoint


@hydra.main(config_path="../conf", config_name="main")
def main(config):
    options = OmegaConf.to_container(config.trainer.kwargs, resolve=True)
    trainer = Trainer(callbacks=ModelCheckpoint(**config.trainer.checkpoint_kwargs), **options)
    trainer.fit(build(config))
