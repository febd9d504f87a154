"""Every spelling of ``devices=``, accepted and refused, for each parser in newcore.devices."""

from __future__ import annotations

import pytest

from newcore.devices import parse_count, parse_indices, parse_tpu
from newcore.exceptions import MisconfigurationException


@pytest.mark.parametrize(
    ("devices", "available", "expected"),
    [
        pytest.param(1, 4, [0], id="1 picks the first GPU"),
        pytest.param(2, 4, [0, 1], id="2 picks the first two GPUs"),
        pytest.param("2", 4, [0, 1], id="'2' is a count like 2"),
        pytest.param(" 3 ", 4, [0, 1, 2], id="surrounding spaces are ignored"),
        pytest.param("0,1", 4, [0, 1], id="'0,1' selects indices 0 and 1"),
        pytest.param("1,", 4, [1], id="'1,' selects index 1, not one device"),
        pytest.param("3, 1", 4, [3, 1], id="index order is kept"),
        pytest.param([0, 2], 4, [0, 2], id="a list selects those indices"),
        pytest.param((1,), 4, [1], id="a tuple selects those indices"),
        pytest.param(-1, 3, [0, 1, 2], id="-1 selects every GPU"),
        pytest.param("-1", 3, [0, 1, 2], id="'-1' selects every GPU"),
        pytest.param("auto", 2, [0, 1], id="auto selects every GPU"),
        pytest.param("AUTO", 2, [0, 1], id="auto is case-insensitive"),
    ],
)
def test_parse_indices_accepts(devices: object, available: int, expected: list[int]) -> None:
    assert parse_indices(devices, accelerator="cuda", available=available) == expected


@pytest.mark.parametrize(
    ("devices", "available", "message"),
    [
        pytest.param(0, 4, "0 devices were requested", id="0 is refused"),
        pytest.param("0", 4, "0 devices were requested", id="'0' is refused"),
        pytest.param([], 4, "empty list selects no device", id="[] is refused"),
        pytest.param([0, 0], 4, "must not repeat", id="repeated index is refused"),
        pytest.param([4], 4, "this machine has [0, 1, 2, 3]", id="index past the last GPU lists what exists"),
        pytest.param(5, 4, "requested device indices [0, 1, 2, 3, 4]", id="count beyond the machine is refused"),
        pytest.param(1, 0, "this machine has none", id="any GPU on a machine without GPUs is refused"),
        pytest.param("auto", 0, "no device of this kind is available", id="auto without GPUs is refused"),
        pytest.param(-2, 4, "a count must be positive, or -1", id="-2 is refused"),
        pytest.param([-1], 4, "indices cannot be negative", id="negative index in a list is refused"),
        pytest.param(True, 4, "pass a number of devices", id="True is refused, not read as 1"),
        pytest.param(None, 4, "pass a number of devices", id="None is refused"),
        pytest.param(1.5, 4, "a float is not a device specification", id="1.5 is refused"),
        pytest.param(object(), 4, "a object is not a device specification", id="object() is refused"),
        pytest.param(b"\x00", 4, "a bytes is not a device specification", id="bytes are not a list of indices"),
        pytest.param("two", 4, "a string must be a number", id="words are refused"),
        pytest.param("--1", 4, "a string must be a number", id="'--1' is refused, not a ValueError"),
        pytest.param("²", 4, "a string must be a number", id="non-ASCII digits are refused"),
        pytest.param("0,a", 4, "a comma list must hold device indices", id="comma list with a word is refused"),
        pytest.param(",", 4, "a comma list must hold device indices", id="a lone comma is refused"),
        pytest.param([0, "1"], 4, "a list must hold integer device indices", id="list of strings is refused"),
    ],
)
def test_parse_indices_refuses(devices: object, available: int, message: str) -> None:
    with pytest.raises(MisconfigurationException) as error:
        parse_indices(devices, accelerator="cuda", available=available)
    assert message in str(error.value)
    assert f"`devices={devices!r}`" in str(error.value)
    assert "accelerator='cuda'" in str(error.value)


@pytest.mark.parametrize(
    ("devices", "expected"),
    [
        pytest.param(1, 1, id="1 process"),
        pytest.param(3, 3, id="3 processes"),
        pytest.param("2", 2, id="'2' is a count"),
        pytest.param("auto", 7, id="auto gives the accelerator's default"),
    ],
)
def test_parse_count_accepts(devices: object, expected: int) -> None:
    assert parse_count(devices, accelerator="cpu", auto=7) == expected


@pytest.mark.parametrize(
    ("devices", "message"),
    [
        pytest.param(0, "at least 1", id="0 processes is refused"),
        pytest.param("0", "at least 1", id="'0' processes is refused"),
        pytest.param(-1, "at least 1", id="-1 means nothing on the CPU"),
        pytest.param([0, 1], "not device indices", id="indices are refused"),
        pytest.param("0,1", "not device indices", id="comma indices are refused"),
        pytest.param(True, "pass a number of devices", id="True is refused"),
        pytest.param(1.5, "a float is not a device specification", id="1.5 is refused"),
    ],
)
def test_parse_count_refuses(devices: object, message: str) -> None:
    with pytest.raises(MisconfigurationException, match="accelerator='cpu'") as error:
        parse_count(devices, accelerator="cpu")
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("devices", "available", "expected"),
    [
        pytest.param(1, 8, 1, id="1 core"),
        pytest.param(8, 8, 8, id="8 cores"),
        pytest.param("8", 8, 8, id="'8' cores"),
        pytest.param([5], 8, [5], id="[5] is core index 5"),
        pytest.param("auto", 8, 8, id="auto takes what the probe counts"),
        pytest.param("auto", 0, 8, id="auto assumes a full host when the probe counts nothing"),
    ],
)
def test_parse_tpu_accepts(devices: object, available: int, expected: int | list[int]) -> None:
    assert parse_tpu(devices, available=available) == expected


@pytest.mark.parametrize(
    "devices",
    [
        pytest.param(2, id="2 cores is refused"),
        pytest.param(0, id="0 cores is refused"),
        pytest.param([0], id="core indices start at 1"),
        pytest.param([9], id="core index 9 is past the host"),
        pytest.param([1, 2], id="two core indices are refused"),
    ],
)
def test_parse_tpu_refuses(devices: object) -> None:
    with pytest.raises(MisconfigurationException, match="TPUs take 1 or 8 cores"):
        parse_tpu(devices, available=8)
