"""The connector checks one required variable per scheduler before running its full detection.

That shortcut is only sound if the variable really is required: without it, detection must fail.
"""

from __future__ import annotations

from typing import Any

import pytest

from newcore.connector.select import ENVIRONMENT_DETECTION
from tests.conftest import CLUSTERS

BY_CLASS = {
    "SLURMEnvironment": "slurm",
    "TorchElasticEnvironment": "torchelastic",
    "KubeflowEnvironment": "kubeflow",
    "LSFEnvironment": "lsf",
}


@pytest.mark.parametrize(
    ("cls", "required", "detected"), ENVIRONMENT_DETECTION, ids=lambda v: getattr(v, "__name__", v)
)
def test_required_variable_is_required(
    machine: Any, monkeypatch: pytest.MonkeyPatch, cls: type, required: str, detected: Any
) -> None:
    cluster = BY_CLASS[cls.__name__]
    machine(cluster=cluster)
    assert detected(2, 2), f"the canned {cluster} environment should be detected"
    monkeypatch.delenv(required)
    assert not detected(2, 2), f"{cls.__name__} is detected without {required}: the connector's shortcut is wrong"


def test_every_environment_is_covered() -> None:
    assert {cls.__name__ for cls, _, _ in ENVIRONMENT_DETECTION} == set(BY_CLASS)
    assert set(BY_CLASS.values()) <= set(CLUSTERS)
