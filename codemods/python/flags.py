"""Python front end of the Trainer-flag rules: calls, dicts that feed a Trainer and ``d["gpus"] = n`` stores.

Reads each keyword into a :class:`~codemods.plan.Value` (from the original node, where qualified names are
known), runs the enabled flag rules over the :class:`~codemods.plan.Plan`, and rebuilds only what changed,
reusing the untouched arguments (and their commas and comments) as they were.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan import UNKNOWN, Plan, Value
from codemods.planning import run_flag_rules
from codemods.python.qualnames import LEGACY, assigned_values
from codemods.resolve import resolve
from codemods.rule import Handler
from legacy_api.renames import COMPAT, NEW_ROOT, PL, STRATEGY_CLASSES

if TYPE_CHECKING:
    from codemods.python.context import FileContext

TRAINERS = {
    f"{PL}.Trainer": PL,
    f"{PL}.trainer.Trainer": PL,
    f"{PL}.trainer.trainer.Trainer": PL,
    f"{COMPAT}.Runner": COMPAT,
    f"{COMPAT}.AcceleratorConnector": COMPAT,
    f"{COMPAT}.Trainer": COMPAT,
}


_LIGHTNING_ROOTS = frozenset({PL, COMPAT, NEW_ROOT[COMPAT]})


# --- reading -----------------------------------------------------------------------------------------------------
def literal(node: cst.BaseExpression) -> Any:
    """The Python value of a literal expression, or ``UNKNOWN``."""
    if isinstance(node, cst.Integer):
        return ast.literal_eval(node.value)
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else UNKNOWN
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal(node.expression)
        return -inner if isinstance(inner, int) and not isinstance(inner, bool) else UNKNOWN
    if isinstance(node, cst.List | cst.Tuple):
        items = [literal(el.value) if isinstance(el, cst.Element) else UNKNOWN for el in node.elements]
        return UNKNOWN if any(item is UNKNOWN for item in items) else items
    return UNKNOWN


def _is_strategy(ctx: FileContext, node: cst.BaseExpression) -> bool:
    target = node.func if isinstance(node, cst.Call) else node
    name = ctx.qualified_name(target)
    if name is not None and name.rpartition(".")[2] in STRATEGY_CLASSES:
        return True  # qualified names only exist under the tracked roots (pytorch_lightning, compat, newcore)
    # A project's own subclass (``plugins=[MyDDPPlugin()]``), found by the runner's project-wide scan.
    last = target.attr if isinstance(target, cst.Attribute) else target if isinstance(target, cst.Name) else None
    return last is not None and last.value in ctx.options.local_strategies


#: Precision plugins whose class fixes the precision; the others take it as their first argument.
_FIXED_PRECISION = {
    "PrecisionPlugin": 32,
    "DoublePrecisionPlugin": 64,
    "ApexMixedPrecisionPlugin": 16,
    "TPUPrecisionPlugin": 32,
    "TPUBf16PrecisionPlugin": "bf16",
    "TPUHalfPrecisionPlugin": "bf16",
}


def _plugin_precision(ctx: FileContext, node: cst.BaseExpression) -> Any:
    """The precision a Lightning precision plugin object trains in; None when ``node`` is not one."""
    name = ctx.qualified_name(node.func if isinstance(node, cst.Call) else node)
    # Only Lightning's (and compat's/newcore's) own plugins: a project class may mean anything.
    if name is None or name.split(".", 1)[0] not in _LIGHTNING_ROOTS or not name.endswith("PrecisionPlugin"):
        return None
    cls = name.rpartition(".")[2]
    if cls in _FIXED_PRECISION:
        return _FIXED_PRECISION[cls]
    if isinstance(node, cst.Call):
        for index, arg in enumerate(node.args):
            if (arg.keyword is None and index == 0 and not arg.star) or (
                arg.keyword is not None and arg.keyword.value == "precision"
            ):
                return literal(arg.value)
    return UNKNOWN


#: Lightning's accelerator classes (1.5 to 1.9 names) and the device kind each one runs on.
_ACCELERATOR_KINDS = {
    "CPUAccelerator": "cpu",
    "GPUAccelerator": "gpu",
    "CUDAAccelerator": "gpu",
    "TPUAccelerator": "tpu",
    "IPUAccelerator": "ipu",
}


def _accelerator_kind(ctx: FileContext, node: cst.BaseExpression) -> str | None:
    name = ctx.qualified_name(node.func if isinstance(node, cst.Call) else node)
    if name is None or name.split(".", 1)[0] not in _LIGHTNING_ROOTS:
        return None
    return _ACCELERATOR_KINDS.get(name.rpartition(".")[2])


def read(ctx: FileContext, original: cst.BaseExpression, updated: cst.BaseExpression) -> Value:
    # The spelling after this pass's renames: a TODO quoting it reads the same on a second run.
    value = Value(node=updated, lit=literal(original), source=ctx.code(updated).strip())
    if value.known and not isinstance(original, cst.List | cst.Tuple):
        return value
    if isinstance(original, cst.IfExp) and isinstance(updated, cst.IfExp):
        yes, no = read(ctx, original.body, updated.body), read(ctx, original.orelse, updated.orelse)
        if yes.known and no.known:
            value.cond = (updated.test, yes, no)
    elif isinstance(original, cst.List | cst.Tuple) and isinstance(updated, cst.List | cst.Tuple):
        if all(isinstance(el, cst.Element) for el in original.elements):
            value.items = [
                read(ctx, o.value, u.value) for o, u in zip(original.elements, updated.elements, strict=True)
            ]
    elif isinstance(original, cst.Call | cst.Name | cst.Attribute):
        value.is_strategy = _is_strategy(ctx, original)
        if not value.is_strategy:
            value.plugin_precision = _plugin_precision(ctx, original)
            if isinstance(original, cst.Name):
                value.bound_strategy = _bound_strategy(ctx, original.value)
        value.accelerator_kind = _accelerator_kind(ctx, original)
    return value


def _ast_qualified(ctx: FileContext, node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    base = ctx.analysis.resolve(node.id, ctx.scopes)
    return None if base is None else ".".join([base, *reversed(parts)])


def _bound_strategy(ctx: FileContext, name: str) -> str | None:
    """The strategy class every assignment of ``name`` in its scope builds (``ds = DeepSpeedPlugin() if x else
    None``), if that is all they do: such a name in ``plugins=`` holds a strategy."""
    values = assigned_values(name, ctx.scopes)
    if not values:
        return None
    found: set[str] = set()
    pending = list(values)
    while pending:
        value = pending.pop()
        if isinstance(value, ast.IfExp):
            pending.extend((value.body, value.orelse))
        elif isinstance(value, ast.Constant) and value.value is None:
            continue
        elif isinstance(value, ast.Call):
            qualified = _ast_qualified(ctx, value.func)
            cls = qualified.rpartition(".")[2] if qualified else None
            legacy = qualified is not None and qualified.split(".", 1)[0] in LEGACY
            if cls is None or not ((legacy and cls in STRATEGY_CLASSES) or cls in ctx.options.local_strategies):
                return None
            if legacy and qualified is not None:  # the name after this run's renames: a second run says the same
                renamed = resolve(qualified, ctx.options.target_tuple)
                if renamed is not None and renamed.new is not None:
                    cls = renamed.new.rpartition(".")[2]
            found.add(cls)
        else:
            return None
    return min(found) if len(found) == 1 else None


# --- writing -----------------------------------------------------------------------------------------------------
def _quote(node: cst.CSTNode) -> str:
    """Match the file's quote style: the first string among the call's arguments decides."""
    for child in getattr(node, "args", ()) or getattr(node, "elements", ()):
        value = getattr(child, "value", None) or getattr(child, "key", None)
        if isinstance(value, cst.SimpleString):
            return value.quote[-1]
    return '"'


def render(
    ctx: FileContext, plan: Plan, value: Value, quote: str, moved: frozenset[int] = frozenset()
) -> cst.BaseExpression:
    """The syntax of ``value``; ``moved``: ids of list elements' values the plan put somewhere else (their
    comments travel with them, see :func:`_relayout`)."""
    if value.ctor is not None:
        path, kwargs = value.ctor
        module, _, name = f"{NEW_ROOT[plan.root]}.{path}".rpartition(".")
        ctx.add_import(module, name)
        args = [
            cst.Arg(render(ctx, plan, v, quote), keyword=cst.Name(k) if k else None, equal=_EQUAL if k else _NO_EQ)
            for k, v in kwargs.items()
        ]
        return cst.Call(cst.Name(name), args=_commas(args, None))
    if value.cond is not None and value.node is None:
        test, yes, no = value.cond
        return cst.IfExp(test=test, body=render(ctx, plan, yes, quote), orelse=render(ctx, plan, no, quote))
    if value.items is not None and (value.node is None or _items_changed(value)):
        template = value.node if isinstance(value.node, cst.List) else None
        if template is not None and template.elements:
            return _relayout_list(ctx, plan, value, template, quote, moved)
        originals = {id(el.value): el for el in getattr(value.node, "elements", ())}
        elements = []
        for item in value.items:
            reuse = originals.get(id(item.node)) if item.node is not None else None
            elements.append(reuse or cst.Element(render(ctx, plan, item, quote)))
        out = cst.List(elements=_list_commas(elements, list(template.elements) if template else []))
        if template is not None:
            out = out.with_changes(lbracket=template.lbracket, rbracket=template.rbracket)
        return out
    if value.node is not None:
        return value.node  # type: ignore[no-any-return]
    return _literal_node(value.lit, quote)


def _relayout_list(
    ctx: FileContext, plan: Plan, value: Value, template: cst.List, quote: str, moved: frozenset[int]
) -> cst.List:
    """A list literal whose items changed (``plugins=[...]`` lost its strategy), laid out like the original."""
    from codemods.python import layout as pylayout

    originals = list(template.elements)
    opening = template.lbracket.whitespace_after
    layout = pylayout.Layout(originals, opening)
    lead, trail = pylayout.comments(originals)
    position = {id(element.value): i for i, element in enumerate(originals)}
    slots: list[pylayout.Slot] = []
    used: set[int] = set()
    for item in value.items or ():
        at = position.get(id(item.node)) if item.node is not None else None
        if at is not None and at not in used:
            used.add(at)
            slots.append(pylayout.Slot(originals[at], at, float(at), list(lead[at]), trail[at], own=True))
        else:
            anchor = slots[-1].anchor + 0.001 if slots else -1.0
            slots.append(pylayout.Slot(cst.Element(render(ctx, plan, item, quote)), None, anchor))
    orphans = [
        (i, pylayout.orphaned(layout, lead[i], trail[i]))
        for i, element in enumerate(originals)
        if i not in used and id(element.value) not in moved  # a moved element takes its comments along
    ]
    tail = pylayout.adopt(slots, orphans)
    elements, opening = pylayout.assemble(originals, slots, opening, layout, tail)
    return template.with_changes(elements=elements, lbracket=template.lbracket.with_changes(whitespace_after=opening))


def _list_comments(originals: list[Any], layout: Any) -> dict[int, tuple[list[Any], Any]]:
    """id of each list element's value (in list-valued arguments) -> that element's comments."""
    from codemods.python import layout as pylayout

    found: dict[int, tuple[list[Any], Any]] = {}
    for element in originals:
        value = getattr(element, "value", None)
        if isinstance(value, cst.List) and value.elements:
            lead, trail = pylayout.comments(list(value.elements))
            for i, item in enumerate(value.elements):
                found[id(item.value)] = (lead[i], trail[i])
    return found


def _items_changed(value: Value) -> bool:
    before = [el.value for el in getattr(value.node, "elements", ())]
    return [id(n) for n in before] != [id(item.node) for item in value.items or ()]


def _literal_node(lit: Any, quote: str) -> cst.BaseExpression:
    if isinstance(lit, str):
        return cst.SimpleString(quote + lit.replace("\\", "\\\\").replace(quote, "\\" + quote) + quote)
    if lit is None or isinstance(lit, bool):
        return cst.Name(str(lit))
    if isinstance(lit, int):
        return cst.Integer(str(lit)) if lit >= 0 else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-lit)))
    if isinstance(lit, list | tuple):
        return cst.List([cst.Element(_literal_node(item, quote)) for item in lit])
    raise TypeError(f"cannot write {lit!r}")


_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
_NO_EQ = cst.MaybeSentinel.DEFAULT


def _list_commas(elements: list[Any], template: list[Any]) -> list[Any]:
    """Commas for a rebuilt list: kept elements keep their own (and the comments on them), new ones get the
    list's usual comma, and whatever ends the list gets the original end (trailing comma or not)."""
    if not template:
        return _commas(elements, None)
    inner = next((e.comma for e in template[:-1] if isinstance(e.comma, cst.Comma)), None)
    kept = {id(e) for e in template}
    out = []
    for index, element in enumerate(elements):
        if index == len(elements) - 1:
            comma = element.comma if element is template[-1] else template[-1].comma
        elif id(element) in kept and isinstance(element.comma, cst.Comma):
            comma = element.comma
        else:
            comma = inner or cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        out.append(element.with_changes(comma=comma))
    return out


def _commas(nodes: Sequence[Any], template: Sequence[Any] | None) -> list[Any]:
    """Give every node but the last a comma shaped like the template's, and the last the template's last."""
    template = list(template or [])
    inner = next(
        (n.comma for n in template[:-1] if isinstance(n.comma, cst.Comma)),
        cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
    )
    last = template[-1].comma if template else cst.MaybeSentinel.DEFAULT
    out = []
    for index, node in enumerate(nodes):
        comma = last if index == len(nodes) - 1 else inner
        out.append(node.with_changes(comma=comma))
    return out


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
    from codemods.model import TODO_PREFIX

    for note in plan.notes:
        match = _NOTE_KEY.match(note.message)
        home = _home(plan, lines, match.group(1)) if note.kind == "todo" and lines and match else None
        if home is not None and inline is not None:
            ctx.todo_here(note.rule, note.message, lines[home][0])  # type: ignore[index]
            text = f"{TODO_PREFIX}{note.message} [{note.rule}]"
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
    return None


def _args_plan(ctx: FileContext, root: str, original: cst.Call, updated: cst.Call, opaque: bool) -> Plan:
    items = [
        (o.keyword.value, read(ctx, o.value, u.value))
        for o, u in zip(original.args, updated.args, strict=True)
        if o.keyword is not None
    ]
    opaque = opaque or any(a.star for a in original.args)
    return Plan(items, ctx.target, root, ctx.enabled, opaque_rest=opaque, origin={k: "explicit" for k, _ in items})


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
    """The plan's items as elements (``Arg``/``DictElement``) laid out by ``codemods.python.layout``: an original
    element whose value did not change is reused, a new one inherits the comments of the originals it
    replaces (``Plan.successor``), and the comments of the dropped ones go to the element after them."""
    from codemods.python import layout as pylayout

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
    if ctx.trainer_dicts and isinstance(original.func, cst.Attribute):
        updated = _keyed_call(ctx, original, updated)
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
    lines = _own_lines(original)
    inline: dict[str, list[str]] = {}
    if not run_plan(ctx, plan, original, lines, inline, _quote(updated)):
        return _with_inline_todos(updated, inline) if inline else updated
    return _rebuild_args(ctx, plan, updated, inline)


def _own_lines(call: cst.Call) -> dict[str, tuple[cst.CSTNode, bool]]:
    """The keyword arguments of ``call`` by keyword, each with whether it begins a line of its own."""
    from codemods.python import layout as pylayout

    args = list(call.args)
    return {
        arg.keyword.value: (arg, pylayout.starts_line(args, call.whitespace_before_args, index))
        for index, arg in enumerate(args)
        if arg.keyword is not None
    }


def _with_inline_todos(updated: cst.Call, inline: dict[str, list[str]]) -> cst.Call:
    """The call as it is, with TODO comments right above the arguments they concern."""
    from codemods.python import layout as pylayout

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
        plan = Plan(items, ctx.target, PL, ctx.enabled, opaque_rest=True, origin={k: "explicit" for k, _ in items})
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


# --- dicts filled by subscript ---------------------------------------------------------------------------------
#: Methods of a dict that take a key first, and the kind of use each is.
_KEYED_METHODS = frozenset({"get", "pop", "setdefault"})
#: Methods that may put any key into a dict (or take any out).
_MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "__ior__"})


@dataclass
class _Use:
    """One use of ``d["key"]`` in a scope: a plain store ``d["key"] = value`` (``value`` set), or anything else
    (a read, ``del``, ``"key" in d``, ``d.get("key")``..., or a store in a nested scope), quoted in ``text``."""

    line: int
    text: str
    value: ast.expr | None = None
    #: A plain store's place: (id of the statement list it is in, its index there).
    slot: tuple[int, int] | None = None
    #: A read, ``del``, ``in`` test, ``.get`` or ``.pop`` of this very scope: renaming its key keeps its meaning
    #: when the key's every store is renamed the same way (:func:`_follow`).
    movable: bool = False


@dataclass
class _DictFacts:
    """What one scope does with the keys of one dict that feeds a Trainer."""

    uses: dict[str, list[_Use]] = field(default_factory=dict)
    #: The name is bound here only by ``d = {...}`` / ``d = dict(k=v)`` literals, and never used in a way that
    #: may add a key this scan does not see (``d.update(...)``, ``d[k] = ...``, passed to a function...).
    known_keys: bool = True
    #: Keys of those literals: (key, value).
    literal_items: list[tuple[str, ast.expr]] = field(default_factory=list)
    #: id of a plain store -> what it becomes (:func:`_fate`), once computed.
    fates: dict[int, list[tuple[str, Any]]] = field(default_factory=dict)
    #: key -> what :func:`_follow` said, once computed.
    follows: dict[str, tuple[str, str] | None] = field(default_factory=dict)

    def stores(self, key: str) -> list[_Use]:
        return [use for use in self.uses.get(key, ()) if use.value is not None]

    def others(self, key: str) -> list[str]:
        """How the scope uses ``key`` other than by plain stores, each quoted once."""
        return list(dict.fromkeys(use.text for use in self.uses.get(key, ()) if use.value is None))


def _const_key(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _literal_dict(node: ast.expr | None) -> list[tuple[str, ast.expr]] | None:
    """The items of ``{"k": v}`` / ``dict(k=v)`` (no ``**``), None for anything else."""
    if isinstance(node, ast.Dict):
        keys = [_const_key(key) if key is not None else None for key in node.keys]
        if all(key is not None for key in keys):
            return [(str(key), value) for key, value in zip(keys, node.values, strict=True)]
        return None
    call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict"
    if call and not node.args and all(keyword.arg is not None for keyword in node.keywords):  # type: ignore[union-attr]
        return [(str(keyword.arg), keyword.value) for keyword in node.keywords]  # type: ignore[union-attr]
    return None


def _binds(scope: ast.AST, name: str) -> bool:
    """Whether the function or class ``scope`` has a local ``name`` of its own (a parameter, an assignment)."""
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        arguments = scope.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        if any(arg is not None and arg.arg == name for arg in every):
            return True
    found: Any = getattr(scope, "body", [])
    body: list[ast.AST] = found if isinstance(found, list) else [found]
    declared = any(
        isinstance(node, ast.Global | ast.Nonlocal) and name in node.names for s in body for node in ast.walk(s)
    )
    stored = any(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
        for s in body
        for node in ast.walk(s)
    )
    return stored and not declared


def _scan_dict(body: Sequence[ast.stmt], name: str, params: frozenset[str]) -> _DictFacts:
    """Every use of the dict ``name`` in a scope's ``body`` (uses in nested scopes count, as uses elsewhere)."""
    facts = _DictFacts(known_keys=name not in params)
    seen: set[int] = set()  # ids of the Name nodes a use accounts for
    slots: dict[int, tuple[int, int]] = {id(s): (id(body), i) for i, s in enumerate(body)}
    for statement in body:
        for node in ast.walk(statement):
            for _, value in ast.iter_fields(node):
                if isinstance(value, list):
                    slots.update(
                        (id(item), (id(value), i)) for i, item in enumerate(value) if isinstance(item, ast.stmt)
                    )

    def use(
        key: str,
        line: int,
        text: str,
        value: ast.expr | None = None,
        slot: tuple[int, int] | None = None,
        movable: bool = False,
    ) -> None:
        facts.uses.setdefault(key, []).append(_Use(line, text, value, slot, movable))

    def visit(node: ast.AST, nested: bool) -> None:
        opens = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef)
        if opens and _binds(node, name):
            return  # its own ``name``: another dict
        inner = nested or opens
        if isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            facts.known_keys = False
        if isinstance(node, ast.Assign) and not nested:
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    seen.add(id(target))
                    items = _literal_dict(node.value) if len(node.targets) == 1 else None
                    if items is None:
                        facts.known_keys = False
                    else:
                        facts.literal_items.extend(items)
                        for item_key, item_value in items:
                            use(item_key, node.lineno, f"{name} = {ast.unparse(node.value)}", item_value)
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name:
                    stored = _const_key(target.slice)
                    if stored is not None and len(node.targets) == 1:
                        seen.add(id(target.value))
                        use(stored, node.lineno, ast.unparse(node), node.value, slots.get(id(node)))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
            subscripted = _const_key(node.slice)
            if subscripted is None:
                if not isinstance(node.ctx, ast.Load):
                    facts.known_keys = False
                seen.add(id(node.value))
            elif id(node.value) not in seen:
                seen.add(id(node.value))
                text = ast.unparse(node)
                delete = isinstance(node.ctx, ast.Del)
                movable = not nested and isinstance(node.ctx, ast.Load | ast.Del)
                use(subscripted, node.lineno, f"del {text}" if delete else text, movable=movable)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In | ast.NotIn):
            right = node.comparators[0]
            tested = _const_key(node.left)
            if tested is not None and isinstance(right, ast.Name) and right.id == name:
                seen.add(id(right))
                use(tested, node.lineno, ast.unparse(node), movable=not nested)
        if isinstance(node, ast.Call):
            for keyword in node.keywords:  # ``Trainer(**d)``, ``f(**d)``: read only
                if keyword.arg is None and isinstance(keyword.value, ast.Name) and keyword.value.id == name:
                    seen.add(id(keyword.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == name:
                seen.add(id(owner))
                first = _const_key(node.args[0]) if node.args else None
                if node.func.attr in _KEYED_METHODS and first is not None:
                    use(first, node.lineno, ast.unparse(node), movable=not nested and node.func.attr != "setdefault")
                if node.func.attr in _MUTATORS and (first is None or node.func.attr == "setdefault"):
                    facts.known_keys = False
        elif isinstance(node, ast.Name) and node.id == name and id(node) not in seen:
            facts.known_keys = False  # passed along, rebound, aliased: anything may happen to its keys
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    for statement in body:
        visit(statement, False)
    return facts


def _dict_facts(ctx: FileContext, name: str) -> _DictFacts:
    """The facts about ``name`` in the scope around the visited node (scanned once per scope and name)."""
    scope = ctx.scopes[-1] if ctx.scopes else ctx.analysis.module
    cached = ctx.dict_facts.setdefault(id(scope), {})
    if name not in cached:
        if scope is ctx.analysis.module:
            body: list[ast.stmt] = [s.node for s in ctx.analysis.statements if s.depth == 0]
        else:
            owner = next((s.node for s in ctx.analysis.statements if s.scope is scope), None)
            body = list(getattr(owner, "body", ()))
        cached[name] = _scan_dict(body, name, scope.params)
    return cached[name]  # type: ignore[no-any-return]


def _ast_value(node: ast.expr) -> Value:
    """A store's value read from ``ast``, as far as a plan needs it to see what the store becomes."""
    try:
        lit: Any = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        lit = UNKNOWN
    if isinstance(lit, tuple):
        lit = list(lit)
    if lit is not UNKNOWN and not isinstance(lit, str | int | bool | list | type(None)):
        lit = UNKNOWN
    return Value(lit=lit, source=ast.unparse(node))


def _fate(ctx: FileContext, key: str, value: Value) -> list[tuple[str, Any]]:
    """What the store ``d[key] = value`` becomes at the target: the keys it writes, with their literal values
    (UNKNOWN where not a literal). A trial plan: nothing is reported."""
    plan = Plan([(key, value)], ctx.target, PL, ctx.enabled, opaque_rest=True, origin={key: "explicit"}, trial=True)
    run_flag_rules(plan)
    return [(k, v.lit if v.node is None or v is value else UNKNOWN) for k, v in plan.items]


def _store_fate(ctx: FileContext, facts: _DictFacts, key: str, store: _Use) -> list[tuple[str, Any]]:
    assert store.value is not None
    if id(store) not in facts.fates:
        facts.fates[id(store)] = _fate(ctx, key, _ast_value(store.value))
    return facts.fates[id(store)]


def _follow(ctx: FileContext, facts: _DictFacts, key: str) -> tuple[str, str] | None:
    if key not in facts.follows:
        facts.follows[key] = _find_follow(ctx, facts, key)
    return facts.follows[key]


def _find_follow(ctx: FileContext, facts: _DictFacts, key: str) -> tuple[str, str] | None:
    """(the new key, the rule) when every use of ``key`` can be renamed with its stores, exactly: the dict is a
    literal of this scope whose keys this scan sees, ``key`` is written only by plain stores of literals that
    each become one store of the same new key with the same value, and nothing else in the scope writes or
    uses that new key. None otherwise (then the stores stay, with a TODO)."""
    uses = facts.uses.get(key, [])
    stores = facts.stores(key)
    literal_keys = {k for k, _ in facts.literal_items}
    if not facts.known_keys or key in literal_keys or not stores:
        return None
    if any(use.value is None and not use.movable for use in uses):
        return None
    new_key: str | None = None
    for store in stores:
        assert store.value is not None
        old = _ast_value(store.value)
        fate = _store_fate(ctx, facts, key, store)
        if not old.known or len(fate) != 1 or fate[0][1] != old.lit or fate[0][0] == key:
            return None
        if new_key not in (None, fate[0][0]):
            return None
        new_key = fate[0][0]
    assert new_key is not None
    if new_key in facts.uses or new_key in literal_keys:
        return None
    for other_key in facts.uses:
        if other_key != key and any(
            {key, new_key} & set(dict(_store_fate(ctx, facts, other_key, store))) for store in facts.stores(other_key)
        ):
            return None  # another store writes the new key, or the old one (distributed_backend= -> accelerator=)
    plan = Plan([(key, _ast_value(stores[0].value))], ctx.target, PL, ctx.enabled, opaque_rest=True, trial=True)  # type: ignore[arg-type]
    run_flag_rules(plan)
    rule = next((note.rule for note in plan.notes if note.kind == "fix"), "")
    return (new_key, rule) if rule else None


def _followed(ctx: FileContext, owner: cst.BaseExpression, key: cst.BaseExpression) -> tuple[str, str, str] | None:
    """``d`` and ``"key"`` of a use: (the dict, the new key, the rule) when the key follows its stores."""
    if not (ctx.trainer_dicts and isinstance(owner, cst.Name) and owner.value in ctx.trainer_dicts):
        return None
    if not isinstance(key, cst.SimpleString) or not isinstance(key.evaluated_value, str):
        return None
    facts = _dict_facts(ctx, owner.value)
    found = _follow(ctx, facts, key.evaluated_value) if key.evaluated_value in facts.uses else None
    return (owner.value, *found) if found is not None else None


def _renamed_key(ctx: FileContext, key: cst.SimpleString, new_key: str, node: cst.CSTNode, rule: str, name: str) -> Any:
    ctx.fix(
        rule,
        f"{name}[{key.value}] is {name}[{ctx.code(_literal_node(new_key, key.quote[-1]))}] now: it follows the "
        f"stores of {key.evaluated_value!s}=",
        node,
    )
    return _literal_node(new_key, key.quote[-1])


def _stored_to(ctx: FileContext, node: cst.Subscript) -> bool:
    """Whether ``node`` is the target of the assignment being visited (:func:`leave_statement` renames it)."""
    statement = ctx.statements[-1] if ctx.statements else None
    body = getattr(statement, "body", None)
    assign = body[0] if isinstance(body, Sequence) and body else None
    return isinstance(assign, cst.Assign) and any(target.target is node for target in assign.targets)


def leave_subscript(ctx: FileContext, original: cst.Subscript, updated: cst.Subscript) -> Any:
    """``d["gpus"]`` (a read or a ``del``) where ``d["gpus"] = 2`` became ``d["devices"] = 2`` (:func:`_follow`)."""
    if len(original.slice) != 1 or not isinstance(original.slice[0].slice, cst.Index) or _stored_to(ctx, original):
        return updated
    key = original.slice[0].slice.value
    found = _followed(ctx, original.value, key)
    if found is None or not isinstance(key, cst.SimpleString):
        return updated
    name, new_key, rule = found
    index = updated.slice[0].slice
    assert isinstance(index, cst.Index)
    new = _renamed_key(ctx, key, new_key, original, rule, name)
    return updated.with_changes(slice=[updated.slice[0].with_changes(slice=index.with_changes(value=new))])


def leave_comparison(ctx: FileContext, original: cst.Comparison, updated: cst.Comparison) -> Any:
    """``"gpus" in d`` where the key follows its stores (:func:`_follow`)."""
    if len(original.comparisons) != 1 or not isinstance(original.comparisons[0].operator, cst.In | cst.NotIn):
        return updated
    key = original.left
    found = _followed(ctx, original.comparisons[0].comparator, key)
    if found is None or not isinstance(key, cst.SimpleString):
        return updated
    name, new_key, rule = found
    return updated.with_changes(left=_renamed_key(ctx, key, new_key, original, rule, name))


def _keyed_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``d.get("gpus")`` / ``d.pop("gpus")`` where the key follows its stores (:func:`_follow`)."""
    func = original.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in ("get", "pop") and original.args):
        return updated
    first = original.args[0]
    if first.keyword is not None or first.star:
        return updated
    found = _followed(ctx, func.value, first.value)
    if found is None or not isinstance(first.value, cst.SimpleString):
        return updated
    name, new_key, rule = found
    new = _renamed_key(ctx, first.value, new_key, original, rule, name)
    return updated.with_changes(args=[updated.args[0].with_changes(value=new), *updated.args[1:]])


def _store(node: cst.SimpleStatementLine, names: frozenset[str]) -> tuple[cst.Assign, cst.Subscript, str] | None:
    """``d["key"] = value`` where ``d`` is one of ``names``: the assignment, its target and the key."""
    if len(node.body) != 1 or not isinstance(node.body[0], cst.Assign):
        return None
    assign = node.body[0]
    target = assign.targets[0].target if len(assign.targets) == 1 else None
    if not (
        isinstance(target, cst.Subscript)
        and isinstance(target.value, cst.Name)
        and target.value.value in names
        and len(target.slice) == 1
        and isinstance(target.slice[0].slice, cst.Index)
        and isinstance(target.slice[0].slice.value, cst.SimpleString)
    ):
        return None
    return assign, target, str(target.slice[0].slice.value.evaluated_value)


def _held(ctx: FileContext, facts: _DictFacts, key: str) -> bool:
    """Whether the stores of ``key`` stay as they are for the other uses of the key (:func:`leave_statement`)."""
    return bool(facts.others(key)) and _follow(ctx, facts, key) is None


def _collisions(
    ctx: FileContext, facts: _DictFacts, key: str, line: int, written: list[tuple[str, Any]]
) -> list[tuple[_Use, str, str, bool]]:
    """Other stores in the scope (of another key) that write a key this store now writes: (store, its key, the
    key both write, whether both write the same literal)."""
    mine = dict(written)
    found = []
    for other_key, uses in facts.uses.items():
        if other_key == key:
            continue
        for other in uses:
            if other.value is None or other.line == line:
                continue
            held = _held(ctx, facts, other_key)
            fate = _store_fate(ctx, facts, other_key, other)
            if held:  # it stays as it is, and a migration of it would write what its TODO says
                fate = [*fate, (other_key, _ast_value(other.value).lit)]
            for new_key, lit in fate:
                if new_key in mine:
                    same = lit is not UNKNOWN and mine[new_key] is not UNKNOWN and lit == mine[new_key]
                    found.append((other, other_key, new_key, same and not held))
    return found


#: How a note about a flag the plan removed begins (``removed gpus=0: it chose no accelerator``).
_REMOVED = re.compile(r"^removed [^:]+: ")


def _hold(ctx: FileContext, plan: Plan, original: cst.CSTNode, rule: str, message: str) -> None:
    """Leave the store as it is, with one TODO: why it stays, and what it would become (the plan's notes)."""
    changes = [note.message for note in plan.notes if note.kind != "report" and not _REMOVED.match(note.message)]
    ctx.todo(rule, f"{message} (here: {'; '.join(changes)})" if changes else message, original)


def leave_statement(ctx: FileContext, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> Any:
    """``params["tpu_cores"] = 8`` where ``params`` feeds a Trainer: one store may become two, or none.

    A key is migrated with every use of it in the scope, or not at all. Its reads, ``del``, ``in`` tests,
    ``.get`` and ``.pop`` are renamed with it where that is exact (:func:`_follow`); otherwise a store whose key
    the scope also uses that way, that would write a key the scope already uses, or that would write the key
    another store of the scope writes with another value stays as it is, with one TODO (a store identical to
    the one right above it once both are migrated is dropped). A store that goes away is removed only where
    that is exact (``params`` is a literal of this scope without that key, used nowhere else; its comments go
    to the next statement): otherwise it stays, with a TODO, and no fix is reported for it.
    """
    if not ctx.trainer_dicts:
        return updated
    found = _store(original, ctx.trainer_dicts)
    if found is None:
        return updated
    assign, target, key = found
    new_assign = updated.body[0]
    assert isinstance(new_assign, cst.Assign)
    items = [(key, read(ctx, assign.value, new_assign.value))]
    plan = Plan(items, ctx.target, PL, ctx.enabled, opaque_rest=True, origin={key: "explicit"})
    quote = target.slice[0].slice.value.quote[-1]  # type: ignore[attr-defined]
    if not settle_plan(ctx, plan, quote):
        report_notes(ctx, plan, original)
        return updated
    name = target.value.value  # type: ignore[attr-defined]
    facts = _dict_facts(ctx, name)
    line = ctx.anchors[-1][1] if ctx.anchors else 0
    rule = next((note.rule for note in plan.notes if note.kind == "fix"), plan.notes[0].rule if plan.notes else "")
    here = f"{key}={items[0][1].text}"
    others = facts.others(key)
    follow = _follow(ctx, facts, key) if others else None
    if follow is not None and [k for k, _ in plan.items] != [follow[0]]:
        follow = None
    if others and follow is None:
        _hold(
            ctx,
            plan,
            original,
            rule,
            f"{here} is left as it is: {', '.join(others)} {'uses' if len(others) == 1 else 'use'} the same key of "
            f"{name}; migrate them together",
        )
        return updated
    written = [(k, v.lit if v.node is None else literal(v.node)) for k, v in plan.items]
    taken = [use for k, _ in written if k != key for use in facts.others(k)]
    if taken:
        new_keys = ", ".join(f"{name}[{quote}{k}{quote}]" for k, _ in written if k != key)
        _hold(
            ctx,
            plan,
            original,
            rule,
            f"{here} is left as it is: it would write {new_keys}, which {', '.join(taken)} "
            f"{'uses' if len(taken) == 1 else 'use'} already; migrate them together",
        )
        return updated
    collisions = _collisions(ctx, facts, key, line, written)
    differ = [c for c in collisions if not c[3]]
    if differ:
        _hold(ctx, plan, original, rule, _collision_message(ctx, here, name, key, quote, facts, differ[0]))
        return updated
    if not plan.items:
        if _removable(ctx, facts, key):
            report_notes(ctx, plan, original)
            marker = cst.Pass()
            ctx.removed_stores[id(marker)] = marker
            return updated.with_changes(body=[marker])
        _hold(ctx, plan, original, rule, _not_removed(here, name, key, facts, plan))
        return updated
    in_module = not ctx.scopes or ctx.scopes[-1] is ctx.analysis.module  # a chunk's body: no block to drop it from
    mine = None if in_module else next((use.slot for use in facts.stores(key) if use.line == line), None)
    for other, other_key, new_key, _ in collisions:
        above = mine is not None and other.slot == (mine[0], mine[1] - 1)
        if above and _store_fate(ctx, facts, other_key, other) == written:
            # ``d["distributed_backend"] = "ddp"`` right above ``d["accelerator"] = "ddp"``: both are
            # ``d["strategy"] = "ddp"`` now, and the second one stores nothing new.
            marker = cst.Pass()
            ctx.removed_stores[id(marker)] = marker
            ctx.fix(
                rule,
                f"removed {here}: it is {name}[{quote}{new_key}{quote}] = "
                f"{ctx.code(_literal_node(written[0][1], quote))} now, as the store above it ({other_key}=) is",
                original,
            )
            return updated.with_changes(body=[marker])
    report_notes(ctx, plan, original)
    for other, other_key, new_key, _ in collisions:
        if other.line < line:
            ctx.report(
                rule,
                f"{name}[{quote}{new_key}{quote}] is now stored twice, from {other_key}= and {key}=, with the "
                "same value: one of the two stores can go",
                original,
            )
    lines = []
    for index, (new_key, value) in enumerate(plan.items):
        store = cst.Assign(
            targets=[
                cst.AssignTarget(
                    cst.Subscript(target.value, [cst.SubscriptElement(cst.Index(_literal_node(new_key, quote)))])
                )
            ],
            value=render(ctx, plan, value, quote),
        )
        line_node = updated.with_changes(body=[store])
        lines.append(line_node if index == 0 else line_node.with_changes(leading_lines=[]))
    return cst.FlattenSentinel(lines) if len(lines) > 1 else lines[0]


def _collision_message(
    ctx: FileContext,
    here: str,
    name: str,
    key: str,
    quote: str,
    facts: _DictFacts,
    collision: tuple[_Use, str, str, bool],
) -> str:
    """Why a store that would write the key another store (of another key) writes stays as it is."""
    _, other_key, new_key, _ = collision
    other = f"{name}[{quote}{other_key}{quote}]"
    verb = "does" if other_key == new_key else "would"
    writes = f"{here} is left as it is: it would write {name}[{quote}{new_key}{quote}], as {other} {verb}"
    if _held(ctx, facts, other_key):
        return f"{writes}, which is left as it is (see its TODO); migrate them together"
    if "distributed_backend" in (key, other_key):
        why = (
            "1.4 took distributed_backend= over accelerator= whenever it was set, while in a dict the later store wins"
        )
    else:
        why = "1.x saw two flags, while in a dict the later store wins"
    return f"{writes}, with another value (or one that is not a literal): {why}; keep the one that applies"


def _removable(ctx: FileContext, facts: _DictFacts, key: str) -> bool:
    """Whether removing the one store of ``key`` is exact: the dict is a literal of this (function) scope that
    cannot hold ``key`` otherwise, and nothing else in the scope touches ``key``."""
    in_function = bool(ctx.scopes) and ctx.scopes[-1] is not ctx.analysis.module
    literal_keys = {k for k, _ in facts.literal_items}
    return in_function and facts.known_keys and key not in literal_keys and len(facts.uses.get(key, ())) == 1


def _not_removed(here: str, name: str, key: str, facts: _DictFacts, plan: Plan) -> str:
    reasons = "; ".join(_REMOVED.sub("", note.message) for note in plan.notes if _REMOVED.match(note.message))
    if len(facts.stores(key)) > 1:
        why = f"{name}[{key!r}] is stored elsewhere in this scope too, and this store may replace that value"
    else:
        why = f"{name} may hold {key} from elsewhere, and this store replaces it"
    return f"{here} can go ({reasons}), but is left as it is: {why}; remove it where that is not so"


def leave_block(ctx: FileContext, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> Any:
    """Drop the stores :func:`leave_statement` removed; their comment lines (TODOs included) go to the next
    statement, or below the block's last one; a block left empty gets ``pass``, with them."""
    if not ctx.removed_stores:
        return updated
    marked = [
        isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and id(s.body[0]) in ctx.removed_stores
        for s in updated.body
    ]
    if not any(marked):
        return updated
    body: list[cst.BaseStatement] = []
    carry: list[cst.EmptyLine] = []
    for statement, removed in zip(updated.body, marked, strict=True):
        leading: Sequence[cst.EmptyLine] = getattr(statement, "leading_lines", ())
        if removed:
            carry.extend(leading)
            continue
        if carry:
            statement = statement.with_changes(leading_lines=[*carry, *leading])
            carry = []
        body.append(statement)
    if not body:
        return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()], leading_lines=carry)])
    return updated.with_changes(body=body, footer=[*carry, *updated.footer])


HANDLERS: dict[str, Handler] = {
    "Call": leave_call,
    "Assign": leave_assign,
    "SimpleStatementLine": leave_statement,
    "IndentedBlock": leave_block,
    "Subscript": leave_subscript,
    "Comparison": leave_comparison,
}
