"""Entry point: python -m legacy_project.train --gpus 2"""

import argparse

import pytorch_lightning as pl
import torch
from pytorch_lightning.plugins import NativeMixedPrecisionPlugin
from pytorch_lightning.plugins.environments import SLURMEnvironment

from legacy_project.plugins import QuietDDPPlugin


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpus", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=10)
    return parser.parse_args()


def build_trainer(args, model_dir):
    # The legacy way: device count, strategy and precision plugins all in one place.
    return pl.Trainer(
        gpus=2,
        accelerator="ddp",
        plugins=[
            QuietDDPPlugin(),
            SLURMEnvironment(),
        ],
        max_epochs=args.epochs,
        default_root_dir=model_dir,
    )


def build_debug_trainer(args):
    return pl.Trainer(gpus=args.gpus, distributed_backend="ddp" if args.gpus > 1 else None)


def build_cpu_trainer():
    return pl.Trainer(accelerator="ddp_cpu", num_processes=4)


def build_from_dict():
    trainer_kwargs = dict(distributed_backend="ddp", gpus=torch.cuda.device_count())
    trainer_kwargs["tpu_cores"] = 8
    return pl.Trainer(**trainer_kwargs)


def precision_plugin():
    return NativeMixedPrecisionPlugin()


def main():
    args = parse_args()
    trainer = build_trainer(args, "runs")
    print("devices:", trainer.num_gpus, "root:", trainer.root_gpu)


if __name__ == "__main__":
    main()
