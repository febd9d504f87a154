"""A string a rule writes inside an f-string's ``{...}`` takes the quote the f-string does not use (before Python
3.12 the same quote ends the f-string: TALI's copy of 1.5's Trainer came back as "rewrite would not parse"); the
input's own strings stay as written. And a TODO on an import that went with its last use is no TODO left."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, run

HEAD = "from pytorch_lightning.utilities import DeviceType\n\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            HEAD + 'print(f"used: {x == DeviceType.GPU}")\n',
            "print(f\"used: {x == 'gpu'}\")\n",
            id="double-quoted f-string: the new string takes single quotes",
        ),
        pytest.param(
            HEAD + "print(f'used: {x == DeviceType.GPU}')\n",
            "print(f'used: {x == \"gpu\"}')\n",
            id="single-quoted f-string: as the rules write it",
        ),
        pytest.param(
            HEAD + 'print(f"""used: {x == DeviceType.GPU}""")\n',
            'print(f"""used: {x == "gpu"}""")\n',
            id="triple-quoted f-string takes either quote",
        ),
        pytest.param(
            HEAD + "print(f\"{d['k']} used: {x == DeviceType.GPU}\")\n",
            "print(f\"{d['k']} used: {x == 'gpu'}\")\n",
            id="the input's own strings stay as they are",
        ),
        pytest.param(
            HEAD + 'print(f"used: {x == DeviceType.GPU}", x == DeviceType.CPU)\n',
            'print(f"used: {x == \'gpu\'}", x == "cpu")\n',
            id="outside the f-string: as the rules write it",
        ),
    ],
)
def test_requoted(before: str, after: str) -> None:
    outcome = check_transformed(before, after, target="2.0")
    assert not [finding for finding in outcome.findings if finding.kind == "todo"]


@pytest.mark.parametrize(
    ("source", "todos"),
    [
        pytest.param(HEAD + "print(x == DeviceType.GPU)\n", [], id="the import went: no TODO on it"),
        pytest.param(
            "import os\n\nx = 1\n\n\n" + HEAD + "print(x == DeviceType.GPU)\n", [], id="further down the file too"
        ),
        pytest.param(
            HEAD + "print(x == DeviceType.GPU, DeviceType)\n",
            ["removed_names", "enum_members"],
            id="the import stays (the class is still named): its TODO stays",
        ),
    ],
)
def test_todo_on_a_dropped_import(source: str, todos: list[str]) -> None:
    outcome = run(source, "2.0")
    assert sorted(f.rule for f in outcome.findings if f.kind == "todo") == sorted(todos)
