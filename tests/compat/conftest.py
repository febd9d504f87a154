"""compat tests use pytest's own ``pytester`` to run the audit plugin in a fresh session.

``pytest_plugins`` is only allowed in the root conftest, which other suites share: register it here instead.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("pytester"):
        config.pluginmanager.import_plugin("pytester")
