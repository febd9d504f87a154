import yaml
from pytorch_lightning import Trainer


def main(path):
    with open(path) as stream:
        config = yaml.safe_load(stream)
    trainer = Trainer(**config["trainer_params"])
    return trainer
