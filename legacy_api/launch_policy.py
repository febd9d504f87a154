"""Where code from 1.5 keeps 1.5's spawn launcher on 2.x: in a test suite. One fact, read by both front ends.

1.5 spawned the processes of several devices chosen without a strategy (``gpus=2``, ``num_processes=2``,
``accelerator="ddp_cpu"``). 2.0's default for them is ``"ddp"`` with the subprocess script launcher, which starts
``sys.argv`` again in each child: under pytest, the whole test session once more per device. So where a test suite
runs the code, both keep what 1.5 ran, :data:`TEST_SUITE_STRATEGY`: ``migrate-trainer`` for files under a test path
(``Plan.test_suite``; rules ``ddp_cpu`` and ``trainer_defaults``), ``compat.lightning`` while pytest runs the program
(:func:`under_pytest`), through :func:`legacy_api.translate.translate`'s ``test_suite``. Elsewhere the launcher is
2.x's own choice (MIGRATION.md, "Selection policy"). Standard library only.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from legacy_api.lightning15 import device_count

#: The strategy that launches as 1.5 did: spawned children that do not re-run the test command.
TEST_SUITE_STRATEGY = "ddp_spawn"
#: Accelerators whose several devices 2.x runs with their own strategy and launcher (XLA, ...): 1.5 spawned nothing
#: there that ``ddp_spawn`` would keep.
OWN_LAUNCHERS = frozenset({"tpu", "ipu", "hpu"})


def spawns_in_test_suite(accelerator: object, devices: object, strategy: object) -> bool:
    """Whether 2.x flags (after the translation) are several devices with no strategy on an accelerator that 1.5
    spawned for: the flags that get :data:`TEST_SUITE_STRATEGY` in a test suite."""
    if strategy is not None:
        return False
    if isinstance(accelerator, str) and accelerator.strip().lower() in OWN_LAUNCHERS:
        return False
    count = device_count(devices) if devices is not None else None
    return count is not None and count > 1


def under_pytest(modules: Mapping[str, object] | None = None) -> bool:
    """Whether pytest runs this process: its module is loaded (any session, ``--compat-lightning`` included)."""
    return "pytest" in (sys.modules if modules is None else modules)
