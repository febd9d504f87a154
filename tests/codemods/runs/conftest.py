"""The ``lightning`` tier's codemod half: migrated programs run on the real, installed Lightning 2.x.

Marked ``lightning`` and skipped without ``pytorch_lightning`` like ``tests/compat/lightning`` (CI runs both with the
venv of ``tools/lightning-venv.sh``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compat.lightning.conftest import require_lightning

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.lightning)


@pytest.fixture(autouse=True)
def _lightning_required() -> None:
    require_lightning()
