from argparse import ArgumentParser

import pytorch_lightning as pl

from datamodules import CIFAR10DataModule, STL10DataModule


def cli(dataset):
    if dataset == "cifar10":
        dm_cls = CIFAR10DataModule
    else:
        dm_cls = STL10DataModule
    parser = ArgumentParser()
    args = parser.parse_args([])
    dm = dm_cls.from_argparse_args(args)
    width = dm.size()[-1]
    fixed = CIFAR10DataModule.from_argparse_args(args)
    other = STL10DataModule()
    print(fixed.data_dir, other.size(), width)
    return dm
