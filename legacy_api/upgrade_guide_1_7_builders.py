"""The row builders of the 1.7 upgrade-guide table (:mod:`legacy_api.upgrade_guide_1_7`): a Trainer attribute, a GPU
property rewritten to the expression of its 1.5 value, a removed callback hook."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, hook, on_trainer

PL = "pytorch_lightning"
LM, CB, T = f"{PL}.LightningModule", f"{PL}.Callback", f"{PL}.Trainer"


def trainer_attribute(
    n: int, audience: str, attr: str, replacement: str, outcome: str, note: str = "", shows: str = ""
) -> Row:
    return Row(
        f"1.7-{audience}-{n:02d}",
        f"Trainer.{attr}",
        replacement,
        outcome,
        f"{T}.{attr}",
        "1.8",
        on_trainer(f"value = trainer.{attr}"),
        shows=shows,
        guide_note=note,
    )


ROOT = "trainer.strategy.root_device.index"


def gpu_attribute(n: int, audience: str, attr: str, replacement: str, new: str, off: str) -> Row:
    """A GPU property rule trainer_properties rewrites to the expression of its 1.5 value (``off`` off the GPU)."""
    shows = f"value = {new} if isinstance(trainer.accelerator, CUDAAccelerator) else {off}"
    return trainer_attribute(n, audience, attr, replacement, "rewrite:trainer_properties", shows=shows)


def callback_hook(n: int, name: str, replacement: str, args: str = "trainer, pl_module") -> Row:
    return Row(
        f"1.7-advanced-{n:02d}",
        f"Callback.{name}",
        replacement,
        "todo:removed_hooks",
        f"{CB}.{name}",
        "1.8",
        hook("Callback", f"{name}(self, {args})"),
    )
