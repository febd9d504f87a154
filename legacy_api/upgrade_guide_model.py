"""The row type of the upgrade-guide coverage table, the small snippet builders its fixtures use, and how a row's
recorded fact is checked against the recorded API surfaces (stdlib only).

Each row is one "If you ... / Then ..." row of Lightning's upgrade guide (``docs/source-pytorch/upgrade/sections/``,
one table per release and audience), written in our own words, or a removal the recorded surfaces show without a
guide row (audience ``unlisted``). A row says what ``migrate-trainer`` does about it at the default target:

* ``rewrite:<rule>``: an exact rewrite; the output contains ``shows``.
* ``todo:<rule>`` / ``report:<rule>``: a finding of that rule on the fixture's last line.
* ``silent:<what it should do>``: a gap: code shows the use and the tool says nothing today.
* ``out-of-scope:<why>``: nothing in code shows it (a behaviour change, an environment variable, a package pin),
  or the guide names something that never existed.

Fixtures are a few lines of legacy Python whose **last line** is the use the row is about.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

OUTCOME_KINDS = ("rewrite", "todo", "report", "silent", "out-of-scope")


@dataclass(frozen=True)
class Row:
    """One row of the coverage table. ``id`` is ``<version>-<audience>-<nn>`` (the guide's row order)."""

    id: str
    legacy: str
    replacement: str
    outcome: str
    #: A fact of the surfaces that shows the removal: ``a.b.Name`` (module, name or class member),
    #: ``a.b.Class(kw)`` (a keyword of ``__init__``) or ``a.b.Class.method(arg)`` (a parameter of a method).
    probe: str = ""
    #: The minor whose recording first lacks ``probe`` ("2.0"), "kept" (2.6 still has it) or "never" (no
    #: recorded release had it: the guide names something that never existed, or was gone before 1.4.9).
    gone: str = ""
    fixture: str = ""
    #: For a rewrite: text the rewritten fixture contains (the replacement, as written).
    shows: str = ""
    #: Where the guide's own row is wrong (garbled, duplicated, names the wrong replacement).
    guide_note: str = ""
    #: The fixture's file name: a Python script, or a LightningCLI config (``config.yaml``).
    path: str = "snippet.py"

    @property
    def version(self) -> str:
        return self.id.split("-")[0]

    @property
    def audience(self) -> str:
        return self.id.split("-")[1]

    @property
    def kind(self) -> str:
        return self.outcome.partition(":")[0]

    @property
    def detail(self) -> str:
        """The rule id of a rewrite/todo/report, else the reason."""
        return self.outcome.partition(":")[2]


# Snippet builders: each returns legacy source whose last line is the use.


def trainer(args: str) -> str:
    """``Trainer(<args>)``."""
    return f"from pytorch_lightning import Trainer\n\ntrainer = Trainer({args})\n"


def on_trainer(expr: str) -> str:
    """A statement using a Trainer instance called ``trainer``."""
    return f"from pytorch_lightning import Trainer\n\ntrainer = Trainer()\n{expr}\n"


def hook(base: str, signature: str, module: str = "pytorch_lightning") -> str:
    """A subclass of ``module.base`` overriding a method: ``hook("Callback", "on_epoch_end(self, trainer, m)")``."""
    return f"from {module} import {base}\n\n\nclass Mine({base}):\n    def {signature}: ...\n"


def in_module(statement: str) -> str:
    """A statement in a LightningModule's ``training_step``."""
    return (
        "from pytorch_lightning import LightningModule\n\n\nclass Mine(LightningModule):\n"
        f"    def training_step(self, batch, batch_idx):\n        {statement}\n"
    )


def imported(module: str, name: str) -> str:
    """``from module import name``."""
    return f"from {module} import {name}\n"


def built(module: str, name: str, args: str = "") -> str:
    """``name(args)`` after ``from module import name``."""
    return f"from {module} import {name}\n\nobj = {name}({args})\n"


# Checking ``probe`` against a recording.


def _parameters(signature: str | None) -> frozenset[str]:
    if signature is None:
        return frozenset()
    try:
        function = ast.parse(f"def f{signature}: pass").body[0]
    except SyntaxError:
        return frozenset()
    assert isinstance(function, ast.FunctionDef)
    args = function.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return frozenset(a.arg for a in every if a is not None)


def present(probe: str, version: str) -> bool:
    """Whether the recorded release of ``version`` has what ``probe`` names."""
    from legacy_api.surface import surface

    s = surface(version)
    if not probe.endswith(")"):
        return s.has(probe)
    path, _, parameter = probe[:-1].partition("(")
    method = path if s.signature(path) is not None else f"{path}.__init__"
    return parameter in _parameters(s.signature(method))


def gone_in(probe: str) -> str:
    """The minor whose recording first lacks ``probe`` after one that had it, "kept" or "never"."""
    from legacy_api.surface import RELEASES

    seen = False
    for release in RELEASES:
        if present(probe, release):
            seen = True
        elif seen:
            return ".".join(release.split(".")[:2])
    return "kept" if seen else "never"
