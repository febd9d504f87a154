"""How a command line's values read (``codemods.project.command_syntax``): one row per spelling, for Hydra and
jsonargparse overrides and for the options of 1.5's ``Trainer.add_argparse_args`` parser."""

from __future__ import annotations

import pytest

from codemods.project.command_syntax import Opaque, argparse_value, read_value, tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("2", 2, id="int"),
        pytest.param("-1", -1, id="negative int"),
        pytest.param("'ddp'", "ddp", id="quoted"),
        pytest.param("null", None, id="null"),
        pytest.param("[0,1]", [0, 1], id="device list"),
        pytest.param("16-mixed", "16-mixed", id="plain string"),
    ],
)
def test_values(text: str, expected: object) -> None:
    assert read_value(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("1,2", id="sweep"),
        pytest.param("${oc.env:NGPU}", id="interpolation"),
        pytest.param("range(1,3)", id="sweep function"),
        pytest.param("[GPU]", id="a placeholder list"),
        pytest.param("None", id="None reads differently per parser"),
    ],
)
def test_opaque_values(text: str) -> None:
    assert isinstance(read_value(text), Opaque)


@pytest.mark.parametrize(
    ("key", "word", "expected"),
    [
        pytest.param("gpus", "0,1", "0,1", id="a comma: the string (_gpus_allowed_type)"),
        pytest.param("gpus", "0,", "0,", id="one index"),
        pytest.param("gpus", "2", 2, id="no comma: int"),
        pytest.param("tpu_cores", "8", 8, id="tpu_cores like gpus"),
        pytest.param("num_nodes", "2", 2, id="int option"),
        pytest.param("accelerator", "ddp", "ddp", id="string option"),
        pytest.param("precision", "16", 16, id="precision"),
    ],
)
def test_argparse_values(key: str, word: str, expected: object) -> None:
    """As 1.5.10's ``add_argparse_args`` parsed them (``pytorch_lightning/utilities/argparse.py``)."""
    assert argparse_value(key, word) == expected


@pytest.mark.parametrize(
    ("key", "word"),
    [
        pytest.param("gpus", "two", id="refused by int()"),
        pytest.param("num_processes", "0,1", id="int option with a comma"),
        pytest.param("gpus", "$NGPU", id="shell variable"),
    ],
)
def test_opaque_argparse_values(key: str, word: str) -> None:
    assert isinstance(argparse_value(key, word), Opaque)


@pytest.mark.parametrize(
    ("command", "value"),
    [
        pytest.param("python t.py trainer.gpus=[<GPU_IDS>] x=1", "[<GPU_IDS>]", id="a placeholder in a list"),
        pytest.param("python t.py trainer.gpus=<N> x=1", "<N>", id="a placeholder alone"),
        pytest.param("python t.py trainer.gpus=2 <in.txt", "2", id="a redirection after a blank"),
        pytest.param("python t.py trainer.gpus=2<in.txt", "2", id="a redirection with no closing bracket"),
    ],
)
def test_placeholders_are_part_of_the_word(command: str, value: str) -> None:
    """NeMo's docs write ``trainer.gpus=[<CHANGE_TO_GPU_YOU_WANT_TO_USE>]``: the ``<...>`` is no redirection."""
    (token,) = [token for token in tokens(command) if token.key == "gpus"]
    assert token.value == value
