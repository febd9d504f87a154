"""Which argparse options of a file hold an int (``bindings.int_options``): ``args.gpus`` is then written short."""

from __future__ import annotations

import ast

import pytest

from codemods.frontends.python.bindings import int_options


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("p.add_argument('--gpus', type=int, default=None)", {"gpus"}, id="type=int, default None"),
        pytest.param("p.add_argument('--gpus', type=int, default='0')", {"gpus"}, id="a str default is converted"),
        pytest.param("p.add_argument('-g', '--num-gpus', type=int)", {"num_gpus"}, id="the long flag names the dest"),
        pytest.param("p.add_argument('--n', type=int, dest='gpus')", {"gpus"}, id="dest= names it"),
        pytest.param("p.add_argument('--gpus', type=str)", set(), id="type=str: a string"),
        pytest.param("p.add_argument('--gpus', default=0)", set(), id="no type: a command line gives a string"),
        pytest.param("p.add_argument('--gpus', type=int, default=[0, 1])", set(), id="a default that is no literal int"),
        pytest.param(
            "p.add_argument('--gpus', type=int)\nq.add_argument('--gpus', type=str)", set(), id="two parsers disagree"
        ),
    ],
)
def test_int_options(source: str, expected: set[str]) -> None:
    assert int_options(ast.parse(source)) == expected
