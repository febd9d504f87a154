"""The 1.x ``LightningModule.optimizer_step`` signature -> the one 2.x calls, where the body never needed what 2.x
no longer passes.

1.5.10 called ``optimizer_step(epoch, batch_idx, optimizer, optimizer_idx, closure, on_tpu=..., using_native_amp=...,
using_lbfgs=...)``; 2.6.6 calls ``optimizer_step(epoch, batch_idx, optimizer, closure)``, so an override written for
1.x receives the closure as its ``optimizer_idx`` and never steps (``TypeError`` or a closure never run). The
rewrite drops the fourth parameter and ``on_tpu``/``using_native_amp``/``using_lbfgs`` and, in a
``super().optimizer_step(...)`` call of the body, the arguments that fed them. Only where nothing else reads
them (several optimizers, checks of the hardware): otherwise rule ``removed_hooks``' TODO stays, saying why. Also in
a subclass of the project's own LightningModule: the signature is what 2.x calls, whatever the base does.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules._epoch_end_plan import reads
from codemods.rules._hook_classes import is_lightning_module, owner_class
from legacy_api.hooks import members

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "optimizer_step_hook"
HOOK = "optimizer_step"
#: What 1.5.10 passed by keyword after the five positions (checked in its optimizer loop).
_GONE_KEYWORDS = ("on_tpu", "using_native_amp", "using_lbfgs")
#: 1.5.10's parameter names, by position, for the arguments of a ``super().optimizer_step(...)`` call.
_LEGACY = ("epoch", "batch_idx", "optimizer", "optimizer_idx", "optimizer_closure", *_GONE_KEYWORDS)
_GONE = frozenset({"optimizer_idx", *_GONE_KEYWORDS})


def _positional(node: cst.FunctionDef) -> list[cst.Param]:
    return [*node.params.posonly_params, *node.params.params]


def _is_super_call(node: cst.Call) -> bool:
    func = node.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == HOOK
        and isinstance(func.value, cst.Call)
        and isinstance(func.value.func, cst.Name)
        and func.value.func.value == "super"
    )


class _SuperCalls(cst.CSTTransformer):
    """Drops the 1.x-only arguments of ``super().optimizer_step(...)``; ``blocked`` when one cannot be placed."""

    def __init__(self) -> None:
        self.blocked = False

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not _is_super_call(original):
            return updated
        kept: list[cst.Arg] = []
        for index, arg in enumerate(updated.args):
            if arg.star:
                self.blocked = True
                return updated
            name = arg.keyword.value if arg.keyword is not None else (_LEGACY[index] if index < len(_LEGACY) else "")
            if name not in _GONE:
                kept.append(arg)
        if kept:  # the last one keeps the old last one's comma and the space (or line break) before ")"
            last = updated.args[-1]
            kept[-1] = kept[-1].with_changes(comma=last.comma, whitespace_after_arg=last.whitespace_after_arg)
        return updated.with_changes(args=kept)


def rewrite(node: cst.FunctionDef) -> cst.FunctionDef | str:
    """``node`` with the 2.x signature, or why it cannot have it exactly."""
    params = _positional(node)[1:]
    if node.params.star_arg is not cst.MaybeSentinel.DEFAULT and len(params) < 5:
        return "its parameters come through *args"
    if len(params) < 5:
        return "it declares fewer parameters than 1.x passed"
    dropped = {params[3].name.value} | {p.name.value for p in params[5:] if p.name.value in _GONE_KEYWORDS}
    if any(p.name.value not in _GONE_KEYWORDS for p in params[5:]):
        return "it declares parameters 1.x never passed"
    transformer = _SuperCalls()
    body = node.body.visit(transformer)
    if transformer.blocked:
        return "its super().optimizer_step call passes *args/**kwargs"
    assert isinstance(body, cst.BaseSuite)
    probe = node.with_changes(body=body)
    read = sorted(name for name in dropped if reads(probe, name))
    if read:
        return f"it reads {', '.join(read)}, which 2.x no longer passes"
    kept = [_positional(node)[0], *params[:3], params[4]]
    # The last one takes the old last one's comma: the one before ``*args``/``**kwargs``, or a trailing one (and
    # the line break before the parenthesis) where the parameters stand one per line.
    kept[-1] = kept[-1].with_changes(comma=_positional(node)[-1].comma)
    new_params = node.params.with_changes(posonly_params=[], params=kept)
    return probe.with_changes(params=new_params)


def applies(ctx: FileContext, cls: cst.ClassDef, node: cst.FunctionDef) -> bool:
    """Whether this rule rewrites ``node`` (``removed_hooks`` asks, and stays silent then)."""
    return (
        ctx.enabled(ID)
        and node.name.value == HOOK
        and is_lightning_module(ctx, cls)
        and "optimizer_idx" not in _params_of_target(ctx.surface.release)
        and not isinstance(rewrite(node), str)
    )


@functools.cache
def _params_of_target(release: str) -> tuple[str, ...]:
    from legacy_api.surface import arguments, surface

    parsed = arguments(surface(release).signature(f"pytorch_lightning.LightningModule.{HOOK}"))
    return tuple(arg.arg for arg in parsed.args) if parsed else ()


def blocker(node: cst.FunctionDef) -> str | None:
    result = rewrite(node)
    return result if isinstance(result, str) else None


def leave_function_def(ctx: FileContext, original: cst.FunctionDef, updated: cst.FunctionDef) -> Any:
    cls = owner_class(ctx)
    if cls is None or original.name.value != HOOK or HOOK not in members(ctx.surface.release, "LightningModule"):
        return updated
    if not applies(ctx, cls, original):
        return updated
    result = rewrite(updated)
    if isinstance(result, str):
        return updated
    message = "optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure): the signature 2.x calls"
    ctx.fix(ID, message, original)
    return result


@functools.cache
def _visit() -> re.Pattern[str]:
    return re.compile(r"\bdef\s+optimizer_step\s*\(")


RULE = Rule(
    id=ID,
    description="the 1.x optimizer_step(epoch, batch_idx, optimizer, optimizer_idx, closure, on_tpu, "
    "using_native_amp, using_lbfgs) -> optimizer_step(epoch, batch_idx, optimizer, closure)",
    deprecated_in="2.0",
    handlers={"FunctionDef": leave_function_def},
    order=906,
    tokens=SURFACE_TOKENS[1:],  # "def ": decided by the surface prefilter, where optimizer_step is a changed hook
    visit=_visit,
)
