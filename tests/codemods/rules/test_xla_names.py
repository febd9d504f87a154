"""Rule ``xla_names``: TPUAccelerator / SingleTPUStrategy become XLAAccelerator / SingleDeviceXLAStrategy (2.1).

Its own rows (facts: legacy_api/LIGHTNING_2X.md).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, exercised

RULE = "xla_names"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.accelerators import TPUAccelerator\na = TPUAccelerator()\n",
        "from pytorch_lightning.accelerators import XLAAccelerator\na = XLAAccelerator()\n",
        id="TPUAccelerator is XLAAccelerator",
    ),
    pytest.param(
        "import pytorch_lightning as pl\ns = pl.strategies.SingleTPUStrategy(device)\n",
        "import pytorch_lightning as pl\ns = pl.strategies.SingleDeviceXLAStrategy(device)\n",
        id="SingleTPUStrategy is SingleDeviceXLAStrategy, same arguments",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import SingleTPUPlugin\ns = SingleTPUPlugin(device)\n",
        "from pytorch_lightning.strategies import SingleDeviceXLAStrategy\ns = SingleDeviceXLAStrategy(device)\n",
        id="1.5's SingleTPUPlugin goes all the way",
    ),
]


@pytest.mark.parametrize(
    ("before", "after"),
    TRANSFORMED,
)
def test_rewrites_at_2_1(before: str, after: str) -> None:
    check_transformed(before, after, target="2.1")


def test_2_0_keeps_the_tpu_names() -> None:
    check_noop("from pytorch_lightning.accelerators import TPUAccelerator\na = TPUAccelerator()\n", target="2.0")


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
