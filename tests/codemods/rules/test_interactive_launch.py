"""Rule ``interactive_launch`` (deprecated in 1.6): a spawned or script-launched DDP strategy in a notebook gets a
TODO naming "ddp_notebook". Rows pinned on the recorded cases ``interactive: strategy='ddp_spawn', ...`` (1.5.10 ran
them; 2.6.6 refuses them: "not compatible with an interactive environment").
"""

from __future__ import annotations

import pytest

from codemods.frontends.python import transform_python
from codemods.model import Options
from tests.codemods.helpers import exercised

RULE = "interactive_launch"
_T = "from pytorch_lightning import Trainer\n"

TODO = [
    pytest.param(
        "Trainer(strategy='ddp_spawn', accelerator='gpu', devices=2)\n", True, True, id="ddp_spawn in a notebook"
    ),
    pytest.param("Trainer(strategy='ddp_find_unused_parameters_false')\n", True, True, id="ddp in a notebook"),
    pytest.param("Trainer(strategy='ddp_spawn', accelerator='gpu', devices=2)\n", False, False, id="in a script"),
    pytest.param("Trainer(strategy='ddp_notebook', accelerator='gpu', devices=2)\n", True, False, id="ddp_notebook"),
    pytest.param("Trainer(accelerator='gpu', devices=2)\n", True, False, id="no strategy: 2.x forks by itself"),
]


@pytest.mark.parametrize(("call", "interactive", "todo"), TODO)
def test_rows(call: str, interactive: bool, todo: bool) -> None:
    outcome = transform_python(_T + call, Options(target="2.6", interactive=interactive))
    assert (RULE in {f.rule for f in outcome.findings if f.kind == "todo"}) is todo
    assert ('"ddp_notebook"' in outcome.source) is todo


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
