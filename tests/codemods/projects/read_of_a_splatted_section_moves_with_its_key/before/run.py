import argparse

import yaml
from pytorch_lightning import Trainer

parser = argparse.ArgumentParser()
parser.add_argument("--config", default="configs/vae.yaml")
args = parser.parse_args()
with open(args.config) as file:
    config = yaml.safe_load(file)

# read as it is spelled: a subscript whose key moves with the configs (gpus -> devices, the same value)
pin_memory = len(config["trainer_params"]["gpus"]) != 0
workers = config['trainer_params']['gpus']
trainer = Trainer(max_steps=10, **config["trainer_params"])
