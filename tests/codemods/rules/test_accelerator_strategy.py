"""Rule ``accelerator_strategy`` (deprecated in 1.5): a strategy name or object passed as accelerator= moves to strategy=.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "accelerator_strategy"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp', gpus=2)\n",
        "from pytorch_lightning import Trainer\nTrainer(strategy='ddp', gpus=2)\n",
        "1.6",
        id="strategy name in accelerator=",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


@pytest.mark.parametrize(
    ("beside", "expected"),
    [
        pytest.param(
            True, [("accelerator", "gpu"), ("devices", 2)], id="a strategy object beside: the name is dropped"
        ),
        pytest.param(
            False,
            [("accelerator", "gpu"), ("devices", 2), ("strategy", "ddp")],
            id="no strategy object beside: the name becomes strategy=",
        ),
    ],
)
def test_a_strategy_name_beside_a_strategy_object(beside: bool, expected: list[tuple[str, object]]) -> None:
    """1.5.10 ran the object of ``plugins=[DDPPlugin()]`` whatever ``accelerator=`` named (recorded: ``conflict:
    gpus=2, accelerator='ddp_spawn', plugins=[DDPPlugin()]`` selected DDPPlugin): a config section every caller of
    which passes one (``Plan.strategy_beside``) loses the name instead of gaining a second strategy."""
    from codemods.plan.apply_rules import run_flag_rules
    from codemods.plan.model import Plan, new
    from legacy_api.renames import PL

    plan = Plan(
        [("gpus", new(2)), ("accelerator", new("ddp"))],
        (2, 0),
        PL,
        lambda _rule: True,
        written_in="yaml",
        strategy_beside=beside,
    )
    run_flag_rules(plan)
    assert [(key, value.lit) for key, value in plan.items] == expected
