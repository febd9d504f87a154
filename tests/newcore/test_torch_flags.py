"""``deterministic=`` and ``benchmark=`` change torch's real global state (restored after each test)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import torch

from newcore import AcceleratorConnector


@pytest.fixture(autouse=True)
def _restore_torch_flags() -> Iterator[None]:
    deterministic = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    benchmark = torch.backends.cudnn.benchmark
    yield
    # The shared env guard starts every test without CUBLAS_WORKSPACE_CONFIG; the connector may set it.
    os.environ.pop("CUBLAS_WORKSPACE_CONFIG", None)
    torch.use_deterministic_algorithms(deterministic, warn_only=warn_only)
    torch.backends.cudnn.benchmark = benchmark


def test_deterministic_true_turns_torch_deterministic() -> None:
    AcceleratorConnector(deterministic=True)
    assert torch.are_deterministic_algorithms_enabled()
    assert not torch.is_deterministic_algorithms_warn_only_enabled()
    assert os.environ["CUBLAS_WORKSPACE_CONFIG"] == ":4096:8"
    assert torch.backends.cudnn.benchmark is False


def test_deterministic_keeps_a_users_cublas_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", ":16:8")
    AcceleratorConnector(deterministic=True)
    assert os.environ["CUBLAS_WORKSPACE_CONFIG"] == ":16:8"


def test_deterministic_warn_uses_warn_only_mode() -> None:
    AcceleratorConnector(deterministic="warn")
    assert torch.are_deterministic_algorithms_enabled()
    assert torch.is_deterministic_algorithms_warn_only_enabled()


def test_deterministic_false_turns_it_off() -> None:
    torch.use_deterministic_algorithms(True)
    AcceleratorConnector(deterministic=False)
    assert not torch.are_deterministic_algorithms_enabled()


def test_unset_flags_leave_torch_alone() -> None:
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = True
    AcceleratorConnector()
    assert torch.are_deterministic_algorithms_enabled()
    assert torch.backends.cudnn.benchmark is True
    assert "CUBLAS_WORKSPACE_CONFIG" not in os.environ


def test_benchmark_is_applied() -> None:
    AcceleratorConnector(benchmark=True)
    assert torch.backends.cudnn.benchmark is True
    AcceleratorConnector(benchmark=False)
    assert torch.backends.cudnn.benchmark is False


def test_deterministic_and_benchmark_warns_and_keeps_both() -> None:
    with pytest.warns(UserWarning, match="benchmark=True"):
        AcceleratorConnector(deterministic=True, benchmark=True)
    assert torch.are_deterministic_algorithms_enabled()
    assert torch.backends.cudnn.benchmark is True
