"""Rule ``torch_six``: ``torch._six`` (removed in torch 2.0, which Lightning 2.3 and later require): an import of
its constants binds their values, ``container_abcs`` becomes the import torch 1.8's _six ran, a constant read through
the module becomes its value; anything else gets a TODO naming what each name was. Earlier targets leave it alone."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "torch_six"


@pytest.mark.parametrize(
    ("source", "says"),
    [
        pytest.param(
            "import os; from torch._six import container_abcs\n",
            "container_abcs was collections.abc",
            id="a module imported on a line of several statements",
        ),
        pytest.param("import torch\n\nx = torch._six.container_abcs\n", "collections.abc", id="a module through torch"),
        pytest.param("from torch._six import *\n", "use the Python 3 builtins", id="a star import"),
    ],
)
def test_todo_rows(source: str, says: str) -> None:
    outcome = run(source, "2.6")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == 1 and found[0].kind == "todo" and says in found[0].message, outcome.findings
    assert run(outcome.source, "2.6").source == outcome.source


@pytest.mark.parametrize(
    ("source", "after"),
    [
        pytest.param(
            "from torch._six import string_classes, int_classes  # py2\n",
            "string_classes, int_classes = (str, bytes), int  # py2\n",
            id="the values torch 1.x's _six bound",
        ),
        pytest.param(
            "from torch._six import inf as INF\n", 'INF = float("inf")\n', id="under the name the module used"
        ),
        pytest.param(
            "from torch._six import container_abcs\n",
            "import collections.abc as container_abcs\n",
            id="the module torch 1.8's _six imported",
        ),
        pytest.param(
            "from torch._six import container_abcs, string_classes  # py2\n",
            "import collections.abc as container_abcs\nstring_classes = (str, bytes)  # py2\n",
            id="a module and a constant: two lines",
        ),
        pytest.param(
            "import torch\n\nx = torch._six.string_classes\n",
            "import torch\n\nx = (str, bytes)\n",
            id="a constant read through torch",
        ),
    ],
)
def test_fix_rows(source: str, after: str) -> None:
    outcome = run(source, "2.6")
    assert outcome.source == after
    assert [f.kind for f in outcome.findings if f.rule == RULE] == ["fix"]
    assert run(outcome.source, "2.6").source == outcome.source


@pytest.mark.parametrize(
    ("source", "target"),
    [
        pytest.param("from torch._six import string_classes\n", "2.2", id="2.2 still runs on torch 1.13"),
        pytest.param("import six\n\nx = six.string_types\n", "2.6", id="the six package"),
    ],
)
def test_noop_rows(source: str, target: str) -> None:
    assert [f for f in run(source, target).findings if f.rule == RULE] == []
