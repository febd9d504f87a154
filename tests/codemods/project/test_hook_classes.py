"""Phase one's index of the project's own LightningModule/LightningDataModule/Callback subclasses, across files."""

from __future__ import annotations

import pytest

from codemods.project.hook_classes import (
    classes,
    defines_hook_subclass,
    project_hook_classes,
    project_hook_words,
    scan_hook_bases,
)

LIGHTNING = b"import pytorch_lightning as pl\n"

SCANS = [
    pytest.param(LIGHTNING + b"class M(pl.LightningModule):\n    pass\n", (("M", ("LightningModule",), "LightningModule"),),
                 id="a direct subclass in a file that says Lightning"),
    pytest.param(b"class M(LightningModule):\n    pass\n", (("M", ("LightningModule",), ""),),
                 id="the same name in a file that never says Lightning is not Lightning's"),
    pytest.param(b"class C(a.b.Base, Mixin[int], metaclass=Meta):\n    pass\n", (("C", ("Base", "Mixin"), ""),),
                 id="dotted and subscripted bases by their last name, keywords skipped"),
    pytest.param(b"# a subclass Foo(Bar) in prose\nclass_(x)\n", (), id="prose and names ending in class are no class"),
    pytest.param(
        LIGHTNING + b"# class Data(LightningDataModule):\nclass Data:\n    pass\n",
        (("Data", (), ""),),
        id="a class line commented out defines nothing",
    ),
]


@pytest.mark.parametrize(("data", "expected"), SCANS)
def test_scan(data: bytes, expected: tuple[object, ...]) -> None:
    assert classes(scan_hook_bases(data)) == expected


PROJECTS = [
    pytest.param(
        [("Base", ("LightningModule",), "LightningModule"), ("Mid", ("Base",), ""), ("Leaf", ("Mid", "ABC"), "")],
        {"Base": "LightningModule", "Mid": "LightningModule", "Leaf": "LightningModule"},
        id="through two project classes",
    ),
    pytest.param(
        [("Leaf", ("Mid",), ""), ("Mid", ("Base",), ""), ("Base", ("Callback",), "Callback")],
        {"Base": "Callback", "Mid": "Callback", "Leaf": "Callback"},
        id="whatever order the files come in",
    ),
    pytest.param(
        [("Base", ("LightningModule",), "LightningModule"), ("Base", ("CheckInstall",), ""), ("Leaf", ("Base",), "")],
        {"Base": "LightningModule", "Leaf": "LightningModule"},
        id="a stand-in definition under except ImportError does not hide the real one",
    ),
    pytest.param(
        [("Base", ("LightningModule",), "LightningModule"), ("Base", ("Callback",), "Callback"), ("Leaf", ("Base",), "")],
        {},
        id="two definitions deriving from different hook classes count for none",
    ),
    pytest.param([("Model", ("Module",), ""), ("Leaf", ("Model",), "")], {}, id="no Lightning anywhere"),
]


@pytest.mark.parametrize(("entries", "expected"), PROJECTS)
def test_project(entries: list[tuple[str, tuple[str, ...], str]], expected: dict[str, str]) -> None:
    # One file per class, as phase one keeps it: it mentions Lightning where the class names Lightning's base.
    files = [
        (bool(direct), ((name.encode(), ", ".join(bases).encode(), frozenset[bytes]()),))
        for name, bases, direct in entries
    ]
    assert dict(project_hook_classes(files)) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            b"class Base(pl.LightningModule):\n    def training_step(self, b, i):\n        pass\n"
            b"class Leaf(Base):\n    def validation_epoch_end(self, outputs):\n        pass\n",
            {"Base": {"training_step"}, "Leaf": {"training_step", "validation_epoch_end"}},
            id="a subclass has its own words and its project bases'",
        ),
        pytest.param(
            b"class Mixin:\n    def on_validation_batch_end(self, *a):\n        pass\n"
            b"class Base(pl.LightningModule, Mixin):\n    pass\n",
            {"Base": {"on_validation_batch_end"}},
            id="a project mixin that is no hook class counts too",
        ),
    ],
)
def test_hook_words(source: bytes, expected: dict[str, set[str]]) -> None:
    raw = scan_hook_bases(LIGHTNING + source)
    found = project_hook_words([raw], project_hook_classes([raw]))
    assert {name: set(words) for name, words in found} == expected


def test_a_file_is_only_worth_parsing_when_a_subclass_defines_a_changed_hook() -> None:
    known = frozenset({("Base", "LightningModule")})
    assert defines_hook_subclass("class M(Base):\n    def validation_epoch_end(self, o):\n        pass\n", known)
    assert not defines_hook_subclass("class M(Base):\n    def forward(self, x):\n        pass\n", known)
    assert not defines_hook_subclass("class M(Other):\n    def validation_epoch_end(self, o):\n        pass\n", known)
