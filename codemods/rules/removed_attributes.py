"""An attribute of the Trainer, a strategy, an accelerator, a precision plugin or a Trainer connector that 1.x had and
the target release lacks: one TODO on its line, naming what replaced it, never silence.

``trainer.progress_bar_dict``, ``trainer.checkpoint_connector``, ``trainer.training_type_plugin.on_gpu`` and
``trainer.accelerator.root_device`` run on 1.5 and raise AttributeError on 2.x when the line runs, which may be at the
first checkpoint of a long job. Rule ``trainer_properties`` rewrites ``trainer.training_type_plugin`` to
``trainer.strategy``, exactly; what is read from it then must exist on the target's strategies too, and
``should_rank_save_checkpoint`` or ``on_gpu`` do not. The rule reads the original code (rewrites by other rules do not
change what it sees), so a TODO's words are the same on every run.

Which attributes each kind of object has comes from the recorded surfaces and the runtime facts of
``legacy_api.attributes``; what the object is, from the code (``codemods.rules._attribute_receivers``): a Trainer as
rule ``trainer_properties`` proves one, what it holds, a parameter annotated with a Lightning class, an instance of one,
``self`` in a subclass (except for the names the subclass defines itself), and local variables assigned from those. Left
to the other rules: the Trainer properties of rule ``trainer_properties``' table (``trainer.num_gpus``,
``trainer._accelerator_connector.use_ddp``) and the argparse helpers of rule ``argparse_flags``. Never a rewrite:
a store (``trainer.x = 1``) is not flagged, and an attribute read from an object whose own read has the TODO is not
flagged twice.
"""

from __future__ import annotations

import ast
import functools
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.project.prefilter import alternation
from codemods.rules._attribute_receivers import defined_in_class, kind_of, names_defined
from codemods.rules._trainer_kind import enclosing_class
from codemods.rules.argparse_flags import REMOVED_HELPERS
from legacy_api.attributes import KINDS, gone, instead, removed_in
from legacy_api.renames import TRAINER_PROPERTIES, TrainerProperty
from legacy_api.vocabulary import attributes as vocabulary

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext, Site

ID = "removed_attributes"
#: Rule ``trainer_properties``' table: ``trainer.<old>`` and ``trainer.<holder>.<old>`` (its own TODOs and rewrites).
_OWNED = {prop.old: prop for prop in TRAINER_PROPERTIES}
#: The Trainer attribute through which the table's nested rows read each kind (``_accelerator_connector.use_ddp``).
_HOLDERS = {"accelerator_connector": "_accelerator_connector", "accelerator": "accelerator"}


@functools.cache
def _visit() -> re.Pattern[str]:
    return re.compile(r"\.\s*" + alternation(vocabulary()) + r"\b")


def _owned(ctx: FileContext, node: cst.Attribute, kind: str) -> bool:
    """Whether rule ``trainer_properties`` (or ``argparse_flags``) answers for this read."""
    attr = node.attr.value
    if kind == "trainer":
        return attr in _OWNED or attr in REMOVED_HELPERS
    holder = node.value
    if isinstance(holder, cst.Attribute) and f"{holder.attr.value}.{attr}" in _OWNED:
        return kind_of(ctx, holder.value) == "trainer"
    return False


def _table_row(kind: str, attr: str) -> TrainerProperty | None:
    """The table's row for a read through a variable (``conn.num_gpus``): its words name the replacement."""
    holder = _HOLDERS.get(kind)
    return _OWNED.get(f"{holder}.{attr}") if holder else None


def _store(ctx: FileContext, node: cst.Attribute) -> bool:
    """``trainer.x = 1``: the target of an assignment (reading nothing)."""
    line = ctx.statements[-1] if ctx.statements else None
    if not isinstance(line, cst.SimpleStatementLine):
        return False
    for small in line.body:
        if isinstance(small, cst.Assign) and any(target.target is node for target in small.targets):
            return True
        if isinstance(small, cst.AnnAssign) and small.target is node:
            return True
    return False


def _missing(ctx: FileContext, node: cst.Attribute) -> str | None:
    """The kind of ``node``'s receiver when ``node`` reads an attribute of it the target lacks and no other rule
    reports it; else None."""
    attr = node.attr.value
    if attr.startswith("__") or attr not in vocabulary():
        return None
    kind = kind_of(ctx, node.value)
    if kind is None or _owned(ctx, node, kind) or not gone(ctx.surface.release, kind, attr):
        return None
    if isinstance(node.value, cst.Name) and node.value.value == "self":
        cls = enclosing_class(ctx)
        if cls is not None and attr in defined_in_class(ctx, cls):
            return None  # the user's subclass defines it: theirs, whatever Lightning did
    return kind


def _message(ctx: FileContext, kind: str, attr: str) -> str:
    release = ctx.surface.release
    name = KINDS[kind].name
    head = f"{name}.{attr} is gone {removed_in(release, kind, attr)}"
    row = _table_row(kind, attr)
    if row is not None:
        use = row.replacement() or (f"trainer.{row.new}" if row.new and row.exact else "")
        return f"{head}: {use}" + (f" ({row.note})" if row.note else "") if use else f"{head}: {row.note}"
    use = instead(release, kind, attr)
    return f"{head}: {use}" if use else f"{head}, without a replacement at Lightning {release}"


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    if ctx.in_import or _store(ctx, original) or id(original) in ctx.claimed:
        return updated  # (claimed: another rule rewrites it, ``trainer.tuner.lr_find(...)``)
    kind = _missing(ctx, original)
    if kind is None:
        return updated
    if isinstance(original.value, cst.Attribute) and _missing(ctx, original.value) is not None:
        return updated  # ``trainer.checkpoint_connector.restore``: the holder's TODO says it
    ctx.todo(ID, _message(ctx, kind, original.attr.value), original)
    return updated


def _screen(site: Site) -> bool:
    """Whether an attribute the line reads may name one the target lacks on a Lightning object: not
    ``os.path.join(...)`` nor ``", ".join(...)`` (a receiver no code shows to be one of Lightning's objects, as
    ``_attribute_receivers.kind_of`` would find), nor ``self.gpus`` in a class that defines ``gpus``. Always a removed
    argparse helper: rule ``argparse_flags`` reads ``Data.parse_argparser(args)`` on the lines this pattern marks."""
    names = vocabulary()
    for node in site.nodes():
        if not isinstance(node, ast.Attribute) or node.attr not in names or node.attr.startswith("__"):
            continue
        if node.attr in REMOVED_HELPERS:
            return True
        receiver = node.value
        if isinstance(receiver, ast.Name) and receiver.id == "self":
            cls = site.method_class()
            if cls is None:
                continue  # ``self`` is no object of a class here
            defined = site.ctx.screened.get((ID, id(cls)))
            if defined is None:
                defined = site.ctx.screened[(ID, id(cls))] = names_defined(cls)
            if node.attr in defined:
                continue
        if not _no_kind(site, receiver):
            return True
    return False


def _no_kind(site: Site, node: ast.expr) -> bool:
    """Whether ``kind_of`` provably finds no kind for ``node``: a chain of attributes none of which names a Trainer,
    from a literal, a call of nothing a legacy import names, or a name that is not ``self``, no Trainer's, no
    parameter and never assigned in the module (``os``, bound by ``import os``)."""
    while isinstance(node, ast.Attribute):
        if "trainer" in node.attr.lower():
            return False
        node = node.value
    if isinstance(node, ast.Call):
        return not site.imported_root(node.func)
    if isinstance(node, ast.Name):
        name = node.id
        if name == "self" or "trainer" in name.lower() or name in site.ctx.assigned_names():
            return False
        return not any(name in scope.params for scope in site.scopes)
    return True  # a literal, a subscript...: ``kind_of`` knows no kind of them


RULE = Rule(
    id=ID,
    description="an attribute of the Trainer, a strategy, an accelerator, a precision plugin or a connector that the "
    "target release lacks (recorded from the real releases) is flagged where it is read",
    deprecated_in="1.5",
    handlers={"Attribute": leave_attribute},
    order=900,
    tokens=("Plugin", "Strategy", "Trainer", "accelerator", "precision", "strategy"),
    visit=_visit,
    screen=_screen,
)
