import argparse

import pytorch_lightning as pl
import torch

from shapes.datamodules import Built, Late
from shapes.vision import Narrow, Shaped, Square


class Net(pl.LightningModule):
    def __init__(self, channels, width, height):
        super().__init__()
        self.layer = torch.nn.Linear(channels * width * height, 10)


def main(args):
    if args.dataset == "narrow":
        dm_cls = Narrow
    else:
        dm_cls = Shaped
    dm = dm_cls()
    model = Net(*dm.dims)
    built = Built()
    print(built.dims[0], built.dims)
    late = Late()
    # TODO(migrate-trainer): LightningDataModule.size is gone at Lightning 2.0.9 (removed in 1.7): use an attribute of your own data module (1.7 dropped it from LightningDataModule) [removed_members]
    print(late.size())
    square = Square()
    # TODO(migrate-trainer): LightningDataModule.size is gone at Lightning 2.0.9 (removed in 1.7): use an attribute of your own data module (1.7 dropped it from LightningDataModule) [removed_members]
    print(square.size())
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", default="shaped")
    main(parser.parse_args())
