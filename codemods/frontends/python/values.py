"""How a Trainer flag's syntax becomes a :class:`~codemods.plan.model.Value` and a Value becomes syntax again.

Reading takes the original node (where qualified names are known); writing reuses the original nodes of untouched
values and list elements, with their commas and comments, and builds new ones in the file's quote style.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.bindings import callback_list, facts
from codemods.frontends.python.checkpoint_objects import checkpoint_object
from codemods.frontends.python.guards import enclosing_tests
from codemods.frontends.python.qualnames import LEGACY, assigned_values
from codemods.plan.model import UNKNOWN, Plan, Value
from codemods.plan.resolve import resolve
from legacy_api.lightning15 import ACCELERATOR_KINDS, FIXED_PRECISION
from legacy_api.renames import COMPAT, NEW_ROOT, PL, STRATEGY_CLASSES

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


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


def _plugin_precision(ctx: FileContext, node: cst.BaseExpression) -> Any:
    """The precision a Lightning precision plugin object trains in; None when ``node`` is not one."""
    name = ctx.qualified_name(node.func if isinstance(node, cst.Call) else node)
    # Only Lightning's (and compat's/newcore's) own plugins: a project class may mean anything.
    if name is None or name.split(".", 1)[0] not in _LIGHTNING_ROOTS or not name.endswith("PrecisionPlugin"):
        return None
    cls = name.rpartition(".")[2]
    if cls in FIXED_PRECISION:
        return FIXED_PRECISION[cls]
    if isinstance(node, cst.Call):
        for index, arg in enumerate(node.args):
            if (arg.keyword is None and index == 0 and not arg.star) or (
                arg.keyword is not None and arg.keyword.value == "precision"
            ):
                return literal(arg.value)
    return UNKNOWN


def _accelerator_kind(ctx: FileContext, node: cst.BaseExpression) -> str | None:
    name = ctx.qualified_name(node.func if isinstance(node, cst.Call) else node)
    if name is None or name.split(".", 1)[0] not in _LIGHTNING_ROOTS:
        return None
    return ACCELERATOR_KINDS.get(name.rpartition(".")[2])


def read(ctx: FileContext, original: cst.BaseExpression, updated: cst.BaseExpression) -> Value:
    # The spelling after this pass's renames: a TODO quoting it reads the same on a second run.
    value = Value(node=updated, lit=literal(original), source=ctx.code(updated).strip())
    if value.known and not isinstance(original, cst.List | cst.Tuple):
        return value
    if isinstance(original, cst.IfExp) and isinstance(updated, cst.IfExp):
        yes, no = read(ctx, original.body, updated.body), read(ctx, original.orelse, updated.orelse)
        # Literal branches, or a None branch next to anything (``DDPPlugin(...) if n > 1 else None``: 2.x
        # rejects the None, whatever the other branch holds)
        none_branch = any(branch.known and branch.lit is None for branch in (yes, no))
        # a list display is read item by item (``[cfg.cuda] if cfg.cuda >= 0 else 0``: GPU indices)
        settled = all(branch.known or isinstance(branch.node, cst.List) for branch in (yes, no))
        if settled or none_branch:
            value.cond = (updated.test, yes, no)
    elif isinstance(original, cst.List | cst.Tuple) and isinstance(updated, cst.List | cst.Tuple):
        if all(isinstance(el, cst.Element) for el in original.elements):
            value.items = [
                read(ctx, o.value, u.value) for o, u in zip(original.elements, updated.elements, strict=True)
            ]
    elif isinstance(original, cst.Name) and (held := callback_list(ctx, original.value)) is not None:
        # its items are the list's: a rule looking for the user's own callback of a kind reads them in the source
        value.items = [Value(node=updated, source=held, spread=True)]
    elif isinstance(original, cst.Call | cst.Name | cst.Attribute):
        value.is_strategy = _is_strategy(ctx, original)
        if not value.is_strategy:
            value.plugin_precision = _plugin_precision(ctx, original)
            if isinstance(original, cst.Name):
                value.bound_strategy = _bound_strategy(ctx, original.value)
            value.checkpoint_object = checkpoint_object(ctx, original)
        value.accelerator_kind = _accelerator_kind(ctx, original)
    pure_kinds = cst.Name | cst.Attribute | cst.Subscript | cst.Call | cst.IfExp | cst.BooleanOperation
    if not value.known and isinstance(original, pure_kinds):
        value.facts = facts(ctx, original)
        if value.facts is not None and value.facts.pure:
            guards = enclosing_tests(ctx, original)
            value.facts = dataclasses.replace(value.facts, guards=guards) if guards else value.facts
    return value


def _strategy_class(ctx: FileContext, call: ast.Call) -> str | None:
    """The strategy class ``call`` builds (as named after this run's renames, so a second run says the same)."""
    qualified = ctx.qualified_ast(call.func)
    cls = qualified.rpartition(".")[2] if qualified else None
    legacy = qualified is not None and qualified.split(".", 1)[0] in LEGACY
    if cls is None or not ((legacy and cls in STRATEGY_CLASSES) or cls in ctx.options.local_strategies):
        return None
    if legacy and qualified is not None:
        renamed = resolve(qualified, ctx.options.target_tuple)
        if renamed is not None and renamed.new is not None:
            cls = renamed.new.rpartition(".")[2]
    return cls


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
            cls = _strategy_class(ctx, value)
            if cls is None:
                return None
            found.add(cls)
        elif isinstance(value, ast.List | ast.Tuple):
            # ``plugins = [NLPDDPPlugin(), ...]`` (then ``plugins.append(...)``): a list that holds a strategy
            classes = [_strategy_class(ctx, item) for item in value.elts if isinstance(item, ast.Call)]
            strategies = [cls for cls in classes if cls is not None]
            if not strategies:
                return None
            found.add(strategies[0])
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
    if value.cond is not None and isinstance(value.node, cst.IfExp):
        # The original ``a if c else b`` with the branches a rule replaced: its layout stays.
        test, yes, no = value.cond
        node: cst.IfExp = value.node
        return node.with_changes(
            test=_copy(render(ctx, plan, test, quote)) if isinstance(test, Value) else node.test,
            body=node.body if yes.node is not None else render(ctx, plan, yes, quote),
            orelse=node.orelse if no.node is not None else render(ctx, plan, no, quote),
        )
    if value.cond is not None and value.node is None:
        test, yes, no = value.cond
        if isinstance(test, Value):
            test = _copy(render(ctx, plan, test, quote))
        return cst.IfExp(
            test=test, body=_copy(render(ctx, plan, yes, quote)), orelse=_copy(render(ctx, plan, no, quote))
        )
    if value.expr is not None:
        return _expression(ctx, plan, value.expr, quote)
    if value.items is not None and (value.node is None or _items_changed(value)):
        template = value.node if isinstance(value.node, cst.List) else None
        if template is not None and template.elements:
            return _relayout_list(ctx, plan, value, template, quote, moved)
        originals = {id(el.value): el for el in getattr(value.node, "elements", ())}
        elements: list[cst.BaseElement] = []
        for item in value.items:
            reuse = originals.get(id(item.node)) if item.node is not None else None
            if item.spread:
                elements.append(cst.StarredElement(render(ctx, plan, item, quote)))
                continue
            elements.append(reuse or cst.Element(render(ctx, plan, item, quote)))
        out = cst.List(elements=_list_commas(elements, list(template.elements) if template else []))
        if template is not None:
            out = out.with_changes(lbracket=template.lbracket, rbracket=template.rbracket)
        return out
    if value.node is not None:
        return value.node  # type: ignore[no-any-return]
    return _literal_node(value.lit, quote)


def _copy(node: cst.BaseExpression) -> cst.BaseExpression:
    """A pure value a rule writes twice (``accelerator="gpu" if n else "cpu", devices=n or 1``) is two nodes."""
    return node.deep_clone()


def _expression(ctx: FileContext, plan: Plan, expr: tuple[str, tuple[Value, ...]], quote: str) -> cst.BaseExpression:
    """The syntax of a :attr:`Value.expr` a rule built."""
    operator, operands = expr
    parts = [_copy(render(ctx, plan, operand, quote)) for operand in operands]
    # ``(a if c else b) or 1``: an operand that binds looser than the operator gets parentheses
    parts = [
        p.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        if isinstance(p, cst.IfExp | cst.Lambda | cst.BooleanOperation | cst.NamedExpr) and not p.lpar
        else p
        for p in parts
    ]
    if operator == "or":
        return cst.BooleanOperation(left=parts[0], operator=cst.Or(), right=parts[1])
    if operator == "strip":  # str(a).strip()
        text = cst.Call(cst.Name("str"), [cst.Arg(parts[0])])
        return cst.Call(cst.Attribute(text, cst.Name("strip")))
    comparison = {"is": cst.Is, "in": cst.In}[operator]()
    return cst.Comparison(parts[0], [cst.ComparisonTarget(comparison, parts[1])])


def _relayout_list(
    ctx: FileContext, plan: Plan, value: Value, template: cst.List, quote: str, moved: frozenset[int]
) -> cst.List:
    """A list literal whose items changed (``plugins=[...]`` lost its strategy), laid out like the original."""
    from codemods.frontends.python import layout as pylayout

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
    from codemods.frontends.python import layout as pylayout

    found: dict[int, tuple[list[Any], Any]] = {}
    for element in originals:
        value = getattr(element, "value", None)
        if isinstance(value, cst.List) and value.elements:
            lead, trail = pylayout.comments(list(value.elements))
            for i, item in enumerate(value.elements):
                found[id(item.value)] = (lead[i], trail[i])
    return found


def _items_changed(value: Value) -> bool:
    # a name read as its list (Value.spread) is unchanged while it is still the one item
    before = (
        [value.node] if isinstance(value.node, cst.Name) else [el.value for el in getattr(value.node, "elements", ())]
    )
    return [id(n) for n in before] != [id(item.node) for item in value.items or ()]


def _literal_node(lit: Any, quote: str) -> cst.BaseExpression:
    if isinstance(lit, str):
        return cst.SimpleString(quote + lit.replace("\\", "\\\\").replace(quote, "\\" + quote) + quote)
    if lit is None or isinstance(lit, bool):
        return cst.Name(str(lit))
    if isinstance(lit, int):
        return cst.Integer(str(lit)) if lit >= 0 else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-lit)))
    if isinstance(lit, tuple):
        return cst.Tuple([cst.Element(_literal_node(item, quote)) for item in lit])
    if isinstance(lit, list):
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
