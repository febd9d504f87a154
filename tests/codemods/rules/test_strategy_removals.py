"""Rule ``strategy_removals`` (deprecated in 1.7): strategy classes retired after 1.6 (DDP2, FairScale, Horovod, DP, DDPSpawn, TPUSpawn) are flagged.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py. ``DDPSpawnStrategy`` is a rename with a preset argument: a call
becomes ``DDPStrategy(start_method="spawn")`` (what 2.0's ``"ddp_spawn"`` alias registers), any other use has
no exact spelling and gets a TODO.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised, run

RULE = "strategy_removals"
_IMPORT = "from pytorch_lightning.strategies import DDPSpawnStrategy\n"
_NEW = "from pytorch_lightning.strategies import DDPStrategy\n"
_TODO = '# TODO(migrate-trainer): DDPSpawnStrategy is gone in 2.0: use DDPStrategy(start_method="spawn") [strategy_removals]\n'

TRANSFORMED = [
    pytest.param(
        _IMPORT + "s = DDPSpawnStrategy()\n", _NEW + 's = DDPStrategy(start_method="spawn")\n', "2.0", id="call"
    ),
    pytest.param(
        _IMPORT + "s = DDPSpawnStrategy(find_unused_parameters=False)\n",
        _NEW + 's = DDPStrategy(find_unused_parameters=False, start_method="spawn")\n',
        "2.0",
        id="call with arguments",
    ),
    pytest.param(
        _IMPORT + 's = DDPSpawnStrategy(start_method="forkserver")\n',
        _NEW + 's = DDPStrategy(start_method="forkserver")\n',
        "2.0",
        id="an explicit start method is kept",
    ),
    pytest.param(
        "import pytorch_lightning as pl\ns = pl.strategies.DDPSpawnStrategy(\n    timeout=t,\n)\n",
        'import pytorch_lightning as pl\ns = pl.strategies.DDPStrategy(\n    timeout=t,\n    start_method="spawn",\n)\n',
        "2.0",
        id="attribute chain, multi-line call",
    ),
    pytest.param(
        _IMPORT + "if isinstance(s, DDPSpawnStrategy):\n    pass\n",
        _IMPORT + _TODO + "if isinstance(s, DDPSpawnStrategy):\n    pass\n",
        "2.0",
        id="isinstance has no exact spelling",
    ),
    pytest.param(
        _IMPORT + "s = DDPSpawnStrategy(**kwargs)\n",
        _NEW + "s = DDPStrategy(**kwargs)\n",
        "2.0",
        id="kwargs may hold the start method",
    ),
    pytest.param(_IMPORT + "s = DDPSpawnStrategy()\n", _IMPORT + "s = DDPSpawnStrategy()\n", "1.9", id="1.9 has it"),
    pytest.param(
        "from pytorch_lightning.strategies import DataParallelStrategy\ns = DataParallelStrategy()\n",
        "# TODO(migrate-trainer): pytorch_lightning.strategies.DataParallelStrategy is gone in 2.0, so this import"
        " fails: DataParallel is removed in 2.0: use DDPStrategy [strategy_removals]\n"
        "from pytorch_lightning.strategies import DataParallelStrategy\n"
        "# TODO(migrate-trainer): DataParallelStrategy: DataParallel is removed in 2.0: use DDPStrategy"
        " [strategy_removals]\ns = DataParallelStrategy()\n",
        "2.0",
        id="a removed class gets a TODO at its import (where the target fails first) and at its use",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


def test_the_import_of_a_class_left_as_a_base_is_reported_where_it_is() -> None:
    """``class RayPlugin(DDPSpawnPlugin)`` keeps its import, which fails at 2.0: the import's line says so."""
    source = "from pytorch_lightning.plugins import DDPSpawnPlugin\n\n\nclass RayPlugin(DDPSpawnPlugin):\n    pass\n"
    outcome = run(source, "2.0")
    kinds = [(f.line, f.kind) for f in outcome.findings if f.rule == RULE]
    assert kinds == [(1, "report"), (4, "todo")]
    assert "importing it fails there" in outcome.findings[0].message
