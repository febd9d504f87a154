"""A keyword argument that a Lightning class or a Trainer method no longer takes at the target: renamed where it is
the same argument under a new name, else one TODO on the call.

``trainer.fit(model, train_dataloader=dl)`` (the keyword deprecated in 1.4, gone in 1.6), ``ModelCheckpoint(
every_n_val_epochs=1)``, ``LightningCLI(..., save_config_overwrite=True)`` raise a ``TypeError`` on 2.x, and
``DDPStrategy(num_nodes=2)`` (what ``DDPPlugin(num_nodes=2)`` is renamed to) passes ``num_nodes`` on to torch's
``DistributedDataParallel``, which raises it at the first ``fit``. The keywords each release takes come from the
signatures recorded from the real releases (``legacy_api.surface``); the pure renames and what to pass instead of a
forwarded keyword from ``legacy_api.keywords``. Checked: calls of a class imported from Lightning (not the Trainer's
own flags: the flag rules own those; a class the target keeps in another module, like ``profiler.SimpleProfiler``, by
the target's class), ``super().__init__(...)`` in a class with one Lightning base, ``self.log``/``self.log_dict`` in a
LightningModule (``sync_dist_op=`` is ``reduce_fx=``) and ``fit``/``validate``/``test``/``predict``/``tune`` on a
Trainer. Also a parameter the target requires that 1.x defaulted (``EarlyStopping()`` without ``monitor=``, a TODO)
and a value whose meaning changed (``LightningCLI(seed_everything_default=None)`` -> ``False``).
"""

from __future__ import annotations

import ast
import functools
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.context import super_call
from codemods.plan.resolve import resolve
from codemods.plan.rule import Rule
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules import _folded_keywords as _folded
from codemods.rules import _overridden_keywords as _overridden
from codemods.rules._hook_classes import base_of, project_base_of
from codemods.rules._trainer_kind import enclosing_class, trainer_kind
from legacy_api.hooks import LEGACY_RELEASES, parse_signature
from legacy_api.keywords import (
    DEFAULTED,
    FOLDED,
    FORWARDED,
    INSTEAD,
    MAPPED,
    OVERRIDDEN,
    REVALUED,
    SELF_METHODS,
    renamed_keyword,
    required,
    revalued,
    signature_keywords,
    unrecorded,
)
from legacy_api.renames import PL
from legacy_api.surface import arguments, surface

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext, Site

ID = "removed_keywords"
_METHODS = frozenset({"fit", "validate", "test", "predict", "tune"})
_TRAINER = f"{PL}.trainer.trainer.Trainer"
_LOG = f"{PL}.LightningModule.log"


def _logs_a_dict(call: cst.Call) -> bool:
    """``self.log(name, {...})``: the value (second positional, or ``value=``) is a dict display."""
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    value = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "value"), None)
    value = value if value is not None else positional[1].value if len(positional) > 1 else None
    return isinstance(value, cst.Dict)


def _owner(ctx: FileContext, call: cst.Call) -> tuple[str, str, str] | None:
    """(the name a message uses, the recorded path whose signature counts, the legacy path) of the callee."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _METHODS and trainer_kind(ctx, func.value) is True:
        path = f"{PL}.Trainer.{func.attr.value}"
        return f"Trainer.{func.attr.value}", path, path
    on_self = _self_method(ctx, func)
    if on_self is not None:
        return on_self.split(".", 1)[1], on_self, on_self
    return _owner_named(ctx, _super_init(ctx, func) or ctx.qualified_name(func))


def _owner_named(ctx: FileContext, name: str | None) -> tuple[str, str, str] | None:
    """:func:`_owner` of a callee whose qualified name is ``name``."""
    if name is None or name.split(".", 1)[0] != PL:
        return None
    found = resolve(name, ctx.target)
    if found is not None and found.new is None:
        return None  # removed: its own rule reports it
    final = found.new if found is not None and found.new is not None else name
    if not ctx.surface.has(final):
        # Gone from its module (rule removed_names says where it is now): its arguments still count.
        home = ctx.surface.home(final.rpartition(".")[2])
        final = f"{home}.{final.rpartition('.')[2]}" if home is not None else final
    if ctx.surface.resolve(final) == _TRAINER or final.split(".", 1)[0] != PL:
        return None
    if unrecorded(final, ctx.surface.release) is not None:
        return final.rpartition(".")[2], final, name  # a function (is_overridden)
    return final.rpartition(".")[2], f"{final}.__init__", f"{name}.__init__"


@functools.cache
def _taken(release: str, path: str) -> tuple[frozenset[str], bool] | None:
    """:func:`signature_keywords` of ``path`` at ``release`` (the target): recorded, else read in the sources
    (``legacy_api.keywords.UNRECORDED``); found once, as every call of the same callee asks again."""
    recorded = surface(release)
    signature = recorded.signature(path)
    if signature is None:
        owner, _, member = path.rpartition(".")
        key = recorded.resolve(owner) if member == "__init__" else None
        signature = unrecorded(f"{key}.{member}" if key is not None else path, release)
    return signature_keywords(signature)


@functools.cache
def _required(release: str, path: str) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """:func:`required` of ``path``'s recorded signature at ``release``, found once."""
    return required(surface(release).signature(path))


def _self_method(ctx: FileContext, func: cst.BaseExpression) -> str | None:
    """``self.log`` in a method of a LightningModule (direct, or through the project's own classes): the method's
    public path (``legacy_api.keywords.SELF_METHODS``)."""
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"):
        return None
    if not any(method == func.attr.value for _, method in SELF_METHODS):
        return None
    cls = enclosing_class(ctx)
    if cls is None:
        return None
    through = project_base_of(ctx, cls)
    base = base_of(ctx, cls) or (through[0] if through is not None else None)
    return SELF_METHODS.get((base or "", func.attr.value))


def _super_init(ctx: FileContext, func: cst.BaseExpression) -> str | None:
    """``super().__init__`` in a method of a class whose one Lightning base is named: that base's legacy name
    (``class Mine(ModelCheckpoint): ... super().__init__(every_n_val_epochs=1)``)."""
    if not (isinstance(func, cst.Attribute) and func.attr.value == "__init__" and isinstance(func.value, cst.Call)):
        return None
    inner = func.value
    if not (isinstance(inner.func, cst.Name) and inner.func.value == "super" and not inner.args):
        return None
    cls = enclosing_class(ctx)
    if cls is None:
        return None
    names = {ctx.qualified_name(arg.value) for arg in cls.bases if arg.keyword is None}
    lightning = sorted(n for n in names if n is not None and n.split(".", 1)[0] == PL)
    return lightning[0] if len(lightning) == 1 else None


@functools.cache
def _legacy_keywords(path: str) -> frozenset[str]:
    """The keywords ``path``'s signature named in some recorded 1.x release."""
    found: set[str] = set()
    for release in LEGACY_RELEASES:
        parsed = parse_signature(surface(release).signature(path))
        if parsed is not None:
            found.update(parsed[0])
    return frozenset(found)


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    owner = _owner(ctx, original)
    if owner is None:
        return updated
    short, path, legacy_path = owner
    taken = _taken(ctx.surface.release, path)
    if taken is None:
        return updated
    names, forwards = taken
    given = {arg.keyword.value for arg in updated.args if arg.keyword is not None}  # after the rules before this one
    release = ctx.surface.release
    renamed: dict[str, str] = {}
    dropped: list[str] = []
    problems: list[str] = []
    legacy = _legacy_keywords(legacy_path) | _legacy_keywords(path)
    home = path.removesuffix(".__init__")  # the target's class (or method) the keywords belong to
    folds = _folded.foldable(updated, home, given - names)
    for keyword in sorted(given - names - set(folds)):
        key = short if short.startswith("Trainer.") else home
        new = renamed_keyword(release, key, keyword)
        if new is not None and (new in names or forwards) and new not in given:  # (CometLogger: name= in **kwargs)
            renamed[keyword] = new
        elif keyword in OVERRIDDEN and keyword in legacy and _overridden.is_strategy(ctx, path):
            dropped.append(keyword)
        elif not forwards:
            instead = INSTEAD.get((short, keyword))
            if new is not None and new in given and (key, keyword) not in MAPPED:
                instead = f"{new}= is given too, and 1.5.10 took {keyword}= over it: keep one, under {new}="
            problems.append(f"{short} takes no {keyword}= in Lightning {release}" + (f": {instead}" if instead else ""))
        elif keyword in legacy or (short, keyword) in FORWARDED:
            hint = FORWARDED.get((short, keyword), "it was the class's own argument in 1.x")
            problems.append(f"{short} passes {keyword}= on through **kwargs in Lightning {release}: {hint}")
    problems += _missing(ctx, updated, short, path, legacy_path)
    if path == _LOG and _logs_a_dict(updated):
        # 2.6.6 raises "`dict` values cannot be logged" (run on the real release); 1.x logged the dict's values.
        problems.append(
            f"{short} takes no dict value in Lightning {release}: self.log_dict(...) or one self.log a value"
        )
    if problems:
        ctx.todo(ID, "; ".join(problems), original)
    updated, reported = _revalued(ctx, original, updated, short, path, renamed)
    if folds:
        into = FOLDED[(home, folds[0])][0]
        updated = _folded.fold(updated, home, folds)
        ctx.fix(ID, f"{short}({'=, '.join(folds)}=) -> {short}({into}={{...}}): the same values", original)
    if dropped:
        updated = _overridden.drop(ctx, original, updated, short, dropped)
    if not renamed:
        return updated
    for old, new in renamed.items():
        if old not in reported:
            ctx.fix(ID, f"{short}({old}=) -> {short}({new}=)", original)
    args = [
        arg.with_changes(keyword=cst.Name(renamed[arg.keyword.value]))
        if arg.keyword is not None and arg.keyword.value in renamed
        else arg
        for arg in updated.args
    ]
    return updated.with_changes(args=args)


def _missing(ctx: FileContext, call: cst.Call, short: str, path: str, legacy_path: str) -> list[str]:
    """A parameter the target requires that the call leaves out where 1.x gave it a default
    (``EarlyStopping()``: ``monitor`` is required since 1.6)."""
    if any(arg.star for arg in call.args):
        return []
    given = {arg.keyword.value for arg in call.args if arg.keyword is not None}
    return _left_out(ctx, short, path, legacy_path, given, sum(1 for arg in call.args if arg.keyword is None))


def _left_out(ctx: FileContext, short: str, path: str, legacy_path: str, given: set[str], count: int) -> list[str]:
    """:func:`_missing` of a call that passes ``count`` positions and the keywords ``given`` (no ``*``/``**``)."""
    needed = _required(ctx.surface.release, path)
    if needed is None:
        return []
    positional, kwonly = needed
    left_out = [name for name in positional[count:] if name not in given] + sorted(kwonly - given)
    defaulted = _legacy_defaults(legacy_path) | _legacy_defaults(path)
    problems = []
    for name in left_out:
        if name in defaulted:
            meant = DEFAULTED.get((short, name), "1.x had a default for it")
            problems.append(f"{short} requires {name}= in Lightning {ctx.surface.release} ({meant})")
    return problems


@functools.cache
def _legacy_defaults(path: str) -> frozenset[str]:
    """The parameters ``path``'s signature gave a default in some recorded 1.x release."""
    found: set[str] = set()
    for release in LEGACY_RELEASES:
        args = arguments(surface(release).signature(path))
        if args is None:
            continue
        positional = [*args.posonlyargs, *args.args]
        found.update(a.arg for a in positional[len(positional) - len(args.defaults) :])
        found.update(a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None)
    return frozenset(found)


def _revalued(
    ctx: FileContext, original: cst.Call, updated: cst.Call, short: str, path: str, renamed: dict[str, str]
) -> tuple[cst.Call, set[str]]:
    """A keyword's value whose meaning changed, written as the target's spelling of the same meaning
    (``legacy_api.keywords.REVALUED``); with the keywords it reported (under the name ``renamed`` gives them)."""
    owner = path.removesuffix(".__init__")
    args = list(updated.args)
    reported = set()
    for index, arg in enumerate(args):
        if arg.keyword is None:
            continue
        keyword, written = arg.keyword.value, ctx.code(arg.value)
        new = revalued(ctx.surface.release, owner, keyword, written)
        if new is not None:
            ctx.fix(ID, f"{short}({keyword}={written}) -> {short}({renamed.get(keyword, keyword)}={new})", original)
            args[index] = arg.with_changes(value=cst.parse_expression(new))
            reported.add(keyword)
    return (updated.with_changes(args=args) if args != list(updated.args) else updated), reported


@functools.cache
def _visit() -> re.Pattern[str]:
    """A Trainer method's line names nothing of Lightning (``trainer.fit(model, train_dataloader=dl)``), nor does
    ``self.log(...)`` or ``super().__init__(...)``."""
    methods = sorted({*_METHODS, *(method for _, method in SELF_METHODS), "__init__"})
    return re.compile(r"\.(?:" + "|".join(methods) + r")\s*\(")


def _screen(site: Site) -> bool:
    """Whether a call the line holds may get a rename or a TODO here: not ``super().__init__()`` in a
    LightningModule, ``self.log("loss", loss, on_step=True)``, ``trainer.fit(model)`` (each keyword one the target
    takes, no parameter left out that 1.x defaulted, no value whose meaning changed)."""
    for call in site.calls():
        func = call.func
        if site.imported_root(func):
            return True  # a Lightning class, as ``ctx.qualified_name`` may name it
        if isinstance(func, ast.Attribute) and any(_may_act(site.ctx, call, o) for o in _owners(site, func)):
            return True
    return False


def _owners(site: Site, func: ast.Attribute) -> list[tuple[str, str, str]]:
    """What :func:`_owner` may answer for a callee that no legacy import names."""
    found = [(f"Trainer.{func.attr}", f"{PL}.Trainer.{func.attr}", f"{PL}.Trainer.{func.attr}")]
    found = found if func.attr in _METHODS else []
    if isinstance(func.value, ast.Name) and func.value.id == "self":
        found += [(path.split(".", 1)[1], path, path) for (_, name), path in SELF_METHODS.items() if name == func.attr]
    made = super_call(func)
    if made is not None and not made.args:
        cls = site.method_class()
        bases = [base.value if isinstance(base, ast.Starred) else base for base in cls.bases] if cls else []
        names = {name for base in bases for name in site.qualified_names(base) if name.split(".", 1)[0] == PL}
        found += [owner for name in sorted(names) if (owner := _owner_named(site.ctx, name)) is not None]
    return found


_REVALUED_KEYWORDS = frozenset(keyword for (_, keyword, _) in REVALUED)  # (whichever path a call names the class by)


def _may_act(ctx: FileContext, call: ast.Call, owner: tuple[str, str, str]) -> bool:
    """Whether :func:`leave_call` may act on ``call`` (``ast``) where :func:`_owner` answers ``owner``."""
    short, path, legacy_path = owner
    taken = _taken(ctx.surface.release, path)
    if taken is None:
        return False
    given = {keyword.arg for keyword in call.keywords if keyword.arg is not None}
    if given - taken[0] or given & _REVALUED_KEYWORDS:
        return True
    positional = [arg for arg in call.args if not isinstance(arg, ast.Starred)]
    value = next((k.value for k in call.keywords if k.arg == "value"), positional[1] if len(positional) > 1 else None)
    if path == _LOG and isinstance(value, ast.Dict):
        return True
    if len(positional) < len(call.args) or len(given) < len(call.keywords):
        return False  # ``*args``/``**kwargs``: nothing is missing
    return bool(_left_out(ctx, short, path, legacy_path, given, len(call.args)))


RULE = Rule(
    id=ID,
    description="a keyword a Lightning class or Trainer method no longer takes is renamed (fit(train_dataloader=) "
    "-> train_dataloaders=) or flagged",
    deprecated_in="1.4",
    handlers={"Call": leave_call},
    order=920,
    tokens=SURFACE_TOKENS[:1],
    visit=_visit,
    screen=_screen,
)
