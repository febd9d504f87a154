"""``codemods.frontends.python.device_count``: which code is 1.5's device-count idiom (one TODO) and which is not (a TODO per
property). The rewrite side is the fixture ``py_property_device_count_idiom``; the claim its TODO makes is checked
against the real releases in tests/parity/test_device_count_idiom.py."""

from __future__ import annotations

import ast

import pytest

from codemods.frontends.python.device_count import device_counts

_GUARD = "if t.tpu_cores:\n    n = max(n, t.tpu_cores)\n"

ROWS = [
    pytest.param("n = max(1, t.num_gpus, t.num_processes)\n", {1}, False, id="the max alone"),
    pytest.param("n = max(t.num_processes, t.num_gpus)\n", {1}, False, id="any order, no 1"),
    pytest.param("n = max(1, t.num_gpus, t.num_processes)\n" + _GUARD, {1, 2, 3}, True, id="with the TPU block"),
    pytest.param("n = max(1, t.num_gpus, t.num_processes, t.tpu_cores or 0)\n", {1}, False, id="tpu_cores or 0"),
    pytest.param("n = max(1, t.num_gpus)\n" + _GUARD, set(), False, id="num_processes missing"),
    pytest.param("n = max(k, t.num_gpus, t.num_processes)\n", set(), False, id="another argument"),
    pytest.param("n = max(1, t.num_gpus, u.num_processes)\n", set(), False, id="two receivers"),
    pytest.param("n = max(1, t.num_gpus, t.num_processes)\nif t.tpu_cores:\n    m = 8\n", {1}, False, id="other block"),
    pytest.param(
        "n = max(1, t.num_gpus, t.num_processes)\nif t.tpu_cores:\n    n = max(n, t.tpu_cores)\nelse:\n    n = 0\n",
        {1},
        False,
        id="a block with else is not the idiom's",
    ),
    pytest.param("n, m = max(1, t.num_gpus, t.num_processes), 2\n", set(), False, id="not a plain assignment"),
]


@pytest.mark.parametrize(("source", "lines", "guarded"), ROWS)
def test_device_counts(source: str, lines: set[int], guarded: bool) -> None:
    found = device_counts(ast.parse(source))
    assert set(found) == lines
    for idiom in found.values():
        assert (idiom.head, idiom.trainer, idiom.target, idiom.guarded) == (1, "t", "n", guarded)


def test_nested_bodies_are_searched() -> None:
    source = "class M:\n    def f(self):\n        if x:\n            d = max(1, self.trainer.num_gpus, self.trainer.num_processes)\n"
    assert [(i.head, i.trainer) for i in device_counts(ast.parse(source)).values()] == [(4, "self.trainer")]
