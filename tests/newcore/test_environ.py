"""newcore.environ answers exactly like os.environ, however the environment is changed or replaced."""

from __future__ import annotations

import os

import pytest

from newcore import environ


def test_sees_setenv_and_delenv(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not environ.has("NEWCORE_PROBE_VAR")
    assert environ.get("NEWCORE_PROBE_VAR") is None
    assert environ.get("NEWCORE_PROBE_VAR", "fallback") == "fallback"
    monkeypatch.setenv("NEWCORE_PROBE_VAR", "välue")
    assert environ.has("NEWCORE_PROBE_VAR")
    assert environ.get("NEWCORE_PROBE_VAR") == "välue"
    monkeypatch.delenv("NEWCORE_PROBE_VAR")
    assert not environ.has("NEWCORE_PROBE_VAR")


def test_sees_direct_writes() -> None:
    os.environ["NEWCORE_PROBE_VAR"] = "1"
    try:
        assert environ.get("NEWCORE_PROBE_VAR") == "1"
    finally:
        del os.environ["NEWCORE_PROBE_VAR"]
    assert environ.get("NEWCORE_PROBE_VAR") is None


def test_falls_back_when_os_environ_is_a_plain_mapping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "environ", {"ONLY_HERE": "x"})
    assert environ.has("ONLY_HERE")
    assert environ.get("ONLY_HERE") == "x"
    assert not environ.has("PATH")
