"""The one exception type for a user's mistake.

Every error caused by the flags or objects a user passes is a :class:`MisconfigurationException`.
It subclasses :class:`ValueError` so that ``except ValueError`` in existing code still catches it,
and so that no user input ever surfaces as a bare ``KeyError``/``AttributeError``/``TypeError``.
"""

from __future__ import annotations


class MisconfigurationException(ValueError):
    """The user passed flags or objects that cannot work together.

    The message names the flags as the user passed them, why they fail, and what to pass instead.
    """


class MissingBackendError(MisconfigurationException):
    """An optional backend (torch-xla, horovod, deepspeed, fairscale, apex, poptorch) is not installed."""

    def __init__(self, what: str, *, package: str, install: str) -> None:
        super().__init__(
            f"{what} requires the `{package}` package, which is not installed. Install it with `{install}`."
        )
        self.package = package
        self.install = install
