import sys

import yaml
from pytorch_lightning import Trainer

with open(sys.argv[1]) as f:
    config = yaml.safe_load(f)
pin = config["trainer_params"]["gpus"]
trainer = Trainer(**config["trainer_params"])
