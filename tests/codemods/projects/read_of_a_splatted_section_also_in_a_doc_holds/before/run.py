import yaml
from pytorch_lightning import Trainer

with open("configs/vae.yaml") as f:
    config = yaml.safe_load(f)
pin = len(config["trainer_params"]["gpus"]) > 0
trainer = Trainer(**config["trainer_params"])
