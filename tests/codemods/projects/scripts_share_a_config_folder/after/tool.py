import argparse

import pytorch_lightning as pl
from omegaconf import OmegaConf


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("config")
    args = parser.parse_args()
    cfg = OmegaConf.load(args.config)
    return pl.Trainer(**cfg.trainer)
