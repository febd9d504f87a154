"""Python front end of the Trainer-flag rules: calls, dicts that feed a Trainer and ``d["gpus"] = n`` stores.

Reads each keyword into a :class:`~codemods.plan.model.Value` (from the original node, where qualified names are
known), runs the enabled flag rules over the :class:`~codemods.plan.model.Plan`, and rebuilds only what changed,
reusing the untouched arguments (and their commas and comments) as they were.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python import fit_moves
from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import Plan, Value
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

from codemods.frontends.python.dict_uses import (
    _dict_facts,
    _hold,
)
from codemods.frontends.python.qualnames import TRAINERS
from codemods.frontends.python.values import (
    _EQUAL,
    _list_comments,
    _literal_node,
    _quote,
    read,
    render,
)

_NOTE_KEY = re.compile(r"([A-Za-z_]\w*)=")


def run_plan(
    ctx: FileContext,
    plan: Plan,
    anchor: cst.CSTNode,
    lines: dict[str, tuple[cst.CSTNode, bool]] | None = None,
    inline: dict[str, list[str]] | None = None,
    quote: str = '"',
) -> bool:
    """Run the enabled flag rules; report their notes on ``anchor``. True when the flags changed.

    ``lines``: the original keyword arguments, by keyword, and whether each begins a line of its own. A TODO
    about one of them (its message starts with ``key=``) goes right above that argument, inside the call: it
    is collected in ``inline`` (original key -> comment texts) and reported on the argument's line, instead of
    above the statement.
    """
    changed = settle_plan(ctx, plan, quote)
    report_notes(ctx, plan, anchor, lines, inline)
    return changed


def settle_plan(ctx: FileContext, plan: Plan, quote: str = '"') -> bool:
    """Run the enabled flag rules (and again over their result, :func:`_settle`); True when the flags changed.
    The notes stay in ``plan.notes`` (:func:`report_notes` reports them)."""
    steps = run_flag_rules
    # The values themselves, not their ids: a value a rule replaced is freed, and its id may be reused.
    before = list(plan.items)
    snapshot = [(v, list(v.items)) for _, v in plan.items if v.items is not None]
    steps(plan)
    if not plan.stopped and (_changed(before, snapshot, plan) or plan.notes):
        _settle(ctx, plan, steps, quote)
    return _changed(before, snapshot, plan)


def report_notes(
    ctx: FileContext,
    plan: Plan,
    anchor: cst.CSTNode,
    lines: dict[str, tuple[cst.CSTNode, bool]] | None = None,
    inline: dict[str, list[str]] | None = None,
) -> None:
    """Report the plan's notes on ``anchor`` (a TODO about one argument on that argument, see :func:`run_plan`)."""
    from codemods.model import todo_comment

    for note in plan.notes:
        match = _NOTE_KEY.match(note.message)
        home = None
        if note.kind == "todo" and lines and match:
            # above the first line of the call that the TODO names (gpus= may come before the accelerator= it
            # waits on)
            homes = [_home(plan, lines, key) for key in (match.group(1), *note.about)]
            order = list(lines)
            home = min((h for h in homes if h is not None), key=order.index, default=None)
        if home is not None and inline is not None:
            ctx.todo_here(note.rule, note.message, lines[home][0])  # type: ignore[index]
            text = todo_comment(note.message, note.rule)
            if text not in inline.setdefault(home, []):
                inline[home].append(text)
            continue
        # A TODO about one argument is reported on that argument's line (its comment goes above the statement).
        about = match.group(1) if note.kind == "todo" and lines and match else None
        where = lines[about][0] if lines and about in lines else anchor
        {"todo": ctx.todo, "report": ctx.report}.get(note.kind, ctx.fix)(note.rule, note.message, where)


def _home(plan: Plan, lines: dict[str, tuple[cst.CSTNode, bool]], key: str) -> str | None:
    """The original argument whose line a TODO about ``key`` goes above: ``key`` itself, or the first original
    that ``key`` took the place of (``accelerator=b`` from ``distributed_backend=b``); None when that argument
    does not begin a line of its own (the TODO then goes above the statement)."""
    present = {name for name, _ in plan.items}
    if key in lines:
        home: str | None = key
    else:
        home = next((k for k in lines if _final_key(plan.successor, k, present, set(lines)) == key), None)
    return home if home is not None and lines[home][1] else None


def _changed(before: list[tuple[str, Value]], snapshot: list[tuple[Value, list[Value]]], plan: Plan) -> bool:
    after = plan.items
    same = len(before) == len(after) and all(k == j and v is w for (k, v), (j, w) in zip(before, after, strict=False))
    current = {id(v) for _, v in after}
    return not same or any(id(v) in current and items != v.items for v, items in snapshot)


def _settle(ctx: FileContext, plan: Plan, steps: Any, quote: str, rounds: int = 3) -> None:
    """Run the rules again over their own result, as a second run of migrate-trainer would, until nothing
    more happens: then a second run finds nothing to do (no rewrite, no new TODO about the rewritten flags).

    The values are quoted as they will be written (a TODO quoting ``strategy=...`` quotes the rewritten
    value); a TODO the later pass words differently replaces the earlier one of its rule.
    """
    seen = {(note.rule, note.message) for note in plan.notes}
    for _ in range(rounds):
        items = [
            (key, replace(value, source=ctx.code(render(ctx, plan, value, quote)).strip())) for key, value in plan.items
        ]
        again = Plan(
            items,
            plan.target,
            plan.root,
            plan.enabled,
            opaque_rest=plan.opaque_rest,
            origin={key: "explicit" for key, _ in plan.items},
            interactive=plan.interactive,
            untuned=plan.untuned,
        )
        before = list(again.items)
        snapshot = [(v, list(v.items)) for _, v in again.items if v.items is not None]
        steps(again)
        fresh = [note for note in again.notes if (note.rule, note.message) not in seen]
        moved = _changed(before, snapshot, again)
        if not fresh and not moved:
            return
        for note in fresh:
            earlier = next(
                (i for i, old in enumerate(plan.notes) if old.kind == note.kind == "todo" and old.rule == note.rule),
                None,
            )
            if earlier is not None and not any(n.rule == note.rule and n is not note for n in fresh):
                plan.notes[earlier] = note  # the same TODO, quoting the code as it now reads
            else:
                plan.notes.append(note)
        seen.update((note.rule, note.message) for note in fresh)
        if moved:
            plan.items = [(key, value) for key, value in again.items]
            for key, successor in again.successor.items():
                plan.successor.setdefault(key, successor)
        plan.stopped = plan.stopped or again.stopped
        if not moved:
            return


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


def _args_plan(ctx: FileContext, root: str, original: cst.Call, updated: cst.Call, opaque: bool) -> Plan:
    items = [
        (o.keyword.value, read(ctx, o.value, u.value))
        for o, u in zip(original.args, updated.args, strict=True)
        if o.keyword is not None
    ]
    opaque = opaque or any(a.star for a in original.args)
    origin = {k: "explicit" for k, _ in items}
    interactive = ctx.options.interactive
    return Plan(
        items, ctx.target, root, ctx.enabled, opaque, origin=origin, interactive=interactive, untuned=ctx.untuned
    )


def _rebuild_args(
    ctx: FileContext, plan: Plan, updated: cst.Call, inline: dict[str, list[str]] | None = None
) -> cst.Call:
    """The call with the plan's flags; untouched arguments keep their formatting, every comment stays once.
    ``inline``: TODO comments to put right above the argument (of that original keyword) they concern."""
    originals = list(updated.args)
    equal = next((a.equal for a in originals if a.keyword is not None), _EQUAL)

    def new(key: str, rendered: cst.BaseExpression, old: Any) -> cst.Arg:
        return cst.Arg(rendered, keyword=cst.Name(key), equal=old.equal if old is not None else equal)

    keys = [a.keyword.value if a.keyword is not None else None for a in originals]
    stars = [bool(a.star) for a in originals]
    opening = updated.whitespace_before_args
    args, opening = _relayout(ctx, plan, originals, keys, stars, opening, new, _quote(updated), inline or {})
    return updated.with_changes(args=args, whitespace_before_args=opening)


def _relayout(
    ctx: FileContext,
    plan: Plan,
    originals: list[Any],
    keys: list[str | None],
    stars: list[bool],
    opening: Any,
    new: Any,
    quote: str,
    inline: dict[str, list[str]] | None = None,
) -> tuple[list[Any], Any]:
    """The plan's items as elements (``Arg``/``DictElement``) laid out by ``codemods.frontends.python.layout``: an
    original element whose value did not change is reused, a new one inherits the comments of the originals it
    replaces (``Plan.successor``), and the comments of the dropped ones go to the element after them."""
    from codemods.frontends.python import layout as pylayout

    layout = pylayout.Layout(originals, opening)
    lead, trail = pylayout.comments(originals)
    index = {key: i for i, key in enumerate(keys) if key is not None}
    present = {key for key, _ in plan.items}
    final = {key: _final_key(plan.successor, key, present, set(index)) for key in index}
    slots: list[pylayout.Slot] = []

    def own(i: int) -> pylayout.Slot:
        return pylayout.Slot(originals[i], i, float(i), list(lead[i]), trail[i], own=True, sources=[i])

    slots.extend(own(i) for i, key in enumerate(keys) if key is None and not stars[i])
    used: set[int] = set()
    listed = _list_comments(originals, layout)
    moved = frozenset(id(v.node) for _, v in plan.items if v.node is not None and id(v.node) in listed)
    for key, value in plan.items:
        rendered = render(ctx, plan, value, quote, moved)
        sources = sorted(i for k, i in index.items() if final[k] == key)
        at = index.get(key)
        if at is not None and at in sources and originals[at].value is rendered:
            slot = own(at)
            sources = [at, *(i for i in sources if i != at)]
        else:
            anchor = float(sources[0]) if sources else (slots[-1].anchor + 0.001 if slots else -1.0)
            slot = pylayout.Slot(new(key, rendered, originals[at] if at is not None else None), None, anchor)
            if sources:
                slot.lead, slot.trail = list(lead[sources[0]]), trail[sources[0]]
        for extra in sources[1:]:
            slot.lead = [*slot.lead, *pylayout.orphaned(layout, lead[extra], trail[extra])]
            slot.own = False
        if id(rendered) in moved:  # ``strategy=DDPPlugin()`` out of ``plugins=[DDPPlugin(),  # why]``
            item_lead, item_trail = listed[id(rendered)]
            slot.lead = [*slot.lead, *(_reindent(line, layout) for line in item_lead)]
            if slot.trail is None:
                slot.trail = item_trail
            else:
                slot.lead = [*slot.lead, *layout.own_line(item_trail)]
            slot.own = False
        used.update(sources)
        slot.sources = sources
        slots.append(slot)
    slots.extend(own(i) for i in range(len(originals)) if stars[i])
    orphans = [
        (i, pylayout.orphaned(layout, lead[i], trail[i]))
        for i, key in enumerate(keys)
        if key is not None and i not in used
    ]
    for key, texts in (inline or {}).items():
        at = index.get(key)
        heir = next((slot for slot in slots if at in slot.sources), None)
        if heir is not None:
            heir.add_lines(texts, layout)
        elif at is not None:  # the argument went away: the TODO goes above whatever follows it
            orphans.append((at, [layout.comment_line(text) for text in texts]))
    tail = pylayout.adopt(slots, orphans)
    return pylayout.assemble(originals, slots, opening, layout, tail)


def _reindent(line: cst.EmptyLine, layout: Any) -> cst.EmptyLine:
    """A comment line from inside a nested list, at the indentation of the call's arguments."""
    template = layout.template
    return line.with_changes(whitespace=template.last_line) if template is not None else line


def _final_key(successor: dict[str, str | None], key: str, present: set[str], originals: set[str]) -> str | None:
    """The key of the plan that stands where the original ``key`` stood, None when it went away.

    ``successor`` is followed through keys the rules created, and only forward in the order the rules wrote
    it: an original key's own entry is about that original argument, and an older entry about a key name that
    was reused later is about the older key (``distributed_backend`` -> ``accelerator`` -> ``strategy``, then
    ``gpus`` -> a new ``accelerator``).
    """
    order = {name: position for position, name in enumerate(successor)}
    if key not in successor:
        return key if key in present else None
    current, step = successor[key], order[key]
    while current is not None and current not in originals and order.get(current, -1) > step:
        step = order[current]
        current = successor[current]
    return current if current in present else None


#: Roots whose ``LightningCLI`` takes ``trainer_defaults=`` (1.5: ``pytorch_lightning.utilities.cli``).
_CLI_ROOTS = frozenset({PL, "lightning"})


def _lightning_cli(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``LightningCLI(Model, trainer_defaults={"gpus": 2, "plugins": [MyDDP()]})``: the dict's flags, like a call's
    (rule ``trainer_defaults``)."""
    name = ctx.qualified_name(original.func)
    if name is None or name.rpartition(".")[2] != "LightningCLI" or name.split(".", 1)[0] not in _CLI_ROOTS:
        return updated
    args = list(updated.args)
    for index, (old, new_arg) in enumerate(zip(original.args, updated.args, strict=True)):
        if old.keyword is not None and old.keyword.value == "trainer_defaults":
            value = _dict_plan(ctx, old.value, new_arg.value)
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
            args[index] = args[index].with_changes(value=_dict_plan(ctx, arg.value, args[index].value))
            continue
        ctx.report(
            "device_flags",
            f"flags passed through **{ctx.code(arg.value)} are not visible here: migrate their source "
            "(migrate-trainer also rewrites YAML configs)",
            arg,
        )
    if any(new is not old for new, old in zip(args, updated.args, strict=True)):
        updated = updated.with_changes(args=args)
    plan = _args_plan(ctx, root, original, updated, argparse)
    fit_moves.offer(ctx, plan)
    lines = _own_lines(original)
    inline: dict[str, list[str]] = {}
    if not run_plan(ctx, plan, original, lines, inline, _quote(updated)):
        return _with_inline_todos(updated, inline) if inline else updated
    rebuilt = _rebuild_args(ctx, plan, updated, inline)
    fit_moves.hand_over(ctx, plan, updated, rebuilt)
    return rebuilt


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


def _dict_plan(
    ctx: FileContext, original: cst.BaseExpression, updated: cst.BaseExpression, name: str | None = None
) -> Any:
    """``dict(gpus=2)`` / ``{"gpus": 2}`` assigned to a name that is splatted into a Trainer (``name``: then a key
    the scope also uses otherwise, ``"gpus" in params``, holds the literal back, :func:`_literal_held`)."""

    def migrated(plan: Plan, before: list[tuple[str, Value]]) -> bool:
        if not settle_plan(ctx, plan):
            report_notes(ctx, plan, original)
            return False
        if name is not None and _literal_held(ctx, plan, original, name, before):
            return False
        report_notes(ctx, plan, original)
        return True

    if isinstance(original, cst.Call) and isinstance(updated, cst.Call):
        if not (isinstance(original.func, cst.Name) and original.func.value == "dict") or any(
            a.keyword is None for a in original.args
        ):
            return updated
        plan = _args_plan(ctx, PL, original, updated, True)
        return _rebuild_args(ctx, plan, updated) if migrated(plan, list(plan.items)) else updated
    if isinstance(original, cst.Dict) and isinstance(updated, cst.Dict):
        pairs = list(zip(original.elements, updated.elements, strict=True))
        if not all(isinstance(o, cst.DictElement) and isinstance(o.key, cst.SimpleString) for o, _ in pairs):
            return updated
        items = [(str(_key(o)), read(ctx, o.value, u.value)) for o, u in pairs]
        origin = {k: "explicit" for k, _ in items}
        plan = Plan(items, ctx.target, PL, ctx.enabled, opaque_rest=True, origin=origin, untuned=ctx.untuned)
        if not migrated(plan, list(plan.items)):
            return updated
        quote = _quote(updated)

        def new(key: str, rendered: cst.BaseExpression, old: Any) -> cst.DictElement:
            element = cst.DictElement(_literal_node(key, quote), rendered)
            return element if old is None else element.with_changes(whitespace_after_colon=old.whitespace_after_colon)

        originals = list(updated.elements)
        keys: list[str | None] = [str(_key(o)) for o, _ in pairs]
        opening = updated.lbrace.whitespace_after
        elements, opening = _relayout(ctx, plan, originals, keys, [False] * len(keys), opening, new, quote)
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
        return updated.with_changes(value=_dict_plan(ctx, original.value, updated.value, name))
    return updated
