"""``codemods.kinds.is_test_path``: which files run under pytest, where the launcher policy writes the spawn
launcher 1.5 used (MIGRATION.md, "Selection policy")."""

from __future__ import annotations

import pytest

from codemods.kinds import is_test_path


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("tests/test_train.py", True, id="a test module in tests/"),
        pytest.param("tests/helpers/models.py", True, id="a helper inside tests/"),
        pytest.param("src/pkg/test/utils.py", True, id="a test/ folder"),
        pytest.param("test_smoke.py", True, id="test_*.py at the top"),
        pytest.param("pkg/model_test.py", True, id="*_test.py"),
        pytest.param("conftest.py", True, id="conftest.py"),
        pytest.param("src/train.py", False, id="a training script"),
        pytest.param("src/testing_utils_helpers.py", False, id="a name that only starts like test"),
        pytest.param("src/latest.py", False, id="a name ending in test without the underscore"),
    ],
)
def test_is_test_path(path: str, expected: bool) -> None:
    assert is_test_path(path) is expected
