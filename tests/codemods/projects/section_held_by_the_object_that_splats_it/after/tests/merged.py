import torch
from omegaconf import OmegaConf


def on_this_machine(config):
    # merged over conf/defaults.yaml's trainer.params, whose only device key is gpus: this sets it
    return OmegaConf.merge(
        config, {"trainer": {"params": {"accelerator": "gpu" if torch.cuda.is_available() else "cpu", "devices": 1, "max_steps": 5}}}
    )
