"""Python front end of the Trainer-flag rules: calls, dicts that feed a Trainer and ``d["gpus"] = n`` stores.

Reads each keyword into a :class:`~codemods.plan.model.Value` (from the original node, where qualified names are
known), runs the enabled flag rules over the :class:`~codemods.plan.model.Plan`, and rebuilds only what changed,
reusing the untouched arguments (and their commas and comments) as they were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python import fit_moves
from codemods.frontends.python.flag_plans import report_notes, settle_plan
from codemods.frontends.python.rebuild import rebuild_args, relayout
from codemods.plan.model import Plan, Value
from codemods.project.schema_plans import migrated_schema, schema_facts
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

from codemods.frontends.python.dict_uses import _dict_facts, _hold
from codemods.frontends.python.qualnames import TRAINERS
from codemods.frontends.python.values import _literal_node, _quote, read


# --- carriers ------------------------------------------------------------------------------------------------
def _trainer_root(ctx: FileContext, func: cst.BaseExpression) -> tuple[str, bool] | None:
    target, argparse = func, False
    if isinstance(func, cst.Attribute) and func.attr.value == "from_argparse_args":
        target, argparse = func.value, True
    name = ctx.qualified_name(target)
    if name in TRAINERS:
        return TRAINERS[name], argparse
    if ctx.trainer_class(target) is not None:  # flash.Trainer, a project subclass: Lightning's flags
        return PL, argparse
    if _super_init_of_a_trainer(ctx, func):
        return PL, False
    return None


def _super_init_of_a_trainer(ctx: FileContext, func: cst.BaseExpression) -> bool:
    """``super().__init__`` in a method of ``class T(pl.Trainer)``: Lightning's own ``Trainer.__init__`` (the first
    base; a mixin before it would take the call), so its flags are a Trainer's, whatever ``T`` takes itself."""
    if not (
        isinstance(func, cst.Attribute)
        and func.attr.value == "__init__"
        and isinstance(func.value, cst.Call)
        and isinstance(func.value.func, cst.Name)
        and func.value.func.value == "super"
    ):
        return False
    owner = next((s for s in reversed(ctx.statements) if isinstance(s, cst.ClassDef)), None)
    if owner is None or not owner.bases:
        return False
    return TRAINERS.get(ctx.qualified_name(owner.bases[0].value) or "") == PL


def _class_default(ctx: FileContext) -> bool:
    """Whether the call being left is in a class body (``trainer: TrainerConfig = TrainerConfig(accelerator="ddp")``
    in a dataclass): a default that configs built on the class are merged over, so the flags it does not name are
    not known there (the devices a YAML config sets decide what ``ddp`` did)."""
    owner = next((s for s in reversed(ctx.statements) if isinstance(s, cst.ClassDef | cst.FunctionDef)), None)
    return isinstance(owner, cst.ClassDef)


def _args_plan(ctx: FileContext, root: str, original: cst.Call, updated: cst.Call, opaque: bool) -> Plan:
    items = [
        (o.keyword.value, read(ctx, o.value, u.value))
        for o, u in zip(original.args, updated.args, strict=True)
        if o.keyword is not None
    ]
    opaque = opaque or any(a.star for a in original.args)
    origin = {k: "explicit" for k, _ in items}
    interactive = ctx.options.interactive
    plan = Plan(
        items, ctx.target, root, ctx.enabled, opaque, origin=origin, interactive=interactive, untuned=ctx.untuned
    )
    plan.test_suite = ctx.options.test_suite
    return plan


#: Roots whose ``LightningCLI`` takes ``trainer_defaults=`` (1.5: ``pytorch_lightning.utilities.cli``).
_CLI_ROOTS = frozenset({PL, "lightning"})


def _lightning_cli(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``LightningCLI(Model, trainer_defaults={"gpus": 2, "plugins": [MyDDP()]})``: the dict's flags, like a call's
    (rule ``trainer_defaults``)."""
    name = ctx.qualified_name(original.func)
    if name is None or name.rpartition(".")[2] != "LightningCLI" or name.split(".", 1)[0] not in _CLI_ROOTS:
        return updated
    # paired by keyword: a rule before this one may have folded keywords of the call (save_config_kwargs=)
    old = next(
        (arg for arg in original.args if arg.keyword is not None and arg.keyword.value == "trainer_defaults"), None
    )
    args = list(updated.args)
    for index, new_arg in enumerate(updated.args):
        if old is not None and new_arg.keyword is not None and new_arg.keyword.value == "trainer_defaults":
            value = dict_plan(ctx, old.value, new_arg.value)
            if value is not new_arg.value:
                args[index] = new_arg.with_changes(value=value)
    changed = any(new_arg is not old_arg for new_arg, old_arg in zip(args, updated.args, strict=True))
    return updated.with_changes(args=args) if changed else updated


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    if ctx.fit_arguments:
        updated = fit_moves.receive(ctx, original, updated)
    found = _trainer_root(ctx, original.func)
    if found is None:
        return _lightning_cli(ctx, original, updated) if ctx.enabled("trainer_defaults") else updated
    root, argparse = found
    args = list(updated.args)
    for index, arg in enumerate(original.args):
        if arg.star != "**" or isinstance(arg.value, cst.Name):
            continue
        if _inline_dict(arg.value):  # Trainer(**dict(gpus=2)) / Trainer(**{"gpus": 2}): its keys are flags
            args[index] = args[index].with_changes(value=dict_plan(ctx, arg.value, args[index].value))
            continue
        ctx.report(
            "device_flags",
            f"flags passed through **{ctx.code(arg.value)} are not visible here: migrate their source "
            "(migrate-trainer also rewrites YAML configs)",
            arg,
        )
    if any(new is not old for new, old in zip(args, updated.args, strict=True)):
        updated = updated.with_changes(args=args)
    plan = _args_plan(ctx, root, original, updated, argparse or _class_default(ctx))
    plan.lightning_trainer = not argparse and ctx.qualified_name(original.func) in TRAINERS and root == PL
    fit_moves.offer(ctx, plan)
    lines = _own_lines(original)
    inline: dict[str, list[str]] = {}
    if not settle_plan(ctx, plan, _quote(updated)):
        report_notes(ctx, plan, original, lines, inline)
        return _with_inline_todos(updated, inline) if inline else updated
    clash = _schema_clash(ctx, plan, original)
    if clash is not None:
        return updated  # written as it was, with the one TODO that says why
    report_notes(ctx, plan, original, lines, inline)
    rebuilt = rebuild_args(ctx, plan, updated, inline)
    fit_moves.hand_over(ctx, plan, updated, rebuilt)
    return rebuilt


def _schema_clash(ctx: FileContext, plan: Plan, original: cst.Call) -> str | None:
    """A flag the rules would add next to a ``**mapping`` that a Trainer-mirroring schema of the project also has as a
    field (``Trainer(strategy="ddp", **asdict(cfg))`` with ``TrainerConfig.strategy``): Python would get the keyword
    twice, a TypeError on every run. Then the call stays, with one TODO; the flag it names."""
    if not any(arg.star == "**" for arg in original.args):
        return None
    given = {arg.keyword.value for arg in original.args if arg.keyword is not None}
    if ctx.options.config_strategy and "strategy" not in given and "strategy" in plan:
        rule = plan.origin.get("strategy", "device_flags")
        ctx.todo(
            rule if rule != "explicit" else "device_flags",
            "strategy= would be passed twice: the rewrite adds it next to the ** mapping, whose config sets a "
            "strategy once migrated; keep one (1.5 ran the one this call passes)",
            original,
        )
        return "strategy"
    if ctx.options.schema_free:
        return None  # (a file that loads its YAML configs by name meets no schema)
    project = ctx.options.project
    # the classes as this run leaves them (a migrated one gains accelerator/devices/strategy), so that a second
    # run finds what the first found
    schemas = [migrated_schema(schema, ctx.target, schema_facts(project)) for schema in getattr(project, "schemas", ())]
    fields = {name for schema in schemas for name, _ in schema.fields}
    added = sorted(key for key, _ in plan.items if key not in given and key in fields)
    if not added:
        return None
    key = added[0]
    schema = next(s for s in schemas if any(name == key for name, _ in s.fields))
    rule = plan.origin.get(key, "device_flags")
    ctx.todo(
        rule if rule != "explicit" else "device_flags",
        f"{key}= would be passed twice: the rewrite adds it next to the ** mapping, which may hold {schema.name}'s "
        f"{key} field ({project.where(schema.path)}); migrate the flags of this call and that mapping together",
        original,
    )
    return key


def _own_lines(call: cst.Call) -> dict[str, tuple[cst.CSTNode, bool]]:
    """The keyword arguments of ``call`` by keyword, each with whether it begins a line of its own."""
    from codemods.frontends.python import layout as pylayout

    args = list(call.args)
    return {
        arg.keyword.value: (arg, pylayout.starts_line(args, call.whitespace_before_args, index))
        for index, arg in enumerate(args)
        if arg.keyword is not None
    }


def _with_inline_todos(updated: cst.Call, inline: dict[str, list[str]]) -> cst.Call:
    """The call as it is, with TODO comments right above the arguments they concern."""
    from codemods.frontends.python import layout as pylayout

    args, opening = list(updated.args), updated.whitespace_before_args
    for key, texts in inline.items():
        index = next(i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == key)
        args, opening = pylayout.insert_lines(args, opening, index, texts)
    if opening is updated.whitespace_before_args and all(a is b for a, b in zip(args, updated.args, strict=True)):
        return updated
    return updated.with_changes(args=args, whitespace_before_args=opening)


def _inline_dict(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Name) and node.func.value == "dict" and all(a.keyword for a in node.args)
    return isinstance(node, cst.Dict) and all(
        isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) for e in node.elements
    )


def dict_plan(
    ctx: FileContext,
    original: cst.BaseExpression,
    updated: cst.BaseExpression,
    name: str | None = None,
    complete: bool = False,
    merged: bool = False,
) -> Any:
    """``dict(gpus=2)`` / ``{"gpus": 2}`` assigned to a name that is splatted into a Trainer (``name``: then a key
    the scope also uses otherwise, ``"gpus" in params``, holds the literal back, :func:`_literal_held`).
    ``complete``: the dict holds every flag of its Trainer (a config's section, as a YAML file's is read);
    ``merged``: it overrides another config's section, so a key the rules would only drop stays, with a TODO
    (without it the other config's value would apply)."""

    def migrated(plan: Plan, before: list[tuple[str, Value]]) -> bool:
        if not settle_plan(ctx, plan):
            report_notes(ctx, plan, original)
            return False
        if name is not None and _literal_held(ctx, plan, original, name, before):
            return False
        if merged and len(plan.items) < len(before):
            rule = next((note.rule for note in plan.notes if note.kind != "report"), "device_flags")
            held = ", ".join(f"{key}={value.text}" for key, value in before if key not in plan)
            _hold(
                ctx,
                plan,
                original,
                rule,
                f"{held}: the rules drop it, and this override is merged over a config whose value would then apply; "
                "migrate them together by hand",
            )
            return False
        report_notes(ctx, plan, original)
        return True

    if isinstance(original, cst.Call) and isinstance(updated, cst.Call):
        if not (isinstance(original.func, cst.Name) and original.func.value == "dict") or any(
            a.keyword is None for a in original.args
        ):
            return updated
        plan = _args_plan(ctx, PL, original, updated, True)
        return rebuild_args(ctx, plan, updated) if migrated(plan, list(plan.items)) else updated
    if isinstance(original, cst.Dict) and isinstance(updated, cst.Dict):
        pairs = list(zip(original.elements, updated.elements, strict=True))
        if not all(isinstance(o, cst.DictElement) and isinstance(o.key, cst.SimpleString) for o, _ in pairs):
            return updated
        items = [(str(_key(o)), read(ctx, o.value, u.value)) for o, u in pairs]
        origin = {k: "explicit" for k, _ in items}
        plan = Plan(items, ctx.target, PL, ctx.enabled, opaque_rest=not complete, origin=origin, untuned=ctx.untuned)
        if not migrated(plan, list(plan.items)):
            return updated
        quote = _quote(updated)

        def new(key: str, rendered: cst.BaseExpression, old: Any) -> cst.DictElement:
            element = cst.DictElement(_literal_node(key, quote), rendered)
            return element if old is None else element.with_changes(whitespace_after_colon=old.whitespace_after_colon)

        originals = list(updated.elements)
        keys: list[str | None] = [str(_key(o)) for o, _ in pairs]
        opening = updated.lbrace.whitespace_after
        elements, opening = relayout(ctx, plan, originals, keys, [False] * len(keys), opening, new, quote)
        return updated.with_changes(elements=elements, lbrace=updated.lbrace.with_changes(whitespace_after=opening))
    return updated


def _literal_held(
    ctx: FileContext, plan: Plan, original: cst.CSTNode, name: str, before: list[tuple[str, Value]]
) -> bool:
    """Whether the literal ``name = {...}`` stays as it is, with one TODO, because a key the plan changes is also
    read, deleted or tested in the scope (``"gpus" in params``): a key migrates with all its uses, or not at all."""
    facts = _dict_facts(ctx, name)
    changed = [key for key, value in before if plan.get(key) is not value]
    blocking = {key: facts.others(key) for key in changed if facts.others(key)}
    if not blocking:
        return False
    rule = next((note.rule for note in plan.notes if note.kind == "fix"), plan.notes[0].rule if plan.notes else "")
    keys = ", ".join(f"{key}={value.text}" for key, value in before if key in blocking)
    uses = ", ".join(use for found in blocking.values() for use in found)
    verb = "uses" if sum(len(found) for found in blocking.values()) == 1 else "use"
    _hold(
        ctx,
        plan,
        original,
        rule,
        f"{keys} is left as it is: {uses} {verb} the same key of {name}; migrate them together",
    )
    return True


def _key(element: cst.BaseDictElement) -> object:
    assert isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)
    return element.key.evaluated_value


def leave_assign(ctx: FileContext, original: cst.Assign, updated: cst.Assign) -> Any:
    if len(original.targets) != 1 or not isinstance(original.targets[0].target, cst.Name):
        return updated
    name = original.targets[0].target.value
    if isinstance(original.value, cst.Call) and _trainer_root(ctx, original.value.func) is not None:
        ctx.trainer_vars.add(name)
    if name in ctx.trainer_dicts:
        return updated.with_changes(value=dict_plan(ctx, original.value, updated.value, name))
    return updated
