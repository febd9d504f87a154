"""Rule ``positional_arguments``: positions that bind other parameters at the target than in 1.5.10 (both read in the
recorded signatures) are passed by their 1.5 names, or flagged when the target lacks one of them."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, run

CKPT = "from pytorch_lightning.callbacks import ModelCheckpoint\n\n"
DDP = "from pytorch_lightning.plugins import DDPPlugin\n"
DDP_2X = "from pytorch_lightning.strategies import DDPStrategy\n"

TRANSFORMED = [
    pytest.param(
        CKPT + 'ck = ModelCheckpoint("c", "{epoch}", "loss", False, True, 3, True)\n',
        CKPT + 'ck = ModelCheckpoint("c", "{epoch}", "loss", False, True, 3, save_weights_only=True)\n',
        id="ModelCheckpoint's 7th position is save_on_exception in 2.x: from there on the 1.5 names, no earlier",
    ),
    pytest.param(
        DDP
        + "\n\nclass P(DDPPlugin):\n    def __init__(self, d, env):\n        super().__init__(d, cluster_environment=env)\n",
        DDP_2X
        + "\n\nclass P(DDPStrategy):\n    def __init__(self, d, env):\n"
        + "        super().__init__(parallel_devices=d, cluster_environment=env)\n",
        id="super().__init__ of a renamed base binds the legacy class's first parameter, by name",
    ),
    pytest.param(
        DDP + "\n\nclass P(DDPPlugin):\n    def __init__(self, d):\n        DDPPlugin.__init__(self, d)\n",
        DDP_2X
        + "\n\nclass P(DDPStrategy):\n    def __init__(self, d):\n        DDPStrategy.__init__(self, parallel_devices=d)\n",
        id="Base.__init__(self, ...) skips self",
    ),
]

TRANSFORMED.append(
    pytest.param(
        "import pytorch_lightning as pl\n\nt = pl.Trainer(False)\n",
        "import pytorch_lightning as pl\n\nt = pl.Trainer(logger=False)\n",
        id="2.x's Trainer takes keywords only",
    )
)

NOOP = [
    pytest.param(
        CKPT + 'ck = ModelCheckpoint("c", "{epoch}", "loss")\n', "2.6", id="the first six positions are the same"
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import EarlyStopping\n\nes = EarlyStopping('loss', 0.0, 3)\n",
        "2.6",
        id="EarlyStopping kept its order",
    ),
    pytest.param(CKPT + "ck = ModelCheckpoint(*args)\n", "2.6", id="*args hides the positions"),
    pytest.param("import pytorch_lightning as pl\n\npl.Trainer(..., max_epochs=1)\n", "2.6", id="a docs placeholder"),
    pytest.param(
        "import torch\n\n\nclass N(torch.nn.Module):\n    def __init__(self, a):\n        super().__init__(a)\n",
        "2.6",
        id="a base that is not Lightning's",
    ),
]


@pytest.mark.parametrize(("before", "after"), TRANSFORMED)
def test_transformed(before: str, after: str) -> None:
    outcome = check_transformed(before, after, target="2.6")
    assert "positional_arguments" in {f.rule for f in outcome.findings}


@pytest.mark.parametrize(("source", "target"), NOOP)
def test_noop(source: str, target: str) -> None:
    check_noop(source, target=target)


def test_a_parameter_the_target_lacks_is_a_todo_with_both_orders() -> None:
    source = DDP + "\n\nclass P(DDPPlugin):\n    def __init__(self, d, env):\n        super().__init__(d, 1, env)\n"
    outcome = run(source, "2.6")
    (todo,) = [f for f in outcome.findings if f.rule == "positional_arguments"]
    assert todo.kind == "todo"
    assert "(parallel_devices, num_nodes, cluster_environment) in Lightning 1.5" in todo.message
    assert "(accelerator, parallel_devices, cluster_environment) in 2.6.6" in todo.message
    assert outcome.source.endswith("super().__init__(d, 1, env)\n")
