"""An optimizer dict with a ``"frequency"`` key in a LightningModule's ``configure_optimizers`` (removed in 2.0) gets a
TODO naming manual optimization.

1.5.10's Trainer (trainer/optimizers.py) read ``{"optimizer": a, "frequency": 5}`` entries to alternate the
optimizers, ``frequency`` steps each. 2.6.6's ``_validate_optim_conf`` only warns "Found unsupported keys in the
optimizer configuration: {'frequency'}" and drops it; several optimizers need manual optimization since 2.0. The
``"frequency"`` of an lr-scheduler dict (``{"scheduler": s, "frequency": 2}``) is still read and is left alone: only a
dict that also has an ``"optimizer"`` key counts.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.model import todo_comment
from codemods.plan.rule import Rule
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules._hook_classes import is_lightning_module

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "optimizer_frequency"
HOOK = "configure_optimizers"


def _keys(node: cst.Dict) -> set[str]:
    keys = set()
    for element in node.elements:
        if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
            keys.add(element.key.evaluated_value if isinstance(element.key.evaluated_value, str) else "")
    return keys


def _in_hook(ctx: FileContext) -> bool:
    """The statement being left lies in ``configure_optimizers`` of a LightningModule (direct, or through the
    project's own classes)."""
    statements = ctx.statements
    for index in range(len(statements) - 1, 0, -1):
        function = statements[index]
        if isinstance(function, cst.FunctionDef):
            cls = statements[index - 1]
            if function.name.value != HOOK or not isinstance(cls, cst.ClassDef):
                return False
            return is_lightning_module(ctx, cls)
    return False


def leave_dict(ctx: FileContext, original: cst.Dict, updated: cst.Dict) -> Any:
    if ctx.target < (2, 0) or not {"optimizer", "frequency"} <= _keys(original) or not _in_hook(ctx):
        return updated
    message = (
        f'Lightning {ctx.surface.release} ignores an optimizer\'s "frequency" (1.x alternated the optimizers, '
        "frequency steps each): set self.automatic_optimization = False and step the optimizer of each batch "
        "yourself in training_step (self.optimizers())"
    )
    if todo_comment(message, ID) not in ctx.todos.get(id(ctx.statements[-1]), ()):
        ctx.todo(ID, message, original)  # once for the statement, however many dicts it holds
    return updated


@functools.cache
def _visit() -> re.Pattern[str]:
    return re.compile(r"""["']frequency["']""")


RULE = Rule(
    id=ID,
    description='an optimizer dict with "frequency" in configure_optimizers is flagged (2.x ignores it; several '
    "optimizers need manual optimization)",
    deprecated_in="2.0",
    handlers={"Dict": leave_dict},
    tokens=SURFACE_TOKENS[1:],  # "def ": decided by the surface prefilter (surface_uses: an optimizer's frequency)
    visit=_visit,
)
