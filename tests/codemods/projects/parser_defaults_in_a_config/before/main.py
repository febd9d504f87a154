import argparse

import yaml
from pytorch_lightning import Trainer


def main():
    parser = argparse.ArgumentParser()
    with open("config/config.yaml") as f:
        for key, value in yaml.safe_load(f).items():
            parser.add_argument(f"--{key}", default=value, type=type(value))
    parser = Trainer.add_argparse_args(parser)
    args = parser.parse_args()
    return Trainer.from_argparse_args(args)
