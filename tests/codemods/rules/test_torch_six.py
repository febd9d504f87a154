"""Rule ``torch_six``: ``torch._six`` (removed in torch 2.0, which Lightning 2.3 and later require) gets a TODO at
its import and at each use through the module, naming what each name was, except an import of names whose value a
literal spells, which binds that value; earlier targets leave it alone."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "torch_six"


@pytest.mark.parametrize(
    ("source", "says"),
    [
        pytest.param(
            "from torch._six import container_abcs, string_classes\n", "container_abcs was collections.abc", id="a module"
        ),
        pytest.param("import torch\n\nx = torch._six.container_abcs\n", "collections.abc", id="a use through torch"),
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
        pytest.param("from torch._six import inf as INF\n", 'INF = float("inf")\n', id="under the name the module used"),
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
