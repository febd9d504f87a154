"""A class that mirrors the Trainer's arguments (``@dataclass class TrainerConfig: gpus: int = 0``) migrates as the
Trainer section it types; a field whose argument the target's Trainer no longer takes and that the flag rules
cannot migrate exactly gets a TODO.

Projects type their Trainer section with such a class and pass it on with ``Trainer(**asdict(config))`` (a
``TypeError`` on 2.x for ``gpus``) or filter it through ``inspect.signature(Trainer.__init__)`` first
(pytorch_tabular): then 2.x drops ``auto_select_gpus`` or ``gpus`` without a word, and the run picks other devices.
From 2.0 on, where the refused fields fail every run, the class is planned as a config section
(``codemods.project.schema_plans``): fields whose defaults were 1.5's go, values the target refuses take its
spelling, renamed arguments rename their fields, and the keys the plan adds (``accelerator``, ``devices``) become
fields, so the migrated configs built on it validate. A field the plan leaves with a TODO stays, and its TODO names
what replaced the argument. A class counts as the index counts a schema (``codemods.project.scan_python``): it names a
device or strategy flag and another Trainer flag among its annotated fields.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.plan.schema_model import KEEP, SchemaPlan, widened
from codemods.project.prefilter import alternation
from codemods.project.scan_python import REMOVED_FIELDS, mirrors_trainer
from codemods.rules._hook_classes import owner_class
from legacy_api.removed_arguments import REMOVED_ARGUMENTS, refused_at

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "schema_fields"
#: The connector's flags and what replaced each (the rest: ``legacy_api.removed_arguments``' rows).
_DEVICE_FLAGS = {
    "gpus": "accelerator and devices",
    "tpu_cores": "accelerator and devices",
    "ipus": "accelerator and devices",
    "num_processes": "accelerator and devices",
    "distributed_backend": "strategy",
    "amp_backend": "precision (and plugins for apex)",
    "amp_level": "plugins (apex's opt level)",
    "auto_select_gpus": "devices (a list of free GPUs you pick, e.g. with lightning's find_usable_cuda_devices)",
    "replace_sampler_ddp": "use_distributed_sampler",
}


def _instead(name: str) -> str:
    row = next((row for row in REMOVED_ARGUMENTS if row.name == name), None)
    if row is not None:
        return f"{row.renamed} ({row.todo})" if row.renamed else row.todo
    return _DEVICE_FLAGS.get(name, "")


def _names() -> tuple[str, ...]:
    return REMOVED_FIELDS


def _fields(cls: cst.ClassDef) -> set[str]:
    found = set()
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    found.add(small.target.value)
    return found


def _defaults(cls: cst.ClassDef, ctx: FileContext) -> list[tuple[str, str]]:
    """The class's annotated fields with their defaults as written ("" for none), in order."""
    found = []
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                found.append((small.target.value, ctx.code(small.value) if small.value is not None else ""))
    return found


def _plan(ctx: FileContext, cls: cst.ClassDef) -> SchemaPlan | None:
    """The class's plan, once per class and file (its fields' handlers and the class's own ask)."""
    key = (ID, id(cls))
    if key not in ctx.screened:
        assert ctx.schema_plan is not None, "the pipeline sets schema_plan"
        ctx.screened[key] = ctx.schema_plan(_defaults(cls, ctx), ctx.target) if mirrors_trainer(_fields(cls)) else None
    plan = ctx.screened[key]
    return plan if isinstance(plan, SchemaPlan) else None


def leave_ann_assign(ctx: FileContext, original: cst.AnnAssign, updated: cst.AnnAssign) -> Any:
    target = original.target
    if not isinstance(target, cst.Name) or target.value not in _names() or not refused_at(target.value, ctx.target):
        return updated
    cls = owner_class(ctx)
    if cls is None or not mirrors_trainer(_fields(cls)):
        return updated
    name = target.value
    plan = _plan(ctx, cls)
    if plan is not None and name not in plan.held:
        return updated  # the class migrates this field (leave_class_def)
    said = dict(plan.todos).get(name) if plan is not None else None
    if said is not None:
        ctx.todo(ID, f"{cls.name.value}.{name}: {said}; the field stays until then", original)
        return updated
    ctx.todo(
        ID,
        f"{cls.name.value}.{name} mirrors Trainer({name}=), which Lightning {ctx.surface.release} no longer takes: "
        f"where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the "
        f"Trainer's signature loses it without a word), replace it by {_instead(name)}, with the configs that set it",
        original,
    )
    return updated


def _spell(value: object, written: str) -> cst.BaseExpression:
    if isinstance(value, str):
        quote = "'" if written.startswith("'") else '"'
        if quote not in value and "\\" not in value:
            return cst.SimpleString(f"{quote}{value}{quote}")
    return cst.parse_expression(repr(value))


def _annotation(ctx: FileContext, value: object) -> cst.Annotation:
    if type(value) in (bool, int, float, str):
        return cst.Annotation(cst.Name(type(value).__name__))
    ctx.add_import("typing", "Any")
    return cst.Annotation(cst.Name("Any"))


def leave_class_def(ctx: FileContext, original: cst.ClassDef, updated: cst.ClassDef) -> Any:
    plan = _plan(ctx, original) if ctx.target >= (2, 0) else None
    if plan is None or not plan.moved or not isinstance(updated.body, cst.IndentedBlock):
        return updated
    nodes = {
        statement.body[0].target.value: statement.body[0]
        for statement in original.body.body
        if isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.AnnAssign)
        and isinstance(statement.body[0].target, cst.Name)
    }
    written = {name: ctx.code(node.value) if node.value is not None else "" for name, node in nodes.items()}
    by_old = {old: (name, value) for name, old, value in plan.fields if old is not None}
    # the new fields, each after the entry it follows in the plan (None: before the first field)
    following: dict[str | None, list[tuple[str, object]]] = {}
    previous: str | None = None
    for name, old, value in plan.fields:
        if old is None:
            following.setdefault(previous, []).append((name, value))
        else:
            previous = old
    cls = original.name.value
    body: list[cst.BaseStatement] = []
    dropped: list[str] = []
    changed: list[str] = []
    added: list[str] = []
    # the comments of a dropped field (above it, or after it on its line) go to the next statement written
    carried: tuple[cst.EmptyLine, ...] = ()
    # new fields wait for the next statement written, so that they stand where the fields they replace stood
    pending = list(following.get(None, []))

    def emit(statement: cst.BaseStatement | None) -> None:
        nonlocal carried, pending
        lines = _new_fields(ctx, pending, added)
        pending = []
        if statement is not None:
            lines.append(statement)
        if lines and carried:
            head = lines[0]
            assert isinstance(head, cst.SimpleStatementLine | cst.BaseCompoundStatement)
            lines[0] = head.with_changes(leading_lines=(*carried, *head.leading_lines))
            carried = ()
        body.extend(lines)

    for statement in updated.body.body:
        field = _field_name(statement)
        if field is None or field not in nodes:
            emit(statement)
            continue
        assert isinstance(statement, cst.SimpleStatementLine)
        if field not in by_old:
            comment = statement.trailing_whitespace.comment
            tail = (cst.EmptyLine(indent=True, comment=comment),) if comment is not None else ()
            carried = (*carried, *statement.leading_lines, *tail)
            dropped.append(field)
            pending.extend(following.get(field, []))
            continue
        name, value = by_old[field]
        ann = statement.body[0]
        assert isinstance(ann, cst.AnnAssign)
        wider = widened(plan, field, ctx.code(ann.annotation.annotation))
        if wider is not None:
            ctx.add_import("typing", wider)
            ann = ann.with_changes(annotation=cst.Annotation(cst.Name(wider)))
            changed.append(f"{field} is typed {wider} (2.x spells precision as a string too)")
        if name != field or value is not KEEP:
            new_value = ann.value if value is KEEP else _spell(value, written[field])
            ann = ann.with_changes(target=cst.Name(name), value=new_value, annotation=_fitting(ctx, ann, value))
            spelled = ctx.code(new_value) if new_value is not None else ""
            changed.append(f"{field}={written[field]} is {name}={spelled}")
        emit(statement.with_changes(body=[ann]))
        pending.extend(following.get(field, []))
    emit(None)
    block = updated.body
    if carried:  # the class's last fields went and nothing follows them: their comments end its body
        block = block.with_changes(footer=(*carried, *block.footer))
    parts = [
        f"dropped {', '.join(dropped)} (arguments Lightning {ctx.surface.release} refuses: 1.5's defaults, or what "
        "they chose is in the fields kept or added)"
    ]
    if added:
        changed.append(f"added {', '.join(added)} (the keys the migrated configs built on it set)")
    for rule, message in plan.reports:
        ctx.report(rule, message, original)
    ctx.fix(
        ID,
        f"{cls} types a Trainer section and migrates as one: " + "; ".join(parts[: bool(dropped)] + changed),
        original,
    )
    return updated.with_changes(body=block.with_changes(body=body))


def _fitting(ctx: FileContext, ann: cst.AnnAssign, value: object) -> cst.Annotation:
    """The field's annotation, unless it names one builtin type the new default is not (``gpus: int = 2`` ->
    ``accelerator: str = "gpu"``; ``precision: int = 16`` -> ``str``): then the new default's type."""
    written = ctx.code(ann.annotation.annotation)
    builtins = {"int": int, "str": str, "bool": bool, "float": float}
    if value is KEEP or written not in builtins or type(value) is builtins[written]:
        return ann.annotation
    return _annotation(ctx, value)


def _field_name(statement: cst.BaseStatement) -> str | None:
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
            return small.target.value
    return None


def _new_fields(ctx: FileContext, fields: list[tuple[str, object]], added: list[str]) -> list[cst.BaseStatement]:
    out: list[cst.BaseStatement] = []
    for name, value in fields:
        line = cst.SimpleStatementLine(
            [cst.AnnAssign(target=cst.Name(name), annotation=_annotation(ctx, value), value=_spell(value, '"'))]
        )
        added.append(f"{name}={value!r}")
        out.append(line)
    return out


def _visit() -> re.Pattern[str]:
    # Led by the field's indentation (a class body), its names as a trie: re tries the pattern at every line only.
    return re.compile(r"^[ \t]+" + alternation(_names()) + r"[ \t]*:[ \t]*[\w\"'\[]", re.MULTILINE)


RULE = Rule(
    id=ID,
    description="a class mirroring the Trainer's arguments (a dataclass schema) migrates as the Trainer section it "
    "types; a field the flag rules cannot migrate exactly is flagged",
    deprecated_in="1.7",
    handlers={"AnnAssign": leave_ann_assign, "ClassDef": leave_class_def},
    tokens=_names(),
    visit=_visit,
)
