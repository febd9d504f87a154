"""Warning categories of newcore, so users can filter them precisely."""

from __future__ import annotations

import warnings


class NewcoreWarning(UserWarning):
    """Base of every warning newcore emits."""


class FallbackWarning(NewcoreWarning):
    """The connector chose something other than what the flags literally asked for, and says why."""


def warn_fallback(message: str, *, stacklevel: int = 2) -> None:
    """Emit a :class:`FallbackWarning` (the connector never falls back silently)."""
    warnings.warn(message, FallbackWarning, stacklevel=stacklevel + 1)
