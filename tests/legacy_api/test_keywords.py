"""``legacy_api.keywords``: the facts the recordings cannot give, asked of the real releases where they are installed.

Both sides of the dropped strategy keyword: on real 1.5.10 a ``DDPPlugin(num_nodes=2)`` passed to a Trainer ends with
the Trainer's ``num_nodes`` (1), and the migrated call (the tool's own output) builds on real 2.6.6 with the same 1.
The signatures ``UNRECORDED`` keeps are what ``inspect`` says of the real 2.6.6 objects.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codemods.model import Options
from codemods.runner import transform_text
from legacy_api.keywords import OVERRIDDEN, UNRECORDED, unrecorded

PYTHON_1510 = Path("/tmp/plref/venvs/1.5.10/bin/python")
PYTHON_266 = Path("/tmp/plref/venvs/2.6.6/bin/python")

LEGACY = """\
import warnings
warnings.filterwarnings("ignore")
from pytorch_lightning import Trainer
from pytorch_lightning.plugins import DDPPlugin

trainer = Trainer(strategy=DDPPlugin(num_nodes=2), accelerator="cpu", num_processes=2)
"""
PRINTS = {
    "1.5.10": "print(trainer.training_type_plugin.num_nodes)\n",
    "2.6.6": "print(trainer.strategy.num_nodes, getattr(trainer.strategy, '_ddp_kwargs', {}))\n",
}


def _run(python: Path, source: str) -> str:
    if not python.exists():
        pytest.skip(f"the reference venv is not installed ({python})")
    done = subprocess.run([str(python), "-c", source], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_plugins_num_nodes_had_no_effect_in_15_and_the_migrated_call_keeps_that_on_266() -> None:
    assert _run(PYTHON_1510, LEGACY + PRINTS["1.5.10"]) == "1"
    outcome = transform_text(LEGACY, "snippet.py", Options())
    assert "num_nodes=2" not in outcome.source
    assert _run(PYTHON_266, outcome.source + PRINTS["2.6.6"]) == "1 {}"


def test_the_overridden_keywords_are_trainer_flags() -> None:
    assert sorted(flag for flag, _ in OVERRIDDEN.values()) == ["num_nodes", "sync_batchnorm"]


_SIGNATURES = """\
import inspect, pytorch_lightning.utilities.model_helpers as helpers
from pytorch_lightning.loggers.logger import Logger
print(tuple(inspect.signature(helpers.is_overridden).parameters), Logger.__init__ is object.__init__)
"""


def test_the_unrecorded_signatures_are_the_real_266_ones() -> None:
    assert _run(PYTHON_266, _SIGNATURES) == "('method_name', 'instance', 'parent') True"
    assert unrecorded("pytorch_lightning.loggers.logger.Logger.__init__", "2.6.6") == "(self)"
    assert unrecorded("pytorch_lightning.loggers.logger.Logger.__init__", "1.7.7") is None


@pytest.mark.parametrize("path", sorted(UNRECORDED))
def test_each_unrecorded_signature_parses(path: str) -> None:
    from legacy_api.keywords import signature_keywords

    assert signature_keywords(UNRECORDED[path][1]) is not None
