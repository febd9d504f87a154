"""Qualified names come from the module's own imports; anything else binding the name means "not legacy"."""

from __future__ import annotations

import ast

import libcst as cst
import pytest

from codemods.frontends.python.qualnames import analyse
from tests.codemods.helpers import check_noop, check_transformed, run

PLUGIN = "from pytorch_lightning.plugins import DDPPlugin\n"
TRAINER = "from pytorch_lightning import Trainer\n"

NOOP = [
    pytest.param(
        PLUGIN
        + "from dataclasses import dataclass\n\n\n@dataclass\nclass DDPPlugin:\n    n: int = 1\n\n\nx = DDPPlugin()\n",
        id="a module-level dataclass DDPPlugin rebinds the imported name",
    ),
    pytest.param("from mypkg import DDPPlugin\n\nDDPPlugin(find_unused_parameters=False)\n", id="from mypkg import"),
    pytest.param(
        "import pytorch_lightning as pl\n\npl = make_namespace()\nx = pl.plugins.DDPPlugin()\n",
        id="import pytorch_lightning as pl, then pl = something",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import *\n\nx = DDPPlugin()\n", id="a star import binds nothing we can see"
    ),
    pytest.param(
        TRAINER + "from mypkg import *\n\nTrainer(accelerator='ddp')\n",
        id="a later star import from elsewhere may rebind Trainer",
    ),
    pytest.param(
        TRAINER + "\n\ndef build():\n    Trainer = make_trainer_class()\n    return Trainer(accelerator='ddp')\n",
        id="a local assignment in the enclosing function",
    ),
    pytest.param(
        TRAINER
        + "\n\ndef outer(Trainer):\n    def inner():\n        return Trainer(accelerator='ddp')\n\n    return inner\n",
        id="a parameter of an enclosing function",
    ),
    pytest.param(
        TRAINER + "\n\ndef swap():\n    global Trainer\n    Trainer = object\n\n\nTrainer(accelerator='ddp')\n",
        id="global declaration",
    ),
    pytest.param(PLUGIN + "\nxs = [DDPPlugin for DDPPlugin in range(3)]\n", id="comprehension variable"),
    pytest.param(PLUGIN + "\nfor DDPPlugin in (1, 2):\n    print(DDPPlugin)\n", id="for target at module level"),
    pytest.param(
        "try:\n    from pytorch_lightning.plugins import DDPPlugin\nexcept ImportError:\n    DDPPlugin = None\n",
        id="import with a fallback assignment",
    ),
]


@pytest.mark.parametrize("source", NOOP)
def test_shadowed_names_are_left_alone(source: str) -> None:
    check_noop(source)


TRANSFORMED = [
    pytest.param(
        PLUGIN + "\n\ndef f(DDPPlugin):\n    return DDPPlugin()\n\n\nx = DDPPlugin()\n",
        "from pytorch_lightning.strategies import DDPStrategy\n\n\n"
        "def f(DDPPlugin):\n    return DDPPlugin()\n\n\nx = DDPStrategy()\n",
        id="a function parameter called DDPPlugin shadows the import inside that function only",
    ),
    pytest.param(
        PLUGIN + "\n\nclass Config:\n    DDPPlugin = None\n    kind = DDPPlugin\n\n"
        "    def make(self):\n        return DDPPlugin()\n",
        "from pytorch_lightning.strategies import DDPStrategy\n\n\nclass Config:\n    DDPPlugin = None\n"
        "    kind = DDPPlugin\n\n    def make(self):\n        return DDPStrategy()\n",
        id="a class attribute shadows in the class body, not in its methods",
    ),
    pytest.param(
        "def f():\n    from pytorch_lightning.plugins import DDPPlugin\n\n    return DDPPlugin()\n",
        "def f():\n    from pytorch_lightning.strategies import DDPStrategy\n\n    return DDPStrategy()\n",
        id="a function-local import",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\n\ndef f(trainer: pl.Trainer):\n    return pl.plugins.DDPPlugin()\n",
        "import pytorch_lightning as pl\n\n\ndef f(trainer: pl.Trainer):\n    return pl.strategies.DDPStrategy()\n",
        id="module alias used inside a function",
    ),
    pytest.param(
        PLUGIN + "\n\ndef f(x):\n    return x(DDPPlugin=1), DDPPlugin\n",
        "from pytorch_lightning.strategies import DDPStrategy\n\n\ndef f(x):\n    return x(DDPPlugin=1), DDPStrategy\n",
        id="a keyword argument named like the class is a label, not a reference",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin, NativeMixedPrecisionPlugin\n\n"
        "# DDPPlugin was the 1.5 name\nx = DDPPlugin(), NativeMixedPrecisionPlugin()\n",
        "from pytorch_lightning.plugins import NativeMixedPrecisionPlugin\n"
        "from pytorch_lightning.strategies import DDPStrategy\n\n"
        "# DDPPlugin was the 1.5 name\nx = DDPStrategy(), NativeMixedPrecisionPlugin()\n",
        id="a comment naming the old class does not keep its import",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin, NativeMixedPrecisionPlugin\n\n"
        '__all__ = ["DDPPlugin"]\nx = DDPPlugin(), NativeMixedPrecisionPlugin()\n',
        "from pytorch_lightning.plugins import DDPPlugin, NativeMixedPrecisionPlugin\n"
        "from pytorch_lightning.strategies import DDPStrategy\n\n"
        '__all__ = ["DDPPlugin"]\nx = DDPStrategy(), NativeMixedPrecisionPlugin()\n',
        id="an __all__ entry keeps the old import",
    ),
]


@pytest.mark.parametrize(("before", "after"), TRANSFORMED)
def test_aliases_and_scopes(before: str, after: str) -> None:
    check_transformed(before, after)


def test_shadowed_import_is_reported() -> None:
    source = PLUGIN + "\n\nclass DDPPlugin:\n    pass\n"
    outcome = run(source)
    assert not outcome.changed
    assert [f.kind for f in outcome.findings] == ["report"]
    assert "also bound" in outcome.findings[0].message


def test_star_import_from_a_legacy_module_is_reported() -> None:
    outcome = run("from pytorch_lightning.plugins import *\n\nx = DDPPlugin()\n")
    assert [(f.rule, f.kind, f.line) for f in outcome.findings] == [("strategy_plugins", "report", 1)]


class _Order(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.kinds: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseSmallStatement | cst.BaseCompoundStatement):
            self.kinds.append({"Del": "Delete"}.get(type(node).__name__, type(node).__name__))
        return True


def test_statements_are_listed_in_libcst_order() -> None:
    source = (
        "@dec\nclass A(B):\n    def f(self, x):\n        try:\n            pass\n        except E as e:\n"
        "            y = 1\n        else:\n            z = 2\n        finally:\n            del w\n\nif a:\n    b = 1\n"
        "elif c:\n    d = 2\nelse:\n    e = 3; f = 4\nwhile x:\n    for i in y: break\n    else: continue\n"
        "with m as n:\n    match n:\n        case 1:\n            pass\n        case _:\n            raise\n"
    )
    analysis = analyse(ast.parse(source), source)
    order = _Order()
    cst.parse_module(source).visit(order)
    assert [type(s.node).__name__ for s in analysis.statements] == order.kinds
    assert (analysis.statements[0].start, analysis.statements[0].end, analysis.statements[0].size) == (1, 11, 7)
