import yaml
from pytorch_lightning import Trainer

with open("configs/cpu.yaml") as file:
    config = yaml.safe_load(file)

# gpus: 0 becomes accelerator: cpu, devices: 1 -- the read becomes the expression that still gives 0 there
use_gpu = (config["trainer_params"]["devices"] if config["trainer_params"]["accelerator"] == "gpu" else 0) > 0
trainer = Trainer(**config["trainer_params"])
