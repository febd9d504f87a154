"""``legacy_api.attributes``: which attributes of the Trainer and the objects it holds 1.x had and a target lacks.

The spec rows read the recorded surfaces; the runtime test asks a real Lightning 2.6.6 (the reference venv, where it
is installed) that every attribute the rule calls gone at 2.6 is really absent there, and that the runtime facts the
module keeps (attributes the recording misses, the private connectors' members) are what the real objects have.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from legacy_api import attributes
from legacy_api.attributes import CONNECTORS_2X, KINDS, RUNTIME, gone, instead, kind_of_class, removed_in

PYTHON_266 = Path("/tmp/plref/venvs/2.6.6/bin/python")


@pytest.mark.parametrize(
    ("release", "kind", "attr", "expected"),
    [
        pytest.param(
            "2.6.6", "strategy", "should_rank_save_checkpoint", True, id="Strategy.should_rank_save_checkpoint"
        ),
        pytest.param("2.6.6", "strategy", "on_gpu", True, id="Strategy.on_gpu"),
        pytest.param("2.6.6", "strategy", "reduce", False, id="Strategy.reduce is still there"),
        pytest.param("2.6.6", "strategy", "num_processes", False, id="one 2.x strategy having it is enough"),
        pytest.param("2.6.6", "trainer", "progress_bar_dict", True, id="Trainer.progress_bar_dict"),
        pytest.param("1.6.5", "trainer", "progress_bar_dict", False, id="still there at 1.6"),
        pytest.param("2.6.6", "trainer", "callbacks", False, id="set by a connector: kept by the runtime facts"),
        pytest.param("2.6.6", "trainer", "my_own_attribute", False, id="never Lightning's: never gone"),
        pytest.param("2.6.6", "accelerator", "root_device", True, id="Accelerator.root_device"),
        pytest.param("2.6.6", "accelerator_connector", "num_processes", True, id="a connector, from the runtime facts"),
        pytest.param("2.6.6", "accelerator_connector", "strategy", False, id="the connector's strategy stays"),
        pytest.param("2.5.6", "accelerator_connector", "amp_level", False, id="unknown at 2.5: never called gone"),
    ],
)
def test_gone(release: str, kind: str, attr: str, expected: bool) -> None:
    assert gone(release, kind, attr) is expected


@pytest.mark.parametrize(
    ("kind", "attr", "expected"),
    [
        pytest.param("trainer", "progress_bar_dict", "in 1.7", id="the first release without it"),
        pytest.param("strategy", "on_gpu", "in 1.6", id="Strategy.on_gpu went with 1.6"),
        pytest.param("checkpoint_connector", "resume_from_checkpoint_fit_path", "after 1.9", id="unrecorded 2.x class"),
    ],
)
def test_removed_in(kind: str, attr: str, expected: str) -> None:
    assert removed_in("2.6.6", kind, attr) == expected


def test_instead_looks_for_the_successor_where_the_table_says_nothing() -> None:
    assert instead("2.6.6", "accelerator", "root_device") == "trainer.strategy.root_device"
    assert instead("2.6.6", "accelerator_connector", "num_nodes") == "trainer.num_nodes"


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("pytorch_lightning.plugins.DDPPlugin", "strategy"),
        ("pytorch_lightning.strategies.DDPStrategy", "strategy"),
        ("pytorch_lightning.Trainer", "trainer"),
        ("pytorch_lightning.accelerators.GPUAccelerator", "accelerator"),
        ("pytorch_lightning.plugins.NativeMixedPrecisionPlugin", "precision"),
        ("pytorch_lightning.LightningModule", None),
    ],
)
def test_kind_of_class(path: str, kind: str | None) -> None:
    assert kind_of_class(path) == kind


def test_the_module_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(attributes.__file__).read_text(encoding="utf-8"))
    roots = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    roots |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert roots <= set(sys.stdlib_module_names) | {"__future__", "legacy_api"}


#: Run in the real 2.6.6: each kind -> the names its objects have (instances and every class of the family).
_PROBE = """
import inspect, json, sys, warnings
warnings.filterwarnings("ignore")
import pytorch_lightning as pl
from pytorch_lightning import strategies, accelerators
from pytorch_lightning.plugins import precision

def names(obj):
    return set(dir(obj)) | set(getattr(obj, "__dict__", {}))

trainer = pl.Trainer(accelerator="cpu", devices=1, logger=False, enable_progress_bar=False)
found = {"trainer": names(trainer)}
for kind, module, base, instance in (
    ("strategy", strategies, strategies.Strategy, trainer.strategy),
    ("accelerator", accelerators, accelerators.Accelerator, trainer.accelerator),
    ("precision", precision, precision.Precision, trainer.precision_plugin),
):
    found[kind] = names(instance)
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if issubclass(cls, base):
            found[kind] |= names(cls)
found["strategy"] |= names(strategies.DDPStrategy())
for kind in ("accelerator", "checkpoint", "logger", "data"):
    found[f"{kind}_connector"] = names(getattr(trainer, f"_{kind}_connector"))
json.dump({kind: sorted(values) for kind, values in found.items()}, sys.stdout)
"""


@pytest.fixture(scope="module")
def real_266() -> dict[str, frozenset[str]]:
    if not PYTHON_266.exists():
        pytest.skip(f"the reference Lightning 2.6.6 venv is not installed ({PYTHON_266})")
    done = subprocess.run([str(PYTHON_266), "-c", _PROBE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {kind: frozenset(values) for kind, values in json.loads(done.stdout).items()}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_what_is_called_gone_at_26_is_absent_from_the_real_objects(
    kind: str, real_266: dict[str, frozenset[str]]
) -> None:
    flagged = {attr for attr in attributes.vocabulary() if gone("2.6.6", kind, attr)}
    assert flagged, f"nothing of {kind} is gone"
    assert not flagged & real_266[kind]


def test_the_runtime_facts_are_what_the_real_objects_have(real_266: dict[str, frozenset[str]]) -> None:
    for kind, names in RUNTIME.items():
        assert names <= real_266[kind]
    members = dir(object)
    for kind, (release, names) in CONNECTORS_2X.items():
        assert release == "2.6.6"
        real = {name for name in real_266[kind] if name not in members and not name.startswith("__")}
        assert names == real, kind
