"""Rule ``removed_names``: a ``pytorch_lightning`` module or name the target's recorded surface lacks gets one TODO at
its import or dotted use, naming where the target has the same name; nothing else is touched.

The facts each row relies on were checked in the real releases (1.5.10, 1.6.5, 2.6.6) and are in the recorded surface
(``legacy_api/data/api_surface.json``).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import exercised, run

RULE = "removed_names"

TODO = [
    pytest.param(
        "from pytorch_lightning.utilities import _module_available\n",
        "2.6",
        ["pytorch_lightning.utilities._module_available"],
        id="a private name 1.5 exported and 2.x dropped (lightning-bolts' first ImportError): a TODO",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.distributed import sync_ddp\n\nsync_ddp(x)\n",
        "2.6",
        ["pytorch_lightning.utilities.distributed.sync_ddp"],
        id="utilities.distributed.sync_ddp is gone in 2.x (lightning_fabric's is private): a TODO",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.cli import DATAMODULE_REGISTRY\n",
        "2.6",
        ["pytorch_lightning.utilities.cli.DATAMODULE_REGISTRY"],
        id="LightningCLI's registries are gone: a TODO",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\npl.utilities.distributed.log.info('x')\n",
        "2.6",
        ["pytorch_lightning.utilities.distributed"],
        id="a dotted use names the first missing part, once",
    ),
    pytest.param(
        "import pytorch_lightning.utilities.distributed\n",
        "2.6",
        ["pytorch_lightning.utilities.distributed"],
        id="import of a missing module",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.distributed import sync_ddp\n",
        "2.6",
        ["pytorch_lightning.utilities.distributed.sync_ddp"],
        id="utilities.distributed.sync_ddp is gone in 2.x",
    ),
    pytest.param("from pytorch_lightning.utilities.cli import LightningCLI\n", "1.6", [], id="still there in 1.6"),
    pytest.param("from pytorch_lightning import LightningModule, Trainer\n", "2.6", [], id="present names: no TODO"),
    pytest.param(
        "import pytorch_lightning as pl\n\ntrainer = pl.Trainer(max_epochs=1)\n", "2.6", [], id="a present dotted name"
    ),
    pytest.param(
        "try:\n    from pytorch_lightning.utilities.cli import LightningCLI\n"
        "except ImportError:\n    from pytorch_lightning.cli import LightningCLI\n",
        "2.6",
        [],
        id="an import that already handles ImportError is left alone",
    ),
    pytest.param("from .utilities.cli import LightningCLI\n", "2.6", [], id="a relative import is the project's own"),
    pytest.param("from lightning_utilities.cli import x\n", "2.6", [], id="another package"),
]


@pytest.mark.parametrize(("source", "target", "named"), TODO)
def test_rows(source: str, target: str, named: list[str]) -> None:
    outcome = run(source, target)
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == (1 if named else 0), [f.message for f in outcome.findings]
    assert all(f.kind == "todo" for f in found)
    for name in named:
        assert name in found[0].message
    assert outcome.source.count(f"[{RULE}]") == len(found)


def test_names_the_rename_rules_handle_are_left_to_them() -> None:
    outcome = run("from pytorch_lightning.plugins import DDPPlugin\n\nplugin = DDPPlugin()\n", "2.6")
    assert not [f for f in outcome.findings if f.rule == RULE]
    assert "DDPStrategy" in outcome.source


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


def test_the_metrics_package_points_at_torchmetrics() -> None:
    outcome = run("from pytorch_lightning.metrics.classification import Accuracy\n", "2.6")
    (found,) = [f for f in outcome.findings if f.rule == RULE]
    assert "torchmetrics" in found.message


def test_a_home_is_a_public_package_not_a_module_that_imports_the_name() -> None:
    # Without rule moved_packages (which rewrites it), reset_seed's TODO names lightning_fabric's, not strategies.ddp.
    outcome = run("from pytorch_lightning.utilities.seed import reset_seed\n", "2.6", rules=frozenset({RULE}))
    (found,) = [f for f in outcome.findings if f.rule == RULE]
    assert "strategies" not in found.message
    assert "lightning_fabric.utilities.seed.reset_seed" in found.message


def test_a_private_name_the_target_keeps_is_left_alone() -> None:
    source = "from pytorch_lightning import _logger\n"  # 2.6.6 still has it (checked in the real release)
    assert not [f for f in run(source, "2.6").findings if f.rule == RULE]
