"""A latent-diffusion-style script: the device flag comes from the command line, not from a config."""

import argparse

from omegaconf import OmegaConf
from pytorch_lightning import Trainer


def main(argv: list[str]) -> Trainer:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", nargs="*", default=[])
    opt, unknown = parser.parse_known_args(argv)
    config = OmegaConf.merge(*[OmegaConf.load(path) for path in opt.base], OmegaConf.from_dotlist(unknown))
    lightning_config = config.pop("lightning", OmegaConf.create())
    if "gpus" in lightning_config.trainer:
        # TODO(migrate-trainer): lightning_config.trainer.gpus reads the Trainer flag gpus, which no config given here sets (a command line may): Lightning 2.0 takes accelerator="gpu", devices=N instead; migrate this read with what sets the key [config_reads]
        ngpu = len(lightning_config.trainer.gpus.strip(",").split(","))
    else:
        ngpu = 1
    print(f"training on {ngpu} device(s)")
    return Trainer(max_epochs=lightning_config.trainer.max_epochs)
