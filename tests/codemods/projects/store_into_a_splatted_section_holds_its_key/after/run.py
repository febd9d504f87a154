import sys

import yaml
from pytorch_lightning import Trainer

with open("configs/vae.yaml") as file:
    config = yaml.safe_load(file)

# a store into the section writes the old key, and a read through another name is not followed: both hold it
if "--cpu" in sys.argv:
    config["trainer_params"]["gpus"] = 0
params = config["trainer_params"]
print(params["gpus"])
trainer = Trainer(**config["trainer_params"])
