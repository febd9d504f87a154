"""Rule ``enum_members`` (deprecated in 1.6): DistributedType/DeviceType/AMPType/PrecisionType members become their string values.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "enum_members"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.utilities.enums import DistributedType\nx = DistributedType.DDP\n",
        'x = "ddp"\n',
        "1.6",
        id="enum member becomes its string",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
