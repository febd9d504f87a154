"""Rule ``gpu_accelerator`` (deprecated in 1.7): GPUAccelerator (accelerators.gpu) becomes CUDAAccelerator (accelerators.cuda).

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "gpu_accelerator"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.accelerators import GPUAccelerator\nGPUAccelerator()\n",
        "from pytorch_lightning.accelerators import CUDAAccelerator\nCUDAAccelerator()\n",
        "1.7",
        id="GPUAccelerator on 1.7",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
