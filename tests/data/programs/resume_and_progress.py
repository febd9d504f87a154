"""1.5 Trainer arguments 2.x removed, on a tiny model: resume_from_checkpoint (the epoch and step the second fit
resumes at, its losses), weights_summary="full", process_position, track_grad_norm (the logged norms),
flush_logs_every_n_steps (the steps at which a logger is saved), weights_save_path (where checkpoints go),
stochastic_weight_avg (the averaged weights), multiple_trainloader_mode, terminate_on_nan (the error), log_gpu_memory
on the CPU, the accelerator
connector's 1.5 attributes, should_rank_save_checkpoint, and test(ckpt_path="best")."""

import os

import pytorch_lightning as pl
import torch
from pytorch_lightning.callbacks import ModelCheckpoint, ModelSummary, TQDMProgressBar
from pytorch_lightning.loggers import LightningLoggerBase
from torch.utils.data import DataLoader, TensorDataset


def say(*parts):
    """An OUT line; on a line of its own (the progress bar of the third run writes to stdout without a newline)."""
    print("\nOUT", *parts)


class Tiny(pl.LightningModule):
    def __init__(self, poison_at=None):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)
        self.poison_at = poison_at

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = torch.nn.functional.mse_loss(self.layer(x), y)
        if self.poison_at is not None and self.global_step == self.poison_at:
            loss = loss * float("nan")
        say(f"epoch {self.current_epoch} step {self.global_step} loss {loss.item():.6f}")
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", torch.nn.functional.mse_loss(self.layer(x), y))

    def test_step(self, batch, batch_idx):
        x, y = batch
        self.log("test_loss", torch.nn.functional.mse_loss(self.layer(x), y))

    def on_train_epoch_end(self, *args):
        saved = getattr(self.trainer.logger, "saved_at", None)
        if saved is not None:  # the logger's saves during the epoch (2.x counts the epoch-end steps differently)
            say("logger saved during the epoch at steps", saved)

    def on_train_start(self):
        say("starts at epoch", self.current_epoch, "global step", self.global_step)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class SaveCounter(LightningLoggerBase):
    """A logger that records the global step at each save()."""

    def __init__(self):
        super().__init__()
        self.saved_at = []

    @property
    def name(self):
        return "counter"

    @property
    def version(self):
        return 0

    @property
    def experiment(self):
        return None

    def log_hyperparams(self, params):
        pass

    def log_metrics(self, metrics, step):
        pass

    def save(self):
        self.saved_at.append(self.trainer_step())

    def trainer_step(self):
        return TRAINER[0].global_step if TRAINER else -1


TRAINER = []


class TwoLoaders(Tiny):
    """Training on a dict of two loaders of 2 and 4 batches."""

    def training_step(self, batch, batch_idx):
        (xa, ya), (xb, yb) = batch["a"], batch["b"]
        loss = torch.nn.functional.mse_loss(self.layer(xa), ya) + torch.nn.functional.mse_loss(self.layer(xb), yb)
        say(f"two loaders step {self.global_step} loss {loss.item():.6f}")
        return loss

    def train_dataloader(self):
        short = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 1)), 4)
        return {"a": short, "b": loader(6)}


def loader(seed):
    generator = torch.Generator().manual_seed(seed)
    return DataLoader(
        TensorDataset(torch.randn(16, 4, generator=generator), torch.randn(16, 1, generator=generator)), 4
    )


def quiet(**kwargs):
    return dict(progress_bar_refresh_rate=0, weights_summary=None, **kwargs)


if __name__ == "__main__":
    root = os.getcwd()
    pl.seed_everything(1)
    checkpoint = ModelCheckpoint(dirpath=os.path.join(root, "ckpts"), monitor="val_loss", save_last=True)
    first = pl.Trainer(max_epochs=2, logger=False, callbacks=[checkpoint], **quiet(default_root_dir=root))
    conn = first._accelerator_connector
    say("connector", conn.num_processes, conn.num_gpus, conn.parallel_device_ids, conn.use_ddp, conn.use_cpu)
    say("should_rank_save_checkpoint", first.training_type_plugin.should_rank_save_checkpoint)
    first.fit(Tiny(), loader(0), loader(1))
    say("best is epoch", os.path.basename(checkpoint.best_model_path).split("-")[0])
    result = first.test(ckpt_path="best", dataloaders=loader(2), verbose=False)
    say(f"test_loss {result[0]['test_loss']:.6f}")

    # Resume: the second Trainer continues the first run from its last checkpoint, fit() is given no path.
    last = os.path.join(root, "ckpts", "last.ckpt")
    second = pl.Trainer(max_epochs=4, logger=False, resume_from_checkpoint=last, **quiet(checkpoint_callback=False))
    model = Tiny()
    second.fit(model, loader(0))
    say("resumed run ends at global step", second.global_step)
    say("weights", [round(v, 6) for v in model.layer.weight.flatten().tolist()])

    # Progress bar and summary arguments, grad-norm tracking, log flushing.
    counter = SaveCounter()
    third = pl.Trainer(
        max_epochs=1,
        logger=counter,
        weights_save_path=os.path.join(root, "weights"),
        weights_summary="full",
        process_position=2,
        track_grad_norm=2,
        flush_logs_every_n_steps=3,
        default_root_dir=root,
    )
    TRAINER.append(third)
    depths = [cb._max_depth for cb in third.callbacks if isinstance(cb, ModelSummary)]
    positions = [cb.process_position for cb in third.callbacks if isinstance(cb, TQDMProgressBar)]
    say("summary depths", depths, "bar positions", positions)
    pl.seed_everything(3)
    third.fit(Tiny(), loader(0))
    norms = {k: round(float(v), 4) for k, v in third.callback_metrics.items() if k.startswith("grad_")}
    say("grad norms", sorted(norms.items()))
    files = os.listdir(third.checkpoint_callback.dirpath)  # named by step: 1.6 changed what global_step counts
    say("checkpoints in", os.path.relpath(third.checkpoint_callback.dirpath, root), len(files), "file")
    say("weights_save_path", os.path.relpath(third.weights_save_path, root))

    # stochastic_weight_avg: 1.5's StochasticWeightAveraging() (averaging from 80% of the epochs, the optimizer's rate).
    pl.seed_everything(5)
    swa = Tiny()
    fifth = pl.Trainer(max_epochs=10, logger=False, stochastic_weight_avg=True, **quiet(checkpoint_callback=False))
    fifth.fit(swa, loader(0))
    say("swa weights", [round(v, 6) for v in swa.layer.weight.flatten().tolist()])
    say("swa callbacks", [type(cb).__name__ for cb in fifth.callbacks if "StochasticWeight" in type(cb).__name__])

    # multiple_trainloader_mode="min_size": an epoch is as long as the shorter loader.
    pl.seed_everything(6)
    sixth = pl.Trainer(
        max_epochs=1, logger=False, multiple_trainloader_mode="min_size", **quiet(checkpoint_callback=False)
    )
    sixth.fit(TwoLoaders())
    say("two loaders: steps", sixth.global_step)

    # terminate_on_nan: the step whose loss is not finite stops the run with 1.5's error.
    fourth = pl.Trainer(
        max_epochs=1, logger=False, terminate_on_nan=True, log_gpu_memory="all", **quiet(checkpoint_callback=False)
    )
    pl.seed_everything(4)
    try:
        fourth.fit(Tiny(poison_at=2), loader(0))
    except ValueError as error:
        say("stopped:", error)
