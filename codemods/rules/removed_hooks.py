"""A hook of ``LightningModule``, ``LightningDataModule`` or ``Callback`` the target no longer calls, or calls with
other arguments: one TODO above the ``def``, naming what the target calls instead.

A class that overrides ``validation_epoch_end`` (removed in 2.0) runs on 2.x without an error, and its code never
runs: the silent kind of breakage. Which hooks exist, and their signatures, come from the surfaces recorded from
the real releases (``legacy_api.surface``); what replaced a removed hook from ``legacy_api.hooks``. Checked, for
each method of a class whose base is one of those Lightning classes, imported from Lightning:

* a hook some 1.x release had and the target lacks: removed, named with its successor;
* a hook the target calls with fewer positional arguments than the method requires (``on_train_batch_end(...,
  dataloader_idx)``), or whose parameter at a position the target fills is one only 1.x passed there
  (``optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure, ...)`` receives the closure
  as ``optimizer_idx`` on 2.x);
* a parameter 1.x passed to a hook that takes ``*args`` (``training_step(self, batch, batch_idx, optimizer_idx)``).

Never a rewrite here: rule ``epoch_end_hooks`` rewrites the epoch-end hooks where that is exact (then this rule
stays silent on them), and where it is not the TODO says why.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules import _interrupt_hook, epoch_end_hooks, optimizer_step_hook
from codemods.rules._epoch_end_plan import EPOCH_ENDS, _named_elsewhere, blocker, reads
from codemods.rules._hook_classes import _nearest, base_of, inherited_words, owner_class, project_base_of
from legacy_api.hooks import (
    CONSTANT_ARGUMENTS,
    GONE_PARAMETERS,
    IGNORED_RETURNS,
    LEGACY_RELEASES,
    OPTIONAL_ARGUMENTS,
    SUCCESSORS,
    changed_hooks,
    default_arguments,
    legacy_hooks,
    members,
    parse_signature,
    removed_in,
    signature,
)
from legacy_api.renames import version_tuple

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext, Site

ID = "removed_hooks"


@functools.cache
def _visit() -> re.Pattern[str]:
    return re.compile(r"\bdef\s+(?:" + "|".join(sorted(changed_hooks())) + r")\s*\(")


def _removed_in(base: str, hook: str) -> str:
    gone = removed_in(base, hook)
    return f" (removed in {gone})" if gone else ""


def _legacy_signature(base: str, hook: str) -> list[str]:
    for release in reversed(LEGACY_RELEASES):
        params = parse_signature(signature(release, base, hook))
        if params is not None:
            return list(params[0])
    return []


@dataclass(frozen=True)
class _Def:
    """What the check reads of a ``def``: the same from its libcst node (the pass) and its ``ast`` node (the screen)."""

    hook: str
    #: The parameters after ``self``: (name, whether it has a default).
    params: tuple[tuple[str, bool], ...]
    star: bool
    returns: Callable[[], bool]
    #: The code of the class's own ``configure_optimizers`` ("" where it has none).
    optimizers: Callable[[], str] = lambda: ""

    @classmethod
    def of_cst(cls, node: cst.FunctionDef, owner: cst.ClassDef | None = None) -> _Def:
        params = [*node.params.posonly_params, *node.params.params][1:]
        return cls(
            node.name.value,
            tuple((param.name.value, param.default is not None) for param in params),
            isinstance(node.params.star_arg, cst.Param),
            lambda: _returns_a_value(node),
            lambda: _cst_method_code(owner, _CONFIGURE) if owner is not None else "",
        )

    @classmethod
    def of_ast(cls, node: ast.FunctionDef | ast.AsyncFunctionDef, owner: ast.ClassDef | None = None) -> _Def:
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        first_default = len(positional) - len(args.defaults)
        params = tuple((param.arg, index >= first_default) for index, param in enumerate(positional))[1:]
        method = functools.partial(_ast_method_code, owner, _CONFIGURE) if owner is not None else lambda: ""
        return cls(node.name, params, args.vararg is not None, lambda: _ast_returns_a_value(node), method)


_CONFIGURE = "configure_optimizers"
#: A torch optimizer built (``optim.Adam(``, ``torch.optim.SGD(``, ``AdamW(``): two in one ``configure_optimizers``
#: may be two optimizers returned together, which 2.x runs only with manual optimization.
_OPTIMIZER_BUILT = re.compile(
    r"\b(?:(?:torch\.)?optim\.\w+|Adam|AdamW|SGD|RMSprop|Adagrad|Adadelta|Adamax|ASGD|LBFGS|NAdam|RAdam|Rprop)\s*\("
)


def _ast_method_code(owner: ast.ClassDef, name: str) -> str:
    found = (item for item in owner.body if isinstance(item, ast.FunctionDef) and item.name == name)
    return next((ast.unparse(item) for item in found), "")


def _cst_method_code(owner: cst.ClassDef, name: str) -> str:
    body = owner.body.body if isinstance(owner.body, cst.IndentedBlock) else ()
    found = next((item for item in body if isinstance(item, cst.FunctionDef) and item.name.value == name), None)
    return cst.Module(body=[]).code_for_node(found) if found is not None else ""


def _several_optimizers(node: _Def) -> bool:
    """Whether the class's ``configure_optimizers`` builds more than one optimizer (PyTorch-VAE's second one for
    adversarial configs): where it returns them together, 1.x passed ``optimizer_idx`` even to a defaulted parameter."""
    return len(_OPTIMIZER_BUILT.findall(node.optimizers())) > 1


def _check(ctx: FileContext, base: str, node: _Def) -> str | None:
    hook = node.hook
    target = ctx.surface
    if hook not in legacy_hooks(base):
        return None
    if hook not in members(target.release, base):
        successor = SUCCESSORS.get((base, hook))
        then = f": use {successor}" if successor else ""
        return f"Lightning {target.release} never calls {base}.{hook}{_removed_in(base, hook)}{then}"
    mine = [name for name, _ in node.params]
    required = sum(1 for _, default in node.params if not default)
    gone = GONE_PARAMETERS.get((base, hook), {})
    for name, default in node.params:
        # With a default the override runs as it did where 1.x did not pass it either (one optimizer, no
        # truncated backprop); where 1.x did, 2.x raises at fit (several optimizers need manual optimization): a
        # class whose configure_optimizers builds several may be such a class.
        if name in gone and not default:
            return f"Lightning {target.release} no longer passes {name} to {hook}: {gone[name]}"
        if name in gone and name == "optimizer_idx" and _several_optimizers(node):
            return (
                f"Lightning {target.release} no longer passes {name} to {hook}, and configure_optimizers here builds "
                f"several optimizers: {gone[name]}"
            )
    optional = OPTIONAL_ARGUMENTS.get((base, hook))
    if optional is not None and ctx.target >= version_tuple(optional[0]):
        # The target's signature has the default, so the count below cannot see it: with one dataloader the target
        # passes nothing there (recorded on 2.6.6: a RuntimeError for the module's hook, a TypeError for a callback's).
        unset = [name for name, default in node.params if name in optional[1] and not default]
        if unset:
            return (
                f"Lightning {target.release} passes {', '.join(unset)} to {hook} only where there are several "
                f"dataloaders (since {optional[0]})"
            )
    ignored = IGNORED_RETURNS.get((base, hook))
    if ignored is not None and ctx.target >= version_tuple(ignored[0]) and node.returns():
        return f"Lightning {target.release} does not keep what {base}.{hook} returns: {ignored[1]}"
    theirs = parse_signature(signature(target.release, base, hook))
    if theirs is None or theirs[2]:
        return None
    names, needed, _ = theirs
    if len(mine) < needed and not node.star:
        # Fewer parameters than the target always passes: a TypeError at the first call (on_load_checkpoint(self,
        # checkpoint), the form before 1.4.9).
        return f"Lightning {target.release} calls {hook}({', '.join(['self', *names])}): this {hook} takes {len(mine)}"
    legacy = _legacy_signature(base, hook)
    shifted = [n for i, n in enumerate(mine[: len(names)]) if n != names[i] and n in legacy and n not in names]
    if required > len(names) or shifted:
        passed = ", ".join(["self", *names])
        extra = ", ".join(shifted or mine[len(names) :])
        return f"Lightning {target.release} calls {hook}({passed}): {extra} is no longer passed there"
    return None


class _Returns(cst.CSTVisitor):
    """Finds a ``return <value>`` of the function itself (not of a nested function, class or lambda)."""

    def __init__(self) -> None:
        self.found = False

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None and not (isinstance(node.value, cst.Name) and node.value.value == "None"):
            self.found = True

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _returns_a_value(node: cst.FunctionDef) -> bool:
    finder = _Returns()
    node.body.visit(finder)
    return finder.found


def _ast_returns_a_value(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """:func:`_returns_a_value` on the ``ast`` (where ``None`` is a constant, not a name)."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        child = stack.pop()
        value = child.value if isinstance(child, ast.Return) else None
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            return True
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(child))
    return False


def _rewritten(ctx: FileContext, owner: cst.ClassDef, node: cst.FunctionDef) -> bool:
    """Whether a rule rewrites this hook exactly (then this one stays silent)."""
    return epoch_end_hooks.applies(ctx, owner, node) or optimizer_step_hook.applies(ctx, owner, node)


def _not_rewritten(
    ctx: FileContext, owner: cst.ClassDef, node: cst.FunctionDef, through: tuple[str, str] | None
) -> str | None:
    """Why the rule that rewrites such a hook left this one (its TODO says so); None for other hooks."""
    hook = node.name.value
    if hook in EPOCH_ENDS and ctx.enabled(epoch_end_hooks.ID):
        if through is None:
            return blocker(ctx, owner, node)
        return blocker(ctx, owner, node, (through[1], inherited_words(ctx, through[1])))
    if hook == optimizer_step_hook.HOOK and ctx.enabled(optimizer_step_hook.ID):
        return optimizer_step_hook.blocker(node)
    return None


def leave_function_def(ctx: FileContext, original: cst.FunctionDef, updated: cst.FunctionDef) -> Any:
    owner = owner_class(ctx)
    if owner is None or original.name.value not in changed_hooks():
        return updated
    base = base_of(ctx, owner)
    through = None if base is not None else project_base_of(ctx, owner)
    if through is not None:
        base = through[0]
    if base is None:
        return updated
    if base == "LightningModule" and _rewritten(ctx, owner, original):
        return updated
    message = _check(ctx, base, _Def.of_cst(original, owner))
    if message and base == "LightningModule":
        why = _not_rewritten(ctx, owner, original, through)
        message += f"; not rewritten: {why}" if why else ""
    if message:
        defaulted = _with_constant_defaults(ctx, base, updated)
        if defaulted is not None:
            ctx.fix(ID, f"{message}: it gets the {_constants(ctx, base, original)} as its default", original)
            return defaulted
        moved = _interrupt_hook.rewrite(ctx, owner, updated) if base == "Callback" else None
        if moved is not None and not _named_elsewhere(ctx, _interrupt_hook.HOOK):
            ctx.fix(
                ID,
                f"{message}: it became on_exception(..., exception), run for a KeyboardInterrupt only (1.5 ran "
                "on_keyboard_interrupt there, before the on_exception hooks)",
                original,
            )
            return moved
        trimmed = _without_unread_tail(ctx, base, updated)
        if trimmed is not None:
            dropped = [p.name.value for p in updated.params.params[len(trimmed.params.params) :]]
            ctx.fix(ID, f"{message}: its unread {', '.join(dropped)} parameter is dropped", original)
            return trimmed
        ctx.todo(ID, message, original)
    return updated


def _without_unread_tail(ctx: FileContext, base: str, node: cst.FunctionDef) -> cst.FunctionDef | None:
    """``node`` without the trailing parameters the target no longer passes (``Callback.on_train_epoch_end(self,
    trainer, pl_module, outputs)``: 2.x calls it without ``outputs``, as 1.5.10 already did for callbacks, where such
    a hook written for 1.4 raised), where its body reads none of them: the hook then runs its body as 1.x ran it.
    None where that is not all the target objects to, or a parameter is read."""
    params = list(node.params.params)
    if node.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or node.params.star_kwarg is not None:
        return None
    theirs = parse_signature(signature(ctx.surface.release, base, node.name.value))
    if theirs is None or theirs[2] or len(params) - 1 <= len(theirs[0]):
        return None
    tail = params[1 + len(theirs[0]) :]
    if any(reads(node, param.name.value) for param in tail) or node.params.kwonly_params:
        return None
    head = params[: 1 + len(theirs[0])]
    if head:  # the last one left takes the last one's comma: a signature laid out one parameter a line stays so
        head[-1] = head[-1].with_changes(comma=params[-1].comma)
    trimmed = node.with_changes(params=node.params.with_changes(params=head))
    return trimmed if _check(ctx, base, _Def.of_cst(trimmed)) is None else None


def _constants(ctx: FileContext, base: str, node: cst.FunctionDef) -> str:
    hook = node.name.value
    given = default_arguments(base, hook, ctx.target)
    passed = ", ".join(f"{name}={value}" for name, value in given.items())
    return f"{passed} 1.x always passed" if (base, hook) in CONSTANT_ARGUMENTS else f"{passed} 1.x passed with one"


def _with_constant_defaults(ctx: FileContext, base: str, node: cst.FunctionDef) -> cst.FunctionDef | None:
    """``node`` with the trailing parameters 1.x always passed the same value (:data:`CONSTANT_ARGUMENTS`), or passed
    that value where the target passes nothing (:data:`OPTIONAL_ARGUMENTS`), given that value as their default, where
    that is all the target objects to; else None."""
    given = default_arguments(base, node.name.value, ctx.target)
    params = list(node.params.params)
    if not given or not params or node.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT):
        return None
    tail = params[-len(given) :] if len(params) >= len(given) else []
    if [param.name.value for param in tail] != list(given) or any(param.default is not None for param in tail):
        return None
    head = params[: len(params) - len(tail)]
    new_tail = [
        param.with_changes(
            default=cst.parse_expression(given[param.name.value]),
            equal=_equal(param),
        )
        for param in tail
    ]
    defaulted = node.with_changes(params=node.params.with_changes(params=[*head, *new_tail]))
    return defaulted if _check(ctx, base, _Def.of_cst(defaulted)) is None else None


def _equal(param: cst.Param) -> cst.AssignEqual:
    """PEP 8's spelling: ``idx=0``, but ``idx: int = 0`` where the parameter is annotated."""
    space = cst.SimpleWhitespace(" " if param.annotation is not None else "")
    return cst.AssignEqual(whitespace_before=space, whitespace_after=space)


def _screen(site: Site) -> bool:
    """Whether a ``def`` of a changed hook the line shows may get a TODO: not one whose parameters the target passes
    as they are (``def training_step(self, batch, batch_idx)`` in a LightningModule), whichever hook base the names
    of its class's bases may resolve to."""
    nodes = [statement.node for statement in site.chain]
    for index, node in enumerate(nodes[1:], start=1):
        owner = nodes[index - 1]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and isinstance(owner, ast.ClassDef):
            if node.name not in changed_hooks():
                continue
            shape = _Def.of_ast(node, owner)
            if any(_check(site.ctx, base, shape) is not None for base in sorted(_bases(site, owner))):
                return True
    return False


def _bases(site: Site, cls: ast.ClassDef) -> set[str]:
    """Every hook base that ``base_of`` or ``project_base_of`` may answer for ``cls``."""
    ctx = site.ctx
    found: set[str] = set()
    releases = (*LEGACY_RELEASES, ctx.surface.release)
    known = dict(ctx.options.hook_classes)
    for written in cls.bases:
        base = written.value if isinstance(written, ast.Starred) else written
        for name in site.qualified_names(base):
            nearest = next((short for release in releases if (short := _nearest(release, name)) is not None), None)
            if nearest is not None:
                found.add(nearest)
        last = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
        if last in known and last != cls.name:
            found.add(known[last])
    return found


RULE = Rule(
    id=ID,
    description="a LightningModule/LightningDataModule/Callback hook the target no longer calls, or calls with other "
    "arguments, is flagged with what replaced it",
    deprecated_in="1.6",
    handlers={"FunctionDef": leave_function_def},
    order=910,
    tokens=SURFACE_TOKENS[1:],
    visit=_visit,
    screen=_screen,
)
