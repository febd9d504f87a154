"""A training script written for Lightning 1.5, left as it was: it runs on Lightning 2.x through compat.lightning.

    python -m compat.lightning examples/legacy_on_2x/train.py --out runs/legacy --max_epochs 2

Everything here is the 1.5 API on purpose (do not migrate this file: the lightning tier runs it unchanged, see
tests/compat/lightning/test_legacy_script.py): a CPU DDP run asked for with ``accelerator="ddp_cpu",
num_processes=2``, a project's own ``DDPPlugin`` subclass in ``plugins=``, ``trainer.gpus`` and
``trainer.training_type_plugin`` read in the LightningModule and in a Callback, ``DistributedType`` checks, and the
Trainer built by ``Trainer.from_argparse_args``. Each process writes ``rank<N>.json`` under ``--out`` at the end of
training: what it saw of the 1.5 API, the batches it trained on and the last loss.

On Lightning 1.5 the same command without ``-m compat.lightning`` does the same (the tier's test says how it was
checked); on Lightning 2.x without the shim it stops at the first import.
"""

import json
import os
from argparse import ArgumentParser

import pytorch_lightning as pl
import torch
from pytorch_lightning.plugins import DDPPlugin
from pytorch_lightning.utilities import DistributedType
from torch.utils.data import DataLoader, TensorDataset


class NoUnusedSearchDDP(DDPPlugin):
    """The project's DDP plugin: every parameter takes part in the loss, so skip DDP's unused-parameter search."""

    def __init__(self):
        super().__init__(find_unused_parameters=False)


class Regressor(pl.LightningModule):
    """y = sum(x) with one linear layer: learnable in a few steps, so the loss shows training happened."""

    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)
        self.batches = 0
        self.saw = {}
        self.loss_before = float("nan")

    def on_train_start(self):
        # 1.5 code asked the trainer how it was distributed before doing per-process work.
        self.saw = {
            "gpus": self.trainer.gpus,
            "plugin": type(self.trainer.training_type_plugin).__name__,
            "ddp": self.trainer._distrib_type == DistributedType.DDP,
        }
        self.loss_before = self.full_loss()

    def full_loss(self):
        """The loss on the whole data set (the same on every rank: DDP keeps the replicas equal)."""
        x, y = dataset().tensors
        with torch.no_grad():
            return float(torch.nn.functional.mse_loss(self.layer(x), y))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = torch.nn.functional.mse_loss(self.layer(x), y)
        self.batches += 1
        # Runs on every step of every rank: the shim still warns once, from rank zero, for this line.
        self.log("train_loss", loss, sync_dist=self.trainer._distrib_type == DistributedType.DDP)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)

    def train_dataloader(self):
        return DataLoader(dataset(), batch_size=4)


def dataset():
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(32, 4, generator=generator)
    return TensorDataset(x, x.sum(dim=1, keepdim=True))


class RunMarker(pl.Callback):
    """Writes what this process saw and did; the tier's test reads one file per rank."""

    def __init__(self, out):
        self.out = out

    def on_train_end(self, trainer, pl_module):
        plugin = trainer.training_type_plugin
        record = {
            "rank": trainer.global_rank,
            "world_size": trainer.world_size,
            "custom_plugin": isinstance(plugin, NoUnusedSearchDDP),
            "is_ddp_plugin": isinstance(plugin, DDPPlugin),
            "find_unused_parameters": plugin._ddp_kwargs.get("find_unused_parameters"),
            "spawn": trainer._distrib_type in (DistributedType.DDP_SPAWN, DistributedType.DDP_CPU),
            "module_saw": pl_module.saw,
            "batches": pl_module.batches,
            "loss_before": pl_module.loss_before,
            "loss_after": pl_module.full_loss(),
        }
        os.makedirs(self.out, exist_ok=True)
        with open(os.path.join(self.out, f"rank{trainer.global_rank}.json"), "w") as f:
            json.dump(record, f, sort_keys=True)


def main(argv=None):
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder for the rank<N>.json markers")
    parser = pl.Trainer.add_argparse_args(parser)
    args = parser.parse_args(argv)
    pl.seed_everything(0)
    trainer = pl.Trainer.from_argparse_args(
        args,
        accelerator="ddp_cpu",
        num_processes=2,
        plugins=[NoUnusedSearchDDP()],
        callbacks=[RunMarker(args.out)],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(Regressor())


if __name__ == "__main__":
    main()
