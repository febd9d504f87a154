"""Rule ``profiler_package``: ``pytorch_lightning.profiler``'s classes live in ``pytorch_lightning.profilers`` from 1.7
(the old package is gone in 1.9), ``BaseProfiler`` is ``Profiler`` (1.7's BaseProfiler only warned), and a use of
``AbstractProfiler``, a bare ABC with no exact successor, gets a TODO.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, exercised

RULE = "profiler_package"

TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.profiler import SimpleProfiler\nprofiler = SimpleProfiler(extended=False)\n",
        "from pytorch_lightning.profilers import SimpleProfiler\nprofiler = SimpleProfiler(extended=False)\n",
        "2.6",
        id="the package's SimpleProfiler is the new package's",
    ),
    pytest.param(
        "from pytorch_lightning.profiler.pytorch import PyTorchProfiler\nprofiler = PyTorchProfiler()\n",
        "from pytorch_lightning.profilers.pytorch import PyTorchProfiler\nprofiler = PyTorchProfiler()\n",
        "1.7",
        id="a submodule's class keeps its submodule, at 1.7 where the old one still warns",
    ),
    pytest.param(
        "import pytorch_lightning as pl\nprofiler = pl.profiler.AdvancedProfiler()\n",
        "import pytorch_lightning as pl\nprofiler = pl.profilers.AdvancedProfiler()\n",
        "2.6",
        id="dotted through the package",
    ),
    pytest.param(
        "from pytorch_lightning.profiler.base import BaseProfiler\n\n\nclass Mine(BaseProfiler):\n"
        "    def start(self, action_name):\n        pass\n",
        "from pytorch_lightning.profilers.profiler import Profiler\n\n\nclass Mine(Profiler):\n"
        "    def start(self, action_name):\n        pass\n",
        "2.6",
        id="BaseProfiler as a base class becomes Profiler",
    ),
    pytest.param(
        "from pytorch_lightning.profiler import BaseProfiler, PassThroughProfiler\n",
        "from pytorch_lightning.profilers import Profiler, PassThroughProfiler\n",
        "2.6",
        id="BaseProfiler and PassThroughProfiler imported from the package",
    ),
    pytest.param(
        "from pytorch_lightning.profiler import AbstractProfiler\n\n\nclass Mine(AbstractProfiler):\n    pass\n",
        "# TODO(migrate-trainer): pytorch_lightning.profiler.AbstractProfiler is gone in 1.8, so this import fails: "
        "AbstractProfiler is gone in 1.8: subclass pytorch_lightning.profilers.Profiler and call its __init__ (2.x's "
        "Trainer calls profile() and describe(), which read the attributes it sets) [profiler_package]\n"
        "from pytorch_lightning.profiler import AbstractProfiler\n\n\n"
        "# TODO(migrate-trainer): AbstractProfiler: AbstractProfiler is gone in 1.8: subclass "
        "pytorch_lightning.profilers.Profiler and call its __init__ (2.x's Trainer calls profile() and describe(), "
        "which read the attributes it sets) [profiler_package]\nclass Mine(AbstractProfiler):\n    pass\n",
        "2.6",
        id="AbstractProfiler as a base class gets the TODO, and its import",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_rewrites(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target=target)


NOOP = [
    pytest.param(
        "from pytorch_lightning.profilers import SimpleProfiler\nprofiler = SimpleProfiler()\n",
        id="the new package stays",
    ),
    pytest.param(
        "from mypkg.profiler import SimpleProfiler, BaseProfiler\n\n\nclass Mine(BaseProfiler):\n    pass\n",
        id="a profiler package of another project stays",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\n\n\nclass BaseProfiler:\n    pass\n\n\nclass Mine(BaseProfiler):\n"
        "    pass\n",
        id="the user's own BaseProfiler class stays",
    ),
]


@pytest.mark.parametrize("source", NOOP)
def test_noop(source: str) -> None:
    check_noop(source, target="2.6")


def test_before_the_new_package_nothing_moves() -> None:
    # pytorch_lightning.profilers is new in 1.7: at 1.6 the old names are the only ones.
    check_noop("from pytorch_lightning.profiler import SimpleProfiler\nprofiler = SimpleProfiler()\n", target="1.6")


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
