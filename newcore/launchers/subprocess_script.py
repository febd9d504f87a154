"""Launching ``ddp``: the script re-runs itself once per extra local process."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from newcore.launchers.launcher import Launcher

if TYPE_CHECKING:
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment


class _SubprocessScriptLauncher(Launcher):
    """Starts ``num_processes - 1`` copies of the running script on this node; rank 0 is the current process.

    Each child re-executes ``sys.argv`` with its rank in the environment, which is why this launcher
    cannot work in a notebook: there is no script to re-run.
    """

    def __init__(self, cluster_environment: ClusterEnvironment | None, num_processes: int, num_nodes: int) -> None:
        self.cluster_environment = cluster_environment
        self.num_processes = num_processes
        self.num_nodes = num_nodes

    @property
    def is_interactive_compatible(self) -> bool:
        return False

    def launch(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "_SubprocessScriptLauncher cannot start processes yet: launching lands in the next newcore stage."
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_processes={self.num_processes}, num_nodes={self.num_nodes})"
