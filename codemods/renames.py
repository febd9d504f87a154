"""The renames table lives in :mod:`legacy_api.renames` (shared with ``compat``); this module re-exports it."""

from legacy_api.renames import *  # noqa: F403
from legacy_api.renames import MARKER_END, MARKER_START, render_markdown  # noqa: F401
