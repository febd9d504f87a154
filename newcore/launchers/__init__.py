"""Launchers: how a strategy starts the processes it trains in."""

from newcore.launchers.launcher import Launcher
from newcore.launchers.spawn import _SpawnLauncher
from newcore.launchers.subprocess_script import _SubprocessScriptLauncher
from newcore.launchers.xla_spawn import _XLASpawnLauncher

__all__ = ["Launcher", "_SpawnLauncher", "_SubprocessScriptLauncher", "_XLASpawnLauncher"]
