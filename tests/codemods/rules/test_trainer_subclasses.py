"""Rule ``trainer_subclasses`` and the Trainer subclasses the flag rules treat like ``Trainer``.

Rows of the project scan (``codemods.project.trainer_classes``: which classes are Trainer subclasses, across files), of
the calls it makes migrate (``MyTrainer(gpus=2)``, ``flash.Trainer(gpus=1)``) and of the calls it holds with a
TODO (a subclass whose ``__init__`` takes ``gpus`` itself). Whole projects: tests/codemods/projects/trainer_subclass_*.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from codemods.frontends.python import transform_python
from codemods.model import Options
from codemods.project.trainer_classes import ProjectTrainers, project_trainers, scan_classes
from tests.codemods.helpers import exercised

RULE = "trainer_subclasses"


def _scan(files: dict[str, str]) -> ProjectTrainers:
    classes = [cls for path, text in sorted(files.items()) for cls in scan_classes(text.encode(), path)]
    return project_trainers(classes, "")


SCANS = [
    pytest.param(
        {"a.py": "import pytorch_lightning as pl\nclass A(pl.Trainer): pass\nclass B(A): pass\n"},
        {"A", "B"},
        set(),
        id="direct and indirect subclasses in one file",
    ),
    pytest.param(
        {
            "pkg/base.py": "from pytorch_lightning import Trainer\nclass Base(Trainer): pass\n",
            "pkg/mine.py": "from pkg.base import Base\nclass MineTrainer(Base): pass\n",
            "pkg/rel.py": "from .base import Base\nclass RelTrainer(Base): pass\n",
        },
        {"Base", "MineTrainer", "RelTrainer"},
        set(),
        id="a base defined in another file, imported absolutely or relatively",
    ),
    pytest.param(
        {
            "hf.py": "from transformers import Trainer as HF\nclass MyTrainer(HF): pass\n",
            "other.py": "from elsewhere.base import Base\nclass BaseTrainer(Base): pass\n",
            "base.py": "import pytorch_lightning as pl\nclass Base(pl.Trainer): pass\n",
        },
        {"Base"},
        set(),
        id="transformers' Trainer and a Base from a module that is not the scanned file are no Lightning Trainers",
    ),
    pytest.param(
        {"a.py": "import flash\nclass FlashTrainer(flash.Trainer): pass\n"},
        {"FlashTrainer"},
        set(),
        id="a subclass of flash.Trainer",
    ),
    pytest.param(
        {
            "a.py": "import pytorch_lightning as pl\nclass MyTrainer(pl.Trainer): pass\n",
            "b.py": "class MyTrainer: pass\n",
            "c.py": "import pytorch_lightning as pl\nclass Trainer(pl.Trainer): pass\n",
        },
        set(),
        set(),
        id="a name the project also gives a plain class, and a class named Trainer, are not matched",
    ),
    pytest.param(
        {
            "a.py": textwrap.dedent(
                """\
                import pytorch_lightning as pl
                class Held(pl.Trainer):
                    def __init__(self, gpus=1, **kwargs):
                        super().__init__(gpus=gpus, **kwargs)
                class Reads(pl.Trainer):
                    def __init__(self, *args, **kwargs):
                        self.n = kwargs.get("precision")
                        super().__init__(*args, **kwargs)
                class Passes(pl.Trainer):
                    def __init__(self, *args, name="x", **kwargs):
                        super().__init__(*args, **kwargs)
                class Under(Held): pass
                """
            )
        },
        {"Passes"},
        {("Held", ("gpus",)), ("Reads", ("precision",)), ("Under", ("gpus",))},
        id="an __init__ that takes or reads a migrated flag holds the class and its subclasses",
    ),
]


@pytest.mark.parametrize(("files", "passing", "held"), SCANS)
def test_project_scan(files: dict[str, str], passing: set[str], held: set[tuple[str, tuple[str, ...]]]) -> None:
    found = _scan(files)
    assert found.passing == passing
    assert {(name, own) for name, _, own in found.held} == held


def _run(source: str, target: str, files: dict[str, str] | None = None) -> tuple[str, list[str]]:
    source = textwrap.dedent(source)
    trainers = _scan({"here.py": source, **(files or {})})
    options = Options(target=target, local_trainers=trainers.passing, held_trainers=trainers.held)
    outcome = transform_python(source, options)
    assert outcome.error is None, outcome.error
    ast.parse(outcome.source)
    again = transform_python(outcome.source, options)
    assert again.source == outcome.source, "a second run must change nothing"
    return outcome.source, [f"{f.rule} {f.kind}" for f in outcome.findings]


CALLS = [
    pytest.param(
        """\
        import pytorch_lightning as pl
        class MyTrainer(pl.Trainer):
            pass
        trainer = MyTrainer(gpus=2, max_epochs=3)
        """,
        {},
        'trainer = MyTrainer(accelerator="gpu", devices=2, max_epochs=3)',
        id="a subclass in the same file takes the flag rules",
    ),
    pytest.param(
        """\
        from pkg.trainers import MyTrainer
        def build(args):
            return MyTrainer.from_argparse_args(args, tpu_cores=8)
        """,
        {"pkg/trainers.py": "import pytorch_lightning as pl\nclass MyTrainer(pl.Trainer): pass\n"},
        'return MyTrainer.from_argparse_args(args, accelerator="tpu", devices=8)',
        id="a subclass of another file, in a file without a Lightning import, from_argparse_args",
    ),
    pytest.param(
        """\
        import flash
        trainer = flash.Trainer(max_epochs=1, gpus=1, serve_sanity_check=True)
        """,
        {},
        'trainer = flash.Trainer(max_epochs=1, accelerator="gpu", devices=1, serve_sanity_check=True)',
        id="flash.Trainer: Lightning's flags migrate, flash's own argument stays",
    ),
    pytest.param(
        """\
        from flash.core.trainer import Trainer
        kwargs = dict(num_processes=2)
        trainer = Trainer(**kwargs)
        """,
        {},
        'kwargs = dict(accelerator="cpu", devices=2)',
        id="a dict splatted into flash.core.trainer.Trainer",
    ),
    pytest.param(
        """\
        from transformers import Trainer
        trainer = Trainer(gpus=2)
        """,
        {},
        "trainer = Trainer(gpus=2)",
        id="transformers' Trainer is left alone",
    ),
]


@pytest.mark.parametrize(("source", "files", "expected"), CALLS)
def test_subclass_calls_get_the_flag_rules(source: str, files: dict[str, str], expected: str) -> None:
    out, _ = _run(source, "2.0", files)
    assert expected in out


def test_held_subclass_call_keeps_its_flags_with_one_todo() -> None:
    source = """\
        import pytorch_lightning as pl
        class Held(pl.Trainer):
            def __init__(self, gpus=1, **kwargs):
                super().__init__(gpus=gpus, **kwargs)
        a = Held(gpus=2, max_epochs=3)
        b = Held(max_epochs=3)
        """
    out, findings = _run(source, "2.0")
    assert "a = Held(gpus=2, max_epochs=3)\nb = Held(max_epochs=3)\n" in out
    assert out.count(f"[{RULE}]") == 1
    assert "Held.__init__ (here.py:2) handles gpus itself, so gpus= here is left as it is" in out
    # The class's own super().__init__(gpus=gpus) is Lightning's Trainer.__init__: its flag gets the flag rules' TODO.
    assert findings == ["device_flags todo", f"{RULE} todo"]


def test_held_subclass_call_at_a_target_where_nothing_changes_gets_no_todo() -> None:
    source = """\
        import pytorch_lightning as pl
        class Held(pl.Trainer):
            def __init__(self, gpus=1, **kwargs):
                super().__init__(gpus=gpus, **kwargs)
        a = Held(gpus=2)
        """
    out, findings = _run(source, "1.6")  # gpus= is deprecated from 1.7 on
    assert out == textwrap.dedent(source)
    assert findings == []


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
