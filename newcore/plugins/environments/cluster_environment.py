"""What a cluster scheduler tells each process about the job it belongs to."""

from __future__ import annotations

from abc import ABC, abstractmethod

from newcore import environ
from newcore.exceptions import MisconfigurationException


class ClusterEnvironment(ABC):
    """Ranks, world size and rendezvous address, as set by a scheduler (or by our own launcher).

    Detection reads environment variables only, so a job behaves the same however it was started.
    """

    @property
    @abstractmethod
    def creates_processes_externally(self) -> bool:
        """Whether the scheduler starts every process itself (so our launcher must not)."""

    @property
    @abstractmethod
    def main_address(self) -> str:
        """Host of the rank-0 process, for the rendezvous."""

    @property
    @abstractmethod
    def main_port(self) -> int:
        """Port of the rendezvous."""

    @staticmethod
    @abstractmethod
    def detect() -> bool:
        """Whether the current process runs under this environment."""

    @abstractmethod
    def world_size(self) -> int:
        """Number of processes in the job."""

    @abstractmethod
    def set_world_size(self, size: int) -> None:
        """Record the world size the strategy computed (ignored where the scheduler owns it)."""

    @abstractmethod
    def global_rank(self) -> int:
        """Rank of this process in the job."""

    @abstractmethod
    def set_global_rank(self, rank: int) -> None:
        """Record the global rank the strategy computed (ignored where the scheduler owns it)."""

    @abstractmethod
    def local_rank(self) -> int:
        """Rank of this process on its node."""

    @abstractmethod
    def node_rank(self) -> int:
        """Rank of this node in the job."""

    def validate_settings(self, num_devices: int, num_nodes: int) -> None:
        """Raise a ``MisconfigurationException`` if the flags disagree with what the scheduler set."""

    def teardown(self) -> None:
        """Undo whatever this environment exported (e.g. ``MASTER_PORT``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def env_int(name: str, default: int | None = None) -> int:
    """``int(os.environ[name])``, but a missing or malformed value is a ``MisconfigurationException`` naming it.

    Schedulers export ranks as strings; a typo in a job script should say which variable is wrong,
    not surface as ``ValueError: invalid literal for int()``.
    """
    raw = environ.get(name)
    if raw is None:
        if default is not None:
            return default
        raise MisconfigurationException(
            f"The environment variable `{name}` is not set, but the detected cluster environment needs it."
            " Set it in the job script, or pass a different `ClusterEnvironment` in `plugins`."
        )
    try:
        return int(raw.strip())
    except ValueError:
        raise MisconfigurationException(
            f"The environment variable `{name}={raw!r}` must be an integer. Fix it in the job script."
        ) from None
