"""A keyword argument that a Lightning class or a Trainer method no longer takes at the target: renamed where it is
the same argument under a new name, else one TODO on the call.

``trainer.fit(model, train_dataloader=dl)`` (the keyword deprecated in 1.4, gone in 1.6), ``ModelCheckpoint(
every_n_val_epochs=1)``, ``LightningCLI(..., save_config_overwrite=True)`` raise a ``TypeError`` on 2.x, and
``DDPStrategy(num_nodes=2)`` (what ``DDPPlugin(num_nodes=2)`` is renamed to) passes ``num_nodes`` on to torch's
``DistributedDataParallel``, which raises it at the first ``fit``. The keywords each release takes come from the
signatures recorded from the real releases (``legacy_api.surface``); the pure renames and what to pass instead of a
forwarded keyword from ``legacy_api.keywords``. Checked: calls of a class imported from Lightning (not the Trainer's
own flags: the flag rules own those) and ``fit``/``validate``/``test``/``predict``/``tune`` on a Trainer.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.resolve import resolve
from codemods.plan.rule import Rule
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules.trainer_properties import trainer_kind
from legacy_api.hooks import LEGACY_RELEASES, parse_signature
from legacy_api.keywords import FORWARDED, RENAMED, signature_keywords
from legacy_api.renames import PL
from legacy_api.surface import surface

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "removed_keywords"
_METHODS = frozenset({"fit", "validate", "test", "predict", "tune"})
_TRAINER = f"{PL}.trainer.trainer.Trainer"


def _owner(ctx: FileContext, call: cst.Call) -> tuple[str, str, str] | None:
    """(the name a message uses, the recorded path whose signature counts, the legacy path) of the callee."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _METHODS and trainer_kind(ctx, func.value) is True:
        path = f"{PL}.Trainer.{func.attr.value}"
        return f"Trainer.{func.attr.value}", path, path
    name = ctx.qualified_name(func)
    if name is None or name.split(".", 1)[0] != PL:
        return None
    found = resolve(name, ctx.target)
    if found is not None and found.new is None:
        return None  # removed: its own rule reports it
    final = found.new if found is not None and found.new is not None else name
    if ctx.surface.resolve(final) == _TRAINER or final.split(".", 1)[0] != PL:
        return None
    return final.rpartition(".")[2], f"{final}.__init__", f"{name}.__init__"


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
    taken = signature_keywords(ctx.surface.signature(path))
    if taken is None:
        return updated
    names, forwards = taken
    given = {arg.keyword.value for arg in updated.args if arg.keyword is not None}  # after the rules before this one
    release = ctx.surface.release
    renamed: dict[str, str] = {}
    problems: list[str] = []
    legacy = _legacy_keywords(legacy_path) | _legacy_keywords(path)
    for keyword in sorted(given - names):
        key = short if short.startswith("Trainer.") else path.removesuffix(".__init__")
        new = RENAMED.get((key, keyword))
        if new is not None and new in names and new not in given:
            renamed[keyword] = new
        elif not forwards:
            problems.append(f"{short} takes no {keyword}= in Lightning {release}")
        elif keyword in legacy or (short, keyword) in FORWARDED:
            hint = FORWARDED.get((short, keyword), "it was the class's own argument in 1.x")
            problems.append(f"{short} passes {keyword}= on through **kwargs in Lightning {release}: {hint}")
    if problems:
        ctx.todo(ID, "; ".join(problems), original)
    if not renamed:
        return updated
    for old, new in renamed.items():
        ctx.fix(ID, f"{short}({old}=) -> {short}({new}=)", original)
    args = [
        arg.with_changes(keyword=cst.Name(renamed[arg.keyword.value]))
        if arg.keyword is not None and arg.keyword.value in renamed
        else arg
        for arg in updated.args
    ]
    return updated.with_changes(args=args)


@functools.cache
def _visit() -> re.Pattern[str]:
    """A Trainer method's line names nothing of Lightning (``trainer.fit(model, train_dataloader=dl)``)."""
    return re.compile(r"\.(?:" + "|".join(sorted(_METHODS)) + r")\s*\(")


RULE = Rule(
    id=ID,
    description="a keyword a Lightning class or Trainer method no longer takes is renamed (fit(train_dataloader=) "
    "-> train_dataloaders=) or flagged",
    deprecated_in="1.4",
    handlers={"Call": leave_call},
    order=920,
    tokens=SURFACE_TOKENS[:1],
    visit=_visit,
)
