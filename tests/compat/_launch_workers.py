"""What ``compat.Runner`` runs in real worker processes (module level, so that spawn pickles it by name).

Importing this module reads an old name at module level, as a user's script does: a spawned worker
imports the module again to unpickle :func:`report`, and must not warn again (:data:`AT_IMPORT`).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import compat
import compat.plugins
from compat._warn import CompatDeprecationWarning, add_listener, remove_listener

#: The compat warnings this process emitted (on rank zero, before filters) while importing this module.
AT_IMPORT: list[str] = []


def _record(warning: CompatDeprecationWarning, filename: str, lineno: int) -> None:
    AT_IMPORT.append(warning.notice.old)


add_listener(_record)
with warnings.catch_warnings():  # the parent's warning is not what the tests count; the listener saw it
    warnings.simplefilter("ignore", CompatDeprecationWarning)
    LEGACY_CLASS = compat.plugins.DDPSpawnPlugin
remove_listener(_record)

#: Legacy reads :func:`report` makes, each once, one of them from a line run twice.
LEGACY_READS = [
    "`Runner.num_gpus`",
    "`Runner.training_type_plugin`",
    "`Runner.accelerator.training_type_plugin`",
    "`Runner._distrib_type`",
    "`Runner.num_processes`",
]


def report(runner: compat.Runner) -> list[dict[str, Any]]:
    """Every rank's view (gathered to all ranks): its rank, legacy properties, and the compat warnings it showed."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # once per call site, as a user's session shows them
        mine: dict[str, Any] = {
            "rank": runner.global_rank,
            "world_size": runner.world_size,
            "strategy": type(runner.strategy).__name__,
            "num_gpus": runner.num_gpus,
            "plugin_is_strategy": runner.training_type_plugin is runner.strategy,
            "accelerator_plugin_is_strategy": runner.accelerator is not None
            and runner.accelerator.training_type_plugin is runner.strategy,
            "distrib": runner._distrib_type,  # an enum member: it pickles back to the parent, quietly
        }
        for _ in range(2):
            mine["num_processes"] = runner.num_processes
    mine["warned"] = [str(w.message.notice.old) for w in caught if isinstance(w.message, CompatDeprecationWarning)]
    mine["other_warnings"] = [str(w.message) for w in caught if not isinstance(w.message, CompatDeprecationWarning)]
    mine["at_import"] = list(AT_IMPORT)
    return [runner.broadcast(mine, src=rank) for rank in range(runner.world_size)]


def save_report(runner: compat.Runner, out: str, constructed: list[str]) -> None:
    """For scripts: :func:`report` plus the warnings this process showed building the runner, as JSON."""
    ranks = report(runner)
    for info in ranks:
        info["distrib"] = None if info["distrib"] is None else str(info["distrib"])
    result = {"ranks": ranks, "constructed": constructed}
    Path(out, f"rank{runner.global_rank}.json").write_text(json.dumps(result), encoding="utf-8")
