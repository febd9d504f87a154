"""The ``--compat-audit`` pytest plugin, run in fresh sessions through ``pytester``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Load the plugin by module whether or not the project is installed: ``no:compat_audit`` blocks the
#: entry point so an installed copy is not registered twice.
PLUGIN = ("-p", "no:compat_audit", "-p", "compat.pytest_plugin", "-p", "no:cacheprovider")

LEGACY_TESTS = """
import warnings
import pytest
import compat

def test_uses_gpus_flag():
    compat.AcceleratorConnector(num_processes=2)

def test_uses_ddp_plugin_twice():
    from compat.plugins import DDPPlugin
    from compat.plugins import DDPPlugin as Again

def test_asserts_its_warning():
    with pytest.warns(compat.CompatDeprecationWarning):
        from compat.accelerators import GPUAccelerator

def test_clean():
    compat.AcceleratorConnector(accelerator="cpu", devices=1)
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.syspathinsert(ROOT)
    pytester.makepyfile(test_legacy=LEGACY_TESTS)
    return pytester


def test_off_unless_asked(project: pytest.Pytester) -> None:
    result = project.runpytest(*PLUGIN, "-W", "ignore::FutureWarning")
    result.assert_outcomes(passed=4)
    assert "compat audit" not in result.stdout.str()


def test_report_lists_old_api_replacement_count_and_first_location(project: pytest.Pytester) -> None:
    result = project.runpytest(*PLUGIN, "--compat-audit", "-W", "ignore::FutureWarning")
    result.assert_outcomes(passed=4)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "*compat audit*",
            "old API*replacement*count*first location",
            "`compat.plugins.DDPPlugin`*`newcore.strategies.DDPStrategy`*2*test_legacy.py:9",
            "`AcceleratorConnector(num_processes=2)`*`accelerator='cpu', devices=2`*1*test_legacy.py:6",
            "`compat.accelerators.GPUAccelerator`*`newcore.accelerators.CUDAAccelerator`*1*test_legacy.py:14",
            "3 legacy APIs, 4 uses: report only.",
        ]
    )


def test_error_mode_fails_an_otherwise_green_session(project: pytest.Pytester) -> None:
    result = project.runpytest(*PLUGIN, "--compat-audit=error", "-W", "error::FutureWarning", "-k", "asserts")
    result.assert_outcomes(passed=1)  # the test itself passes: it expects its warning
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*failing the session (--compat-audit=error)*"])


def test_error_mode_passes_when_nothing_legacy_ran(project: pytest.Pytester) -> None:
    result = project.runpytest(*PLUGIN, "--compat-audit=error", "-k", "clean")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*No legacy Lightning API was used through compat.*"])


def test_json_report(project: pytest.Pytester) -> None:
    path = project.path / "audit.json"
    result = project.runpytest(*PLUGIN, f"--compat-audit-json={path}", "-W", "ignore::FutureWarning")
    assert result.ret == 0
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["mode"] == "report" and report["total"] == 4
    first = report["entries"][0]
    assert first == {
        "old": "`compat.plugins.DDPPlugin`",
        "replacement": "`newcore.strategies.DDPStrategy`",
        "removed_in": "1.0.0",
        "category": "CompatDeprecationWarning",
        "count": 2,
        "first_location": "test_legacy.py:9",
    }


def test_registered_as_a_pytest11_entry_point() -> None:
    # Read as text: tomllib is 3.11+, and the project supports 3.10.
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points.pytest11]\ncompat_audit = "compat.pytest_plugin"\n' in pyproject
