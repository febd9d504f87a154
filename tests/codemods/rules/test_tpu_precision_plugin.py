"""Rule ``tpu_precision_plugin`` (2.0): a plain PrecisionPlugin() next to TPU cores is dropped.

Pinned on the recorded case ``plugins=[PrecisionPlugin()], tpu_cores=8`` (1.5.10: 32-bit XLA precision; 2.6.6 refuses
a plain precision plugin under its XLA strategy and defaults to XLAPrecision("32-true") without one).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "tpu_precision_plugin"
_T = "from pytorch_lightning import Trainer\nfrom pytorch_lightning.plugins import PrecisionPlugin\n"
_NEW = "from pytorch_lightning import Trainer\nfrom pytorch_lightning.plugins import Precision\n"

TRANSFORMED = [
    pytest.param(
        _T + "Trainer(plugins=[PrecisionPlugin()], tpu_cores=8)\n",
        _NEW + 'Trainer(accelerator="tpu", devices=8)\n',
        "2.6",
        id="the only plugin: dropped",
    ),
    pytest.param(
        _T + "Trainer(plugins=[PrecisionPlugin()], accelerator='tpu', devices=8)\n",
        _NEW + "Trainer(accelerator='tpu', devices=8)\n",
        "2.6",
        id="accelerator named",
    ),
    pytest.param(
        _T + "Trainer(plugins=[PrecisionPlugin()], gpus=2)\n",
        _NEW + 'Trainer(plugins=[Precision()], accelerator="gpu", devices=2)\n',
        "2.6",
        id="GPUs: kept",
    ),
    pytest.param(
        _T + "Trainer(plugins=[PrecisionPlugin(), io], tpu_cores=8)\n",
        _NEW
        + "# TODO(migrate-trainer): Precision() on TPUs was 32-bit XLA precision in 1.5; 2.x's XLA strategy refuses "
        + "it: remove it (XLAPrecision('32-true') is the default there) [tpu_precision_plugin]\n"
        + 'Trainer(plugins=[Precision(), io], accelerator="tpu", devices=8)\n',
        "2.6",
        id="next to another plugin: a TODO",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
