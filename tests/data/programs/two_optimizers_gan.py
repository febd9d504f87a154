"""A GAN written for 1.x automatic optimization: training_step(batch, batch_idx, optimizer_idx) with two optimizers,
in each form configure_optimizers could return them (a list; ([optimizers], [schedulers]); dicts with lr schedulers
and frequencies), with gradient accumulation and clipping. Prints the loss of every step with the parameters that
required a gradient then, the hooks around each optimizer step, what on_train_batch_end and training_epoch_end
receive, the learning rates and global step after each epoch, and checksums of the final parameters."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


def describe(x):
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {describe(v)}" for k, v in sorted(x.items())) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(describe(v) for v in x) + "]"
    if isinstance(x, torch.Tensor):
        return f"T({x.item():.4f}, grad={x.requires_grad})"
    return repr(x)


class GAN(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.generator = torch.nn.Linear(2, 4)
        self.discriminator = torch.nn.Linear(4, 1)

    def trainable(self):
        return "".join("G" if p.requires_grad else "g" for p in self.generator.parameters()) + "".join(
            "D" if p.requires_grad else "d" for p in self.discriminator.parameters()
        )

    def training_step(self, batch, batch_idx, optimizer_idx):
        (real,) = batch
        noise = real[:, :2].flip(0)
        fake = self.generator(noise)
        if optimizer_idx == 0:
            loss = -self.discriminator(fake).mean()
            out = {"loss": loss, "which": "g"}
        else:
            loss = self.discriminator(fake.detach()).mean() - self.discriminator(real).mean() + 0.1 * fake.pow(2).mean()
            out = loss
        print(
            f"OUT step {self.current_epoch} {batch_idx} opt={optimizer_idx} loss={loss.item():.4f} {self.trainable()}"
        )
        return out

    def on_before_zero_grad(self, optimizer):
        print(f"OUT   on_before_zero_grad {self.optimizers(use_pl_optimizer=False).index(optimizer)}")

    def optimizer_step(
        self,
        epoch,
        batch_idx,
        optimizer,
        optimizer_idx,
        optimizer_closure,
        on_tpu=False,
        using_native_amp=False,
        using_lbfgs=False,
    ):
        print(f"OUT   optimizer_step {epoch} {batch_idx} {optimizer_idx} gs={self.global_step}")
        super().optimizer_step(
            epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure, on_tpu, using_native_amp, using_lbfgs
        )

    def on_train_batch_end(self, outputs, batch, batch_idx):
        print(f"OUT   batch_end {batch_idx} {describe(outputs)}")

    def training_epoch_end(self, outputs):
        print(f"OUT epoch_end {self.current_epoch} {describe(outputs)}")

    def on_train_epoch_end(self):
        rates = [round(group["lr"], 6) for opt in self.optimizers(use_pl_optimizer=False) for group in opt.param_groups]
        print(f"OUT lrs {self.current_epoch} {rates} gs={self.global_step}")

    def configure_optimizers(self):
        return [
            torch.optim.SGD(self.generator.parameters(), lr=0.1, momentum=0.5),
            torch.optim.SGD(self.discriminator.parameters(), lr=0.05),
        ]


class WithSchedulers(GAN):
    def configure_optimizers(self):
        optimizers = GAN.configure_optimizers(self)
        # A scheduler dict: 1.5.10 takes a bare scheduler only if it is a torch<2 ``_LRScheduler``.
        return optimizers, [{"scheduler": torch.optim.lr_scheduler.StepLR(optimizers[0], 1, gamma=0.5)}]


class WithFrequencies(GAN):
    def configure_optimizers(self):
        generator, discriminator = GAN.configure_optimizers(self)
        step = torch.optim.lr_scheduler.StepLR(discriminator, 2, gamma=0.1)
        return (
            {"optimizer": generator, "frequency": 1},
            {"optimizer": discriminator, "frequency": 2, "lr_scheduler": {"scheduler": step, "interval": "step"}},
        )


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(20, 4, generator=generator)), batch_size=4)


def checksum(model):
    return [f"{p.double().sum().item():.6f}" for p in model.parameters()]


if __name__ == "__main__":
    runs = (
        (GAN(), {}),
        (WithSchedulers(), {"max_epochs": 2}),
        (WithFrequencies(), {}),
        (GAN(), {"accumulate_grad_batches": 2, "gradient_clip_val": 0.05}),
    )
    for model, flags in runs:
        print(f"OUT run {type(model).__name__} {sorted(flags.items())}")
        pl.seed_everything(1)
        model.load_state_dict(
            {k: torch.full_like(v, 0.1) + 0.01 * i for i, (k, v) in enumerate(model.state_dict().items())}
        )
        trainer = pl.Trainer(
            **{"max_epochs": 1, **flags},
            logger=False,
            checkpoint_callback=False,
            progress_bar_refresh_rate=0,
            weights_summary=None,
        )
        trainer.fit(model, loader())
        print("OUT final", trainer.global_step, checksum(model))
