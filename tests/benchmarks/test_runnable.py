"""bench_runnable's pure logic: which line of a run's output is its first error, and the manifest's schema."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from _runnable_errors import FirstError, first_error, last_line  # noqa: E402
from _runnable_manifest import MANIFEST, ManifestError, known_shims, load, parse  # noqa: E402

ROOT = "/tmp/run/proj"
TB = "Traceback (most recent call last):"


def _frame(path: str, line: int) -> str:
    return f'  File "{path}", line {line}, in f\n    code()'


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        pytest.param("all good\n", None, id="no traceback: no error"),
        pytest.param(
            f"{TB}\n{_frame(ROOT + '/train.py', 3)}\n{_frame('/venv/pl/trainer.py', 9)}\nTypeError: bad 'gpus'\n",
            FirstError("TypeError: bad 'gpus'", "train.py:3"),
            id="the deepest frame inside the project copy, not Lightning's",
        ),
        pytest.param(
            f"{TB}\n{_frame(ROOT + '/a.py', 1)}\nKeyError: 'x'\n\nDuring handling of the above exception, another "
            f"exception occurred:\n\n{TB}\n{_frame(ROOT + '/b.py', 2)}\nRuntimeError: wrapped\n",
            FirstError("KeyError: 'x'", "a.py:1"),
            id="a chained traceback reports its cause",
        ),
        pytest.param(
            f"{TB}\n{_frame(ROOT + '/a.py', 1)}\nValueError: caught and logged\ntraining goes on\n"
            f"{TB}\n{_frame(ROOT + '/b.py', 7)}\nhydra.errors.InstantiationException: fatal\n",
            FirstError("hydra.errors.InstantiationException: fatal", "b.py:7"),
            id="a traceback the project logged and survived does not count",
        ),
        pytest.param(
            f"{TB}\n{_frame('/venv/x.py', 1)}\nModuleNotFoundError: No module named 'clip'\n",
            FirstError("ModuleNotFoundError: No module named 'clip'", ""),
            id="no project frame: where is empty",
        ),
        pytest.param(
            f"{TB}\n{_frame(ROOT + '/a.py', 1)}\nKeyboardInterrupt\n",
            FirstError("KeyboardInterrupt", "a.py:1"),
            id="an exception without a message",
        ),
    ],
)
def test_first_error(output: str, expected: FirstError | None) -> None:
    assert first_error(output, ROOT) == expected


def test_last_line_skips_blank_lines_and_caps_length() -> None:
    assert last_line("a\nKilled\n\n") == "Killed"
    assert len(last_line("x" * 1000)) == 220


MINIMAL = {"lightning": "2.6.6", "torch": "2.13.0", "packages": ["a"], "env": {}, "shims": [], "timeout_s": 9}


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        pytest.param([{"id": "x", "project": "p"}], "missing keys ['script']", id="an entry needs a script"),
        pytest.param(
            [{"id": "x", "project": "p", "script": "s", "argv": []}], "unknown keys ['argv']", id="typo in a key"
        ),
        pytest.param(
            [{"id": "x", "project": "p", "script": "s", "args": "--a"}], "list of strings", id="args is a list"
        ),
        pytest.param(
            [{"id": "x", "project": "p", "script": "s", "files": {"f": "csv"}}], "unknown kinds", id="unknown file kind"
        ),
        pytest.param(
            [{"id": "x", "project": "p", "script": "s", "shims": ["nope"]}], "shims: unknown", id="unknown shim"
        ),
        pytest.param([{"id": "x", "project": "p", "script": "s"}] * 2, "duplicate entry ids", id="ids are unique"),
    ],
)
def test_manifest_rejects(entries: list[dict[str, object]], message: str) -> None:
    with pytest.raises(ManifestError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse({**MINIMAL, "entries": entries}, frozenset({"known"}))


def test_one_venv_installs_every_entrys_packages_once() -> None:
    entries = [{"id": "x", "project": "p", "script": "s", "packages": ["b", "a"]}]
    assert parse({**MINIMAL, "entries": entries}).all_packages() == ("a", "b")


def test_the_committed_manifest_parses_with_the_shims_sitecustomize_has() -> None:
    manifest = load(MANIFEST, known_shims())
    assert len({entry.project for entry in manifest.entries}) >= 8
    corpus = {row["name"] for row in json.loads((MANIFEST.parent / "manifest.json").read_text(encoding="utf-8"))}
    assert {entry.project for entry in manifest.entries} <= corpus


def test_an_entry_carries_its_own_package_layer_and_pre_1_5_reason_outside_the_shared_venv() -> None:
    raw = {"id": "x", "project": "p", "script": "s", "layer": ["numpy<2"], "pre_1_5": "hparams assigned"}
    manifest = parse({**MINIMAL, "entries": [raw]})
    assert (manifest.entries[0].layer, manifest.entries[0].pre_1_5) == (("numpy<2",), "hparams assigned")
    assert manifest.all_packages() == ("a",)  # the layer is not installed into the shared venv
