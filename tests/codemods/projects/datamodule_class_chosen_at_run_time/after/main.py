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
    # TODO(migrate-trainer): LightningDataModule.from_argparse_args is gone in 2.0 (unless the classes assigned to dm_cls define its own from_argparse_args): construct it with its arguments (it took the parsed values that name an __init__ argument, then **kwargs), or use LightningCLI [argparse_flags]
    dm = dm_cls.from_argparse_args(args)
    # TODO(migrate-trainer): LightningDataModule.size is gone at Lightning 2.0.9 (removed in 1.7): use an attribute of your own data module (1.7 dropped it from LightningDataModule) [removed_members]
    width = dm.size()[-1]
    # TODO(migrate-trainer): LightningDataModule.from_argparse_args is gone in 2.0 (unless CIFAR10DataModule defines its own from_argparse_args): construct it with its arguments (it took the parsed values that name an __init__ argument, then **kwargs), or use LightningCLI [argparse_flags]
    fixed = CIFAR10DataModule.from_argparse_args(args)
    other = STL10DataModule()
    # TODO(migrate-trainer): LightningDataModule.size is gone at Lightning 2.0.9 (removed in 1.7): use an attribute of your own data module (1.7 dropped it from LightningDataModule) [removed_members]
    print(fixed.data_dir, other.size(), width)
    return dm
