"""The ``lightning`` tier: tests of ``compat.lightning`` on the real, installed Lightning 2.x.

Every test here is marked ``lightning`` and skips without ``pytorch_lightning`` (the main venv never has it), with a
reason naming ``tools/lightning-venv.sh``; ``LIGHTNING_MIGRATE_REQUIRE_TIERS=lightning`` (CI) turns that skip into
a failure. Run the tier from the repo root:

    LPY="$(tools/lightning-venv.sh | tail -n1)"
    "$LPY" -m pytest -q -p compat.pytest_plugin -m lightning tests/compat/lightning

The ``shim`` fixture installs the shim for one test and uninstalls it after, checking that it is gone.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
REASON = (
    "needs the real Lightning 2.x: run this tier with the venv of tools/lightning-venv.sh "
    '("$(tools/lightning-venv.sh | tail -n1)" -m pytest -m lightning tests/compat/lightning)'
)


def has_lightning() -> bool:
    return importlib.util.find_spec("pytorch_lightning") is not None


def require_lightning() -> None:
    """Skip (or, under LIGHTNING_MIGRATE_REQUIRE_TIERS=lightning, fail) without a real Lightning."""
    if has_lightning():
        return
    if "lightning" in os.environ.get("LIGHTNING_MIGRATE_REQUIRE_TIERS", "").split(","):
        pytest.fail(REASON, pytrace=False)
    pytest.skip(REASON)


if has_lightning():
    # Lightning sets environment variables when first imported (PYTORCH_NVML_BASED_CUDA_CHECK): import it before any
    # test, so the root conftest's env-leak guard does not blame the first test that imports it.
    import pytorch_lightning  # noqa: F401


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.lightning)
            # Lightning's own chatter ("GPU available but not used") is not what these tests check; compat's
            # warnings are checked where a test asks for them (pytest.warns / catch_warnings).
            for spec in ("ignore::UserWarning", "ignore::DeprecationWarning", "ignore::FutureWarning"):
                item.add_marker(pytest.mark.filterwarnings(spec))


@pytest.fixture(autouse=True)
def _lightning_required() -> None:
    require_lightning()


@pytest.fixture
def shim() -> Iterator[Any]:
    """``compat.lightning``, installed for this test; uninstalled (and checked gone) after it."""
    import compat.lightning as shim_module

    shim_module.install()
    try:
        yield shim_module
    finally:
        shim_module.uninstall()
    assert not shim_module.installed()
