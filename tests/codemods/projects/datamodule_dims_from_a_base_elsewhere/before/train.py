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
    model = Net(*dm.size())
    built = Built()
    print(built.size(0), built.dims)
    late = Late()
    print(late.size())
    square = Square()
    print(square.size())
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", default="shaped")
    main(parser.parse_args())
