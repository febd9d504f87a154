"""``GPUAccelerator(precision_plugin=..., training_type_plugin=...)``: 1.5's Accelerator arguments get a TODO.

In 1.5 an Accelerator owned the strategy and the precision plugin (``Accelerator.__init__(self, precision_plugin,
training_type_plugin)``); 1.6 turned that around: the strategy holds the accelerator and the precision plugin, and
an Accelerator takes no arguments (checked against 1.6.5 and 2.6.6), so the call raises ``TypeError`` there. The
class itself is renamed by other rules (``GPUAccelerator`` -> ``CUDAAccelerator``); what the code built the
accelerator for (usually swapping it into a Trainer, as Ray's plugins did) has no one-line equivalent, so the
call gets one TODO. Only calls of a class whose name ends in ``Accelerator`` (Lightning's, or a project's
subclass of one) that pass ``training_type_plugin=``, a keyword no other library's accelerator takes, are touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "accelerator_arguments"
_MESSAGE = (
    "{name}(precision_plugin=..., training_type_plugin=...) is gone in 1.6: an Accelerator takes no arguments, the "
    "strategy holds it (pass strategy=YourStrategy(accelerator={name}(), precision_plugin=...), and reach it as "
    "trainer.strategy.accelerator)"
)


def _class_name(func: cst.BaseExpression) -> str | None:
    if isinstance(func, cst.Attribute):
        func = func.attr
    return func.value if isinstance(func, cst.Name) and func.value.endswith("Accelerator") else None


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    name = _class_name(original.func)
    if name is None or ctx.target < (1, 6):
        return updated
    if any(arg.keyword is not None and arg.keyword.value == "training_type_plugin" for arg in original.args):
        ctx.todo(ID, _MESSAGE.format(name=_class_name(updated.func) or name), original)
    return updated


RULE = Rule(
    id=ID,
    description="Accelerator(precision_plugin=..., training_type_plugin=...) gets a TODO (1.6: the strategy holds "
    "the accelerator)",
    deprecated_in="1.6",
    handlers={"Call": leave_call},
    tokens=("training_type_plugin",),
)
