"""``compat.Runner`` launches every strategy it selects on the CPU, in real processes (gloo, 2 ranks).

Each launch runs :func:`_launch_workers.report`, which reads legacy properties in every process and
returns what each rank saw and warned. Rank zero warns once per call site; other ranks, processes the
launcher starts (while they rebuild themselves from the parent), and the parent during ``launch`` stay
silent, so no warning is ever shown twice.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import compat
from compat._warn import CompatDeprecationWarning
from tests.compat import _launch_workers

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

SCRIPT = str(Path(__file__).with_name("_launch_script.py"))
#: What the script inherits: this environment minus the rank variables of any launcher around the tests.
BASE_ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "NODE_RANK", "PYTHONWARNINGS") and not k.startswith("SLURM_")
}
FORK = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork here")

Flags = Callable[[], dict[str, Any]]


def _spawn_plugin_object() -> dict[str, Any]:
    return {"plugins": [compat.plugins.DDPSpawnPlugin()], "num_processes": 2}


def launch(flags: Flags) -> list[dict[str, Any]]:
    """Build the runner (it warns: the flags are 1.5's), then launch :func:`report` with the parent silent."""
    with pytest.warns(CompatDeprecationWarning):
        runner = compat.Runner(**flags())
    with warnings.catch_warnings(record=True) as launching:
        warnings.simplefilter("always")
        ranks: list[dict[str, Any]] = runner.launch(_launch_workers.report)
    assert [str(w.message) for w in launching] == []
    return ranks


def check(ranks: list[dict[str, Any]], strategy: str, distrib: str | None, world_size: int) -> None:
    assert [info["rank"] for info in ranks] == list(range(world_size))
    for info in ranks:
        assert (info["world_size"], info["num_processes"], info["num_gpus"]) == (world_size, world_size, 0)
        assert (info["strategy"], info["distrib"]) == (strategy, distrib)
        assert info["plugin_is_strategy"] and info["accelerator_plugin_is_strategy"]
        assert info["other_warnings"] == []
    assert ranks[0]["warned"] == _launch_workers.LEGACY_READS
    assert [info["warned"] for info in ranks[1:]] == [[]] * (world_size - 1)


SPAWNED = [
    pytest.param(
        lambda: {"accelerator": "ddp_cpu", "num_processes": 2},
        "DDPSpawnStrategy",
        "ddp_spawn",
        id="accelerator='ddp_cpu', num_processes=2 spawns",
    ),
    pytest.param(lambda: {"num_processes": 2}, "DDPSpawnStrategy", "ddp_spawn", id="num_processes=2 alone spawns"),
    pytest.param(
        lambda: {"accelerator": "ddp_sharded_spawn", "num_processes": 2},
        "DDPSpawnShardedStrategy",
        "ddp_sharded_spawn",
        id="accelerator='ddp_sharded_spawn' spawns",
    ),
    pytest.param(
        _spawn_plugin_object, "DDPSpawnPlugin", "ddp_spawn", id="a DDPSpawnPlugin object travels to the workers"
    ),
]


@pytest.mark.parametrize(("flags", "strategy", "distrib"), SPAWNED)
def test_spawned_workers_warn_from_rank_zero_only(flags: Flags, strategy: str, distrib: str) -> None:
    ranks = launch(flags)
    check(ranks, strategy, distrib, world_size=2)
    # Re-importing the module of the function to unpickle it read an old name again: silently.
    assert [info["at_import"] for info in ranks] == [[], []]


@FORK
def test_forked_workers_warn_from_rank_zero_only() -> None:
    ranks = launch(lambda: {"strategy": "ddp_fork", "num_processes": 2})
    check(ranks, "DDPSpawnStrategy", "ddp_spawn", world_size=2)
    # A forked worker imports nothing: it holds the parent's memory, warnings already shown included.
    assert [info["at_import"] for info in ranks] == [_launch_workers.AT_IMPORT] * 2


@pytest.mark.parametrize(
    "flags",
    [
        pytest.param({"num_processes": 1}, id="num_processes=1: one process"),
        pytest.param({"accelerator": "ddp"}, id="accelerator='ddp' on one CPU: one process, as in 1.5"),
    ],
)
def test_single_device_runs_in_this_process(flags: dict[str, Any]) -> None:
    ranks = launch(lambda: flags)
    check(ranks, "SingleDeviceStrategy", None, world_size=1)
    assert ranks[0]["at_import"] == ["`compat.plugins.DDPSpawnPlugin`"]  # the probe works where it may warn


@pytest.mark.parametrize(
    ("flags", "strategy", "distrib"),
    [
        pytest.param({"accelerator": "ddp", "num_processes": 2}, "DDPStrategy", "ddp", id="accelerator='ddp'"),
        pytest.param(
            {"accelerator": "ddp_sharded", "num_processes": 2},
            "DDPShardedStrategy",
            "ddp_sharded",
            id="accelerator='ddp_sharded'",
        ),
    ],
)
def test_script_children_do_not_repeat_the_scripts_warnings(
    flags: dict[str, Any], strategy: str, distrib: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, SCRIPT, json.dumps(flags), str(tmp_path)], env=BASE_ENV, capture_output=True, timeout=90
    )
    assert done.returncode == 0, done.stderr.decode()
    found = [json.loads((tmp_path / f"rank{rank}.json").read_text(encoding="utf-8")) for rank in (0, 1)]
    assert found[0]["ranks"] == found[1]["ranks"]
    check(found[0]["ranks"], strategy, distrib, world_size=2)
    # Rank 1 re-ran the whole script: building the runner and importing the workers' module, silently.
    assert found[0]["constructed"] and found[1]["constructed"] == []
    assert [info["at_import"] for info in found[0]["ranks"]] == [["`compat.plugins.DDPSpawnPlugin`"], []]


def test_objects_compat_builds_pickle_by_what_they_are_and_quietly() -> None:
    """What spawn sends a worker: the accelerator subclass with ``training_type_plugin``, alias classes, enum members."""
    with pytest.warns(CompatDeprecationWarning):
        runner = compat.Runner(plugins=[compat.plugins.DDPSpawnPlugin()], num_processes=2)
        member = runner._distrib_type
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        strategy, copied_member = pickle.loads(pickle.dumps((runner.strategy, member)))
    assert [str(w.message) for w in caught] == []
    assert type(strategy) is type(runner.strategy) and type(strategy.accelerator) is type(runner.strategy.accelerator)
    assert strategy.accelerator.__dict__["_compat_owner"][1] is strategy
    assert copied_member is member
