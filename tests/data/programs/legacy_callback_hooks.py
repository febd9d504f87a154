"""1.5 Callback hooks 2.x dropped: the order on_init_*, on_before_accelerator_backend_setup, on_pretrain_routine_*
(callback and module) and on_batch_start/end run in among the hooks 2.x kept, over fit, validate and a resumed fit;
and a callback's state kept the 1.5 way (returned by on_save_checkpoint, handed to on_load_checkpoint)."""

import os

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

CALLS = []


class Tiny(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.layer(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", torch.nn.functional.mse_loss(self.layer(x), y))

    def on_pretrain_routine_start(self):
        CALLS.append("module.on_pretrain_routine_start")

    def on_pretrain_routine_end(self):
        CALLS.append("module.on_pretrain_routine_end")

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class Recorder(pl.Callback):
    """Records the 1.5 hooks and the kept hooks around them; counts batches in a state saved the 1.5 way."""

    def __init__(self):
        self.batches = 0

    def on_init_start(self, trainer):
        CALLS.append("on_init_start")

    def on_init_end(self, trainer):
        CALLS.append("on_init_end")

    def on_before_accelerator_backend_setup(self, trainer, pl_module):
        CALLS.append("on_before_accelerator_backend_setup")

    def setup(self, trainer, pl_module, stage=None):
        CALLS.append(f"setup {stage}")

    def on_fit_start(self, trainer, pl_module):
        CALLS.append("on_fit_start")

    def on_pretrain_routine_start(self, trainer, pl_module):
        CALLS.append("on_pretrain_routine_start")

    def on_pretrain_routine_end(self, trainer, pl_module):
        CALLS.append("on_pretrain_routine_end")

    def on_train_start(self, trainer, pl_module):
        CALLS.append("on_train_start")

    def on_batch_start(self, trainer, pl_module):
        CALLS.append("on_batch_start")

    def on_train_batch_start(self, trainer, pl_module, batch, batch_idx, dataloader_idx):
        CALLS.append("on_train_batch_start")

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx):
        CALLS.append("on_train_batch_end")
        self.batches += 1

    def on_batch_end(self, trainer, pl_module):
        CALLS.append("on_batch_end")

    def on_save_checkpoint(self, trainer, pl_module, checkpoint):
        return {"batches": self.batches}

    def on_load_checkpoint(self, trainer, pl_module, callback_state):
        CALLS.append(f"restored {sorted(callback_state.items())}")
        self.batches = callback_state["batches"]


def loader(seed):
    generator = torch.Generator().manual_seed(seed)
    data = TensorDataset(torch.randn(8, 4, generator=generator), torch.randn(8, 1, generator=generator))
    return DataLoader(data, 4)


def flush(title):
    print("OUT", title, CALLS)
    CALLS.clear()


if __name__ == "__main__":
    pl.seed_everything(1)
    root = os.getcwd()
    flags = dict(logger=False, progress_bar_refresh_rate=0, weights_summary=None, num_sanity_val_steps=0)
    first = pl.Trainer(max_epochs=1, callbacks=[Recorder()], default_root_dir=root, **flags)
    flush("init")
    first.fit(Tiny(), loader(0), loader(1))
    flush("fit")
    first.validate(Tiny(), loader(1), verbose=False)
    flush("validate")
    path = first.checkpoint_callback.best_model_path
    recorder = Recorder()
    second = pl.Trainer(max_epochs=2, callbacks=[recorder], default_root_dir=root, **flags)
    CALLS.clear()
    second.fit(Tiny(), loader(0), ckpt_path=path)
    flush("resumed fit")
    print("OUT batches counted", recorder.batches)
