"""Rule ``moved_packages``: names 1.8 moved into lightning_utilities / lightning_fabric are imported from there at
2.0 and later targets, when the successor is public and the same function; the private ones keep ``removed_names``'
TODO, which names the successor and the difference. Both sides ran: ``tests/legacy_api/test_moved_packages.py``.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, run

TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.utilities.apply_func import apply_to_collection\n",
        "from lightning_utilities.core.apply_func import apply_to_collection\n",
        id="apply_to_collection is lightning_utilities' from 2.0",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.seed import reset_seed as rs\n",
        "from lightning_fabric.utilities.seed import reset_seed as rs\n",
        id="reset_seed is lightning_fabric's, the alias kept",
    ),
    pytest.param(
        "import os\nfrom pytorch_lightning.utilities.seed import reset_seed, seed_everything\n",
        "import os\nfrom lightning_fabric.utilities.seed import reset_seed\nfrom pytorch_lightning import seed_everything\n",
        id="a statement shared with a name moved within pytorch_lightning goes to two imports",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.seed import isolate_rng, reset_seed\n",
        "from pytorch_lightning.utilities.seed import isolate_rng\nfrom lightning_fabric.utilities.seed import reset_seed\n",
        id="a name that stays keeps the statement; the moved one gets its own",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\npl.utilities.seed.reset_seed()\n",
        "import lightning_fabric.utilities.seed\n\nlightning_fabric.utilities.seed.reset_seed()\n",
        id="a dotted use is written in full and its module imported",
    ),
]

TODO = [
    pytest.param(
        "from pytorch_lightning.utilities.cloud_io import load\n",
        "lightning_fabric.utilities.cloud_io._load now; private there",
        id="cloud_io.load: the successor is private, a TODO names it and weights_only",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.distributed import sync_ddp\n",
        "lightning_fabric.utilities.distributed._sync_ddp now; private there",
        id="sync_ddp: private successor",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.apply_func import apply_to_collections\n",
        "zips two dataclasses field by field",
        id="apply_to_collections: public but not the same function",
    ),
]

NOOP = [
    pytest.param(
        "from pytorch_lightning.utilities.apply_func import apply_to_collection\n", "1.9", id="1.9 still has it"
    ),
    pytest.param(
        "try:\n    from pytorch_lightning.utilities.seed import reset_seed\nexcept ImportError:\n    reset_seed = None\n",
        "2.6",
        id="an import guarded by try/except ImportError already handles both",
    ),
    pytest.param("from lightning_fabric.utilities.seed import reset_seed\n", "2.6", id="already migrated"),
]


@pytest.mark.parametrize(("before", "after"), TRANSFORMED)
def test_transformed(before: str, after: str) -> None:
    outcome = check_transformed(before, after, target="2.6")
    assert "moved_packages" in {f.rule for f in outcome.findings}
    assert "removed_names" not in {f.rule for f in outcome.findings}


@pytest.mark.parametrize(("source", "words"), TODO)
def test_todo_names_the_successor(source: str, words: str) -> None:
    outcome = run(source, "2.6")
    assert [f.rule for f in outcome.findings if f.kind == "todo"] == ["removed_names"]
    assert words in outcome.source
    assert outcome.source.endswith(source)


@pytest.mark.parametrize(("source", "target"), NOOP)
def test_noop(source: str, target: str) -> None:
    check_noop(source, target=target)


def test_inside_a_block_a_split_is_a_todo() -> None:
    source = "def f():\n    from pytorch_lightning.utilities.seed import reset_seed, isolate_rng\n"
    outcome = run(source, "2.6")
    assert any(f.rule == "moved_packages" and f.kind == "todo" for f in outcome.findings)
    assert outcome.source.endswith(source.splitlines()[-1] + "\n")
