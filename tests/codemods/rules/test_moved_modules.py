"""Rule ``moved_modules``: names 1.6-1.8 moved within ``pytorch_lightning`` are imported from their new module, at the
targets that have it. Each row's import ran on the real releases: the legacy line on 1.5.10, the rewritten one on
2.6.6 (``legacy_api._rename_rows_moved`` says where each fact was read).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, exercised

TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.utilities.distributed import rank_zero_only\n",
        "from pytorch_lightning.utilities.rank_zero import rank_zero_only\n",
        "1.6",
        id="rank_zero_only lives in utilities.rank_zero from 1.6",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.seed import seed_everything\n",
        "from pytorch_lightning import seed_everything\n",
        "2.6",
        id="utilities.seed.seed_everything is pytorch_lightning.seed_everything",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.cli import LightningCLI\n",
        "from pytorch_lightning.cli import LightningCLI\n",
        "2.0",
        id="utilities.cli -> cli",
    ),
    pytest.param(
        "from pytorch_lightning.core.lightning import LightningModule\n",
        "from pytorch_lightning.core.module import LightningModule\n",
        "2.6",
        id="core.lightning -> core.module",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\npl.utilities.distributed.rank_zero_info('x')\n",
        "import pytorch_lightning as pl\n\npl.utilities.rank_zero.rank_zero_info('x')\n",
        "2.6",
        id="a dotted use",
    ),
]

NOOP = [
    pytest.param("from pytorch_lightning.utilities.cli import LightningCLI\n", "1.6", id="cli has no home before 1.7"),
    pytest.param("from pytorch_lightning.utilities.seed import seed_everything\n", "1.7", id="seed: deprecated in 1.8"),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    outcome = check_transformed(before, after, target=target)
    assert {f.rule for f in outcome.findings} == {"moved_modules"}


@pytest.mark.parametrize(("source", "target"), NOOP)
def test_noop(source: str, target: str) -> None:
    check_noop(source, target=target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised("moved_modules")
