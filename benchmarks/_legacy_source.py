"""Seeded generator of legacy (Lightning <= 1.5) style modules and configs for the benchmarks.

The modules read like a real training code base: most lines are ordinary code (a model, data helpers,
small utilities), and the legacy patterns the migration rewrites or flags are sprinkled in between.
"""

from __future__ import annotations

import random

_HEADERS = (
    "import pytorch_lightning as pl",
    "from pytorch_lightning import Trainer",
    "from pytorch_lightning.plugins import DDPPlugin, DDP2Plugin, NativeMixedPrecisionPlugin",
    "from pytorch_lightning.plugins.environments import SLURMEnvironment",
    "from pytorch_lightning.utilities import DistributedType",
    "from pytorch_lightning.plugins.training_type.ddp import DDPPlugin as BaseDDP",
    "from pytorch_lightning.accelerators import GPUAccelerator",
)
_ORDINARY_IMPORTS = (
    "import argparse",
    "import math",
    "import os",
    "from dataclasses import dataclass, field",
    "from pathlib import Path",
    "from typing import Any, Optional",
    "import torch",
    "from torch import nn",
)

_MODEL = '''

class {name}(pl.LightningModule):
    """A {kind} model with {layers} hidden layers."""

    def __init__(self, hidden: int = {hidden}, lr: float = {lr}, dropout: float = 0.{drop}) -> None:
        super().__init__()
        self.save_hyperparameters()
        self.layers = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range({layers})])
        self.head = nn.Linear(hidden, {classes})
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        for layer in self.layers:
            x = self.dropout(torch.relu(layer(x)))
        return self.head(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = nn.functional.cross_entropy(logits, y)
        self.log("train/loss", loss, on_step=True, on_epoch=True, prog_bar=batch_idx % {every} == 0)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        accuracy = (logits.argmax(dim=-1) == y).float().mean()
        self.log_dict({{"val/loss": nn.functional.cross_entropy(logits, y), "val/acc": accuracy}})

    def configure_optimizers(self):
        optimizer = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr, weight_decay={wd})
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max={tmax})
        return [optimizer], [{{"scheduler": scheduler, "interval": "epoch"}}]
'''

_UTIL = '''

def {name}(values, scale={scale}, offset={offset}):
    """Normalise ``values`` and keep the ones above the threshold."""
    total = sum(values) or 1
    out = []
    for index, value in enumerate(values):
        weight = (value / total) * scale + offset
        if weight > {threshold} and index % {step} != 0:
            out.append(round(weight, {digits}))
        elif not out:
            out.append(0.0)
    return {{"kept": out, "dropped": len(values) - len(out), "name": "{name}"}}
'''

_DATACLASS = '''

@dataclass
class {name}:
    """Options of one {kind} run."""

    root: str = "{root}"
    batch_size: int = {batch}
    workers: int = {workers}
    shuffle: bool = {shuffle}
    tags: list = field(default_factory=lambda: [{tags}])

    def describe(self) -> str:
        return f"{{self.root}} bs={{self.batch_size}} workers={{self.workers}} shuffle={{self.shuffle}}"
'''

_DATA = '''

def {name}(root, split="train", limit=None):
    """Read the ``split`` index under ``root``; at most ``limit`` rows."""
    rows = []
    path = os.path.join(root, f"{{split}}.csv")
    if not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if limit is not None and number >= limit:
                break
            fields = [part.strip() for part in line.split(",")]
            if len(fields) < {width} or fields[0].startswith("#"):
                continue
            rows.append({{"id": fields[0], "label": int(fields[1]) % {classes}, "extra": fields[2:]}})
    return rows
'''

_TRAINERS = (
    """

def build_{name}(args, model_dir):
    # The 1.5 way: device count, strategy and plugins in one call.
    return pl.Trainer(
        gpus={gpus},
        accelerator="ddp",
        plugins=[
            DDPPlugin(find_unused_parameters=False),
            SLURMEnvironment(),
        ],
        max_epochs=args.epochs,
        default_root_dir=model_dir,
    )
""",
    """

def build_{name}(args):
    return pl.Trainer(gpus=args.gpus, distributed_backend="ddp" if args.gpus > 1 else None)
""",
    """

def build_{name}():
    return pl.Trainer(accelerator="ddp_cpu", num_processes={gpus}, max_steps={steps})
""",
    """

def build_{name}(cuda):
    trainer_kwargs = dict(distributed_backend="ddp", gpus={gpus}, precision=16)
    trainer_kwargs["tpu_cores"] = 8
    return pl.Trainer(**trainer_kwargs)
""",
    """

def build_{name}(cuda: bool):
    return pl.Trainer(gpus=1 if cuda else 0, amp_backend="native", precision=16, replace_sampler_ddp=False)
""",
    """

def build_{name}():
    return pl.Trainer(accelerator="ddp_spawn", plugins=["ddp_find_unused_parameters_false"], gpus={gpus})
""",
)

_CALLBACK = '''

class {name}(pl.Callback):
    """Logs where the run is going, the 1.5 way."""

    def __init__(self, gpus=None):
        self.gpus = gpus  # the callback's own attribute, not the Trainer's

    def on_train_start(self, trainer, pl_module):
        plugin = trainer.training_type_plugin
        if isinstance(plugin, (DDPPlugin, DDP2Plugin)):
            print("distributed on", trainer.accelerator.training_type_plugin.root_device)
        if trainer._distrib_type in {{DistributedType.DP, DistributedType.DDP2}}:
            print("data parallel", trainer.num_gpus, trainer.root_gpu)
        print(self.gpus, DistributedType.DDP_SPAWN)
'''

_SUBCLASS = '''

class {name}(BaseDDP):
    """Project-local DDP that never searches for unused parameters."""

    def __init__(self, **kwargs):
        super().__init__(find_unused_parameters=False, **kwargs)


def precision_{name}():
    return NativeMixedPrecisionPlugin(), GPUAccelerator()
'''

_LOOKALIKE = '''

def {name}(gpus=2, accelerator=None):
    """A function's own ``gpus=`` parameter is not a Trainer flag."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpus", type=int, default=gpus)
    return parser, accelerator
'''

_WORDS = ("alpha", "bravo", "delta", "echo", "kilo", "lima", "oscar", "sierra", "tango", "zulu")


def _ident(rng: random.Random, prefix: str) -> str:
    return f"{prefix}_{rng.choice(_WORDS)}_{rng.randrange(10**6)}"


def _camel(rng: random.Random, suffix: str) -> str:
    return f"{rng.choice(_WORDS).title()}{rng.choice(_WORDS).title()}{rng.randrange(1000)}{suffix}"


def _ordinary(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return _MODEL.format(
            name=_camel(rng, "Model"),
            kind=rng.choice(("tabular", "text", "vision")),
            layers=rng.randrange(2, 9),
            hidden=rng.choice((64, 128, 256, 512)),
            lr=rng.choice(("1e-3", "3e-4", "1e-4")),
            drop=rng.randrange(1, 5),
            classes=rng.randrange(2, 100),
            every=rng.randrange(10, 100),
            wd=rng.choice(("0.01", "0.05", "0.0")),
            tmax=rng.randrange(10, 200),
        )
    if kind == 1:
        return _UTIL.format(
            name=_ident(rng, "weights"),
            scale=rng.randrange(1, 9),
            offset=rng.random().__round__(3),
            threshold=rng.random().__round__(2),
            step=rng.randrange(2, 7),
            digits=rng.randrange(2, 6),
        )
    if kind == 2:
        return _DATACLASS.format(
            name=_camel(rng, "Options"),
            kind=rng.choice(("training", "evaluation", "export")),
            root=f"/data/{rng.choice(_WORDS)}",
            batch=rng.choice((16, 32, 64, 128)),
            workers=rng.randrange(0, 17),
            shuffle=rng.choice((True, False)),
            tags=", ".join(repr(rng.choice(_WORDS)) for _ in range(rng.randrange(1, 4))),
        )
    return _DATA.format(name=_ident(rng, "read_rows"), width=rng.randrange(2, 6), classes=rng.randrange(2, 50))


def _legacy(rng: random.Random) -> str:
    kind = rng.randrange(10)
    if kind < 6:
        template = _TRAINERS[kind]
        return template.format(name=_ident(rng, "trainer"), gpus=rng.choice((1, 2, 4, 8)), steps=rng.randrange(1000))
    if kind < 8:
        return _CALLBACK.format(name=_camel(rng, "Callback"))
    if kind == 8:
        return _SUBCLASS.format(name=_camel(rng, "DDPPlugin"))
    return _LOOKALIKE.format(name=_ident(rng, "options"))


def legacy_module(rng: random.Random, lines: int, legacy_share: float = 0.25) -> str:
    """About ``lines`` lines of Python, about ``legacy_share`` of its blocks using a legacy pattern."""
    parts = [f'"""Generated module {rng.randrange(10**6)}: a training code base written for Lightning 1.5."""\n']
    parts += [*sorted(_ORDINARY_IMPORTS), "", *_HEADERS]
    text = "\n".join(parts) + "\n"
    count = text.count("\n")
    blocks = []
    while count < lines:
        block = _legacy(rng) if rng.random() < legacy_share else _ordinary(rng)
        blocks.append(block)
        count += block.count("\n")
    return text + "".join(blocks)


def legacy_yaml(rng: random.Random) -> str:
    """A LightningCLI/Hydra-style config with a legacy ``trainer:`` section."""
    gpus = rng.choice((1, 2, 4, 8))
    return (
        f"# config {rng.randrange(10**6)} written for Lightning 1.5\n"
        "trainer:\n"
        f"  gpus: {gpus}  # GPUs per node\n"
        "  accelerator: ddp\n"
        f"  max_epochs: {rng.randrange(1, 100)}\n"
        "  plugins:\n"
        "    - class_path: pytorch_lightning.plugins.DDPPlugin\n"
        "      init_args:\n"
        "        find_unused_parameters: false\n"
        "model:\n"
        f"  lr: {rng.choice(('0.001', '0.0003'))}\n"
        "  devices_used: ${trainer.gpus}\n"
    )
