"""The libcst half of ``transform_python``: pick the lines that matter, run the pass over their chunks, reconcile
imports, check the result and place the findings. Imported only once a file passed the text prefilter.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import libcst as cst

from codemods.frontends.python import (
    bindings,
    config_dicts,
    device_count,
    fit_moves,
    flag_hooks,
    rename_hooks,
    rename_names,
    version_guards,
)
from codemods.frontends.python.chunks import Chunk, locate, split, whole
from codemods.frontends.python.context import FileContext, Handler, Pending, Site
from codemods.frontends.python.fstring_quotes import may_hold_fstrings, requote
from codemods.frontends.python.imports import add_needed, remove_unused, trim_start
from codemods.frontends.python.qualnames import Analysis, Statement, analyse
from codemods.frontends.python.traversal import Desync, RulePass
from codemods.frontends.python.trial import flags_to_migrate
from codemods.model import Finding, Options, Outcome, Runs, first_line
from codemods.project.prefilter import OPTIONS, PROPERTIES, literal_led, matching_lines, word_pattern
from codemods.project.schema_plans import plan_schema, schema_facts
from codemods.rules import REGISTRY
from legacy_api.ecosystem import ROOTS as ECOSYSTEM_ROOTS

_TRAINER_CALLEES = ("Trainer", "Runner", "AcceleratorConnector", "from_argparse_args")
_ACCELERATOR_COMPARED = re.compile(r"\.\s*accelerator\s*[!=]=")
_ACCELERATOR_STORED = re.compile(r"""\[\s*["']accelerator["']\s*\]\s*=(?!=)|\.accelerator\s*=(?!=)""")
#: SomeAccelerator(training_type_plugin=...)
_ACCELERATOR_ARGUMENT = literal_led(re.compile(r"\btraining_type_plugin\s*=(?!=)"))
_SUPER_INIT = literal_led(re.compile(r"\bsuper\(\s*\)\.__init__\("))  # in class T(pl.Trainer): Trainer.__init__'s flags


def _subclass_words(options: Options, analysis: Analysis) -> frozenset[str]:
    """Local names of the Trainer subclasses that take Lightning's flags: the project's, and ecosystem imports."""
    ecosystem = {
        local
        for local, names in analysis.module.imports.items()
        if any(name.split(".", 1)[0] in ECOSYSTEM_ROOTS for name in names)
    }
    return frozenset({*options.local_trainers, *(name for name, _, _ in options.held_trainers), *ecosystem})


def _vocabulary_lines(
    source: str, options: Options, analysis: Analysis, extra: frozenset[str], more: set[int]
) -> list[int]:
    """The lines naming something a rule looks for; ``more``: :func:`_pattern_lines`."""
    words = frozenset(analysis.imported | extra | options.local_strategies | _subclass_words(options, analysis))
    attributes = frozenset(PROPERTIES) if options.enabled("trainer_properties") else frozenset()
    helpers = ("add_argparse_args", "from_argparse_args", "get_init_arguments_and_types")
    literals = frozenset((*OPTIONS, *helpers)) if options.enabled("argparse_flags") else frozenset()
    lines = matching_lines(source, word_pattern(words, attributes, literals))
    return sorted({*lines, *more}) if more else lines


def _pattern_lines(source: str, ctx: FileContext, known: frozenset[int]) -> set[int]:
    """The lines the enabled rules' own patterns match (found once, whatever the Trainer dicts), less those where
    the rule's screen shows it does nothing (a line another rule's pattern matches stays for that rule). ``known``:
    lines visited anyway (the vocabulary's), never screened."""
    options, analysis = ctx.options, ctx.analysis
    lines: set[int] = set()
    if options.enabled("trainer_properties") and ".accelerator" in source:  # ``trainer.accelerator == "ddp"``
        lines.update(matching_lines(source, _ACCELERATOR_COMPARED))
    if options.enabled("legacy_keys") and "accelerator" in source:  # trainer_config["accelerator"] = "ddp"
        lines.update(matching_lines(source, _ACCELERATOR_STORED))
    if options.enabled("accelerator_arguments") and "training_type_plugin" in source:
        lines.update(matching_lines(source, _ACCELERATOR_ARGUMENT))
    if "super()" in source and "Trainer" in source:
        lines.update(matching_lines(source, _SUPER_INIT))
    if ("OmegaConf" in source or "DictConfig" in source) and config_dicts.section_paths(ctx):
        lines.update(matching_lines(source, config_dicts.CALLS))
    sites: dict[int, Site] = {}

    def site(line: int) -> Site:
        found = sites.get(line)
        if found is None:
            found = sites[line] = Site.at(ctx, line)
        return found

    for rule in REGISTRY.values():
        if rule.visit is not None and options.enabled(rule.id):
            matched = matching_lines(source, literal_led(rule.visit()))
            if rule.screen is not None:
                screen = rule.screen
                matched = [line for line in matched if line in lines or line in known or screen(site(line))]
            lines.update(matched)
    if analysis.legacy_stars:  # reported by the rename rules
        lines.update(line for line, _ in analysis.legacy_stars)
    return lines


def _touches(lines: Sequence[int], start: int, end: int) -> bool:
    index = bisect_left(lines, start)
    return index < len(lines) and lines[index] <= end


def _callee_is_trainer(func: ast.expr, analysis: Analysis, subclasses: frozenset[str]) -> bool:
    """``subclasses``: :func:`_subclass_words` (``MyTrainer(**kw)``, ``flash.Trainer(**kw)``)."""
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in subclasses or (
        name == "from_argparse_args" and isinstance(func, ast.Attribute) and _last(func.value) in subclasses
    ):
        return True
    while isinstance(func, ast.Attribute):
        func = func.value
    known = analysis.imported | subclasses
    return name in _TRAINER_CALLEES and isinstance(func, ast.Name) and func.id in known


def _last(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _trainer_dicts(analysis: Analysis, lines: Sequence[int], options: Options) -> frozenset[str]:
    """Names passed as ``**name`` to a legacy Trainer-like call: the dicts whose keys are Trainer flags."""
    subclasses = _subclass_words(options, analysis) - {name for name, _, _ in options.held_trainers}
    names: set[str] = set()
    for statement in analysis.statements:
        if statement.size != 1 or not _touches(lines, statement.start, statement.end):
            continue
        for node in ast.walk(statement.node):
            if isinstance(node, ast.Call) and _callee_is_trainer(node.func, analysis, subclasses):
                names.update(k.value.id for k in node.keywords if k.arg is None and isinstance(k.value, ast.Name))
    return frozenset(names)


def run_rules(source: str, tree: ast.Module, options: Options) -> Outcome:
    """Run the enabled rules over ``source`` (already parsed by ``ast`` into ``tree``)."""
    analysis = analyse(tree, source)
    handlers, visitors = build_hooks(options)
    ctx = FileContext(
        options,
        handlers,
        visitors,
        analysis,
        scopes=[analysis.module],
        flag_trial=flags_to_migrate,
        schema_plan=lambda fields, target: plan_schema(fields, target, schema_facts(options.project)),
    )
    vocabulary = _vocabulary_lines(source, options, analysis, frozenset(), set())
    more = _pattern_lines(source, ctx, frozenset(vocabulary))
    lines = sorted({*vocabulary, *more}) if more else vocabulary
    ctx.trainer_dicts = _trainer_dicts(analysis, lines, options)
    if ctx.trainer_dicts:
        lines = _vocabulary_lines(source, options, analysis, ctx.trainer_dicts, more)
    if fit_moves.FLAG in source and options.enabled("removed_arguments"):
        ctx.fit_moves = fit_moves.resume_moves(tree)
        # the fit statement takes the value: it is visited
        lines = sorted({*lines, *(line for line in ctx.fit_moves.values() if line != fit_moves.NEVER_FIT)})
    if "add_argument" in source:
        ctx.int_options = bindings.int_options(tree)
    if "num_processes" in source and options.enabled("trainer_properties"):
        ctx.device_counts = device_count.device_counts(tree)
    split_chunks = split(source, analysis.statements)
    chunks = split_chunks if split_chunks is not None else whole(source, analysis.statements)
    if split_chunks is None:
        lines = list(range(1, source.count("\n") + source.count("\r") + 2))
    if "__version__" in source:
        guarded = version_guards.guarded_lines(tree, options.target_tuple)  # code for other releases: as it is
        lines = [line for line in lines if line not in guarded]
    originals = {id(chunk): (chunk.text, chunk.start_line) for chunk in chunks}
    kinds: dict[type[cst.CSTNode], Any] = {}
    try:
        for index, chunk in enumerate(chunks):
            if chunk.first == chunk.stop:
                continue
            if not _touches(lines, analysis.statements[chunk.first].start, chunk.end_line) and split_chunks:
                continue
            module = chunk.parse(leading=index == 0)
            # Node identities only mean something while their tree is alive: a previous chunk's tree may be gone
            # (replaced by its rewrite), and a new node could reuse one of its ids.
            ctx.labels, ctx.claimed, ctx.todos, ctx.split_imports = set(), set(), {}, {}
            ctx.callees, ctx.presets, ctx.cuda_devices = set(), {}, set()
            rule_pass = RulePass(ctx, analysis.statements, lines, kinds)
            rule_pass.position = chunk.first
            new = module.visit(rule_pass)
            if rule_pass.position != chunk.stop:
                raise Desync(f"chunk at line {chunk.start_line} paired {rule_pass.position - chunk.first} statements")
            if rule_pass.changed:
                chunk.set_module(requote(module, new) if may_hold_fstrings(chunk.text) else new)
        if ctx.removals:
            texts = {local: text for local, (text, _) in ctx.import_todos.items()}
            gone, dropped = remove_unused(ctx.removals, chunks, analysis.statements, texts)
            # a TODO on an import that went with its last use (``DeviceType``) concerns nothing left in the file
            moot = {id(ctx.import_todos[local][1]) for local in dropped if local in ctx.import_todos}
            ctx.pending = [
                item for item in ctx.pending if not (item.kind == "todo" and _at(item, gone)) and id(item) not in moot
            ]
        if ctx.additions:
            add_needed(ctx.additions, chunks, "\r\n" if "\r\n" in source else "\n")
        if ctx.removals:
            trim_start(chunks)
    except cst.ParserSyntaxError as exc:
        return Outcome(source, changed=False, error=f"cannot parse: {first_line(exc)}")
    except Exception as exc:  # a rule bug must not cost the user a file: report it, keep the input
        return Outcome(source, changed=False, error=f"internal error: {type(exc).__name__}: {first_line(exc)}")
    if ctx.fit_arguments:  # a value left its Trainer but never reached the fit: keep the file
        return Outcome(source, changed=False, error="internal error: a moved resume_from_checkpoint lost its fit")
    error, statements = _check(chunks, originals, analysis.statements)
    if error is not None:
        return Outcome(source, changed=False, error=error)
    code = "".join(chunk.text for chunk in chunks)
    changed = code != source
    return Outcome(code if changed else source, changed, _findings(ctx.pending), statements=statements)


def _at(item: Pending, lines: frozenset[int]) -> bool:
    """Whether ``item`` is anchored at an import statement starting on one of ``lines``."""
    anchor = item.anchor
    return anchor is not None and anchor[1] in lines and isinstance(anchor[0], cst.SimpleStatementLine)


def _check(
    chunks: Sequence[Chunk], originals: Mapping[int, tuple[str, int]], statements: Sequence[Statement]
) -> tuple[str | None, Runs]:
    """Every rewritten chunk must compile on its own (each is a sequence of whole top-level statements).

    Also returns the output's top-level ``ast`` statements (see ``Outcome.statements``): a chunk's own when its
    text is what it was, the compiled ones otherwise.
    """
    runs: list[tuple[tuple[ast.stmt, ...], int]] = []
    line = 1
    for chunk in chunks:
        text, start = originals.get(id(chunk), (None, 0))  # a chunk a rule added has no original
        if chunk.text == text:
            nodes = tuple(s.node for s in statements[chunk.first : chunk.stop] if s.depth == 0)
            runs.append((nodes, line - start))
        elif chunk.text:
            try:
                module = ast.parse(chunk.text, "<migrate-trainer>")
            except SyntaxError as exc:
                return f"rewrite would not parse ({exc.msg}); file left as it was", ()
            runs.append((tuple(module.body), line - 1))
        line += chunk.text.count("\n")
    return None, tuple(runs)


def _findings(pending: Sequence[Pending]) -> tuple[Finding, ...]:
    if not pending:
        return ()
    by_anchor: dict[int, list[Pending]] = {}
    for item in pending:
        by_anchor.setdefault(id(item.anchor[0]) if item.anchor else 0, []).append(item)
    seen: set[tuple[str, str, int, int]] = set()
    out: list[Finding] = []
    for items in by_anchor.values():
        anchor = items[0].anchor
        where = locate(anchor[0], anchor[1], anchor[2], [i.node for i in items]) if anchor else {}
        for item in items:
            line, column = where.get(id(item.node), (1, 1))
            key = (item.rule, item.message, line, column)
            if key not in seen:
                seen.add(key)
                out.append(Finding(item.rule, item.message, line, column, item.kind))
    return tuple(sorted(out, key=lambda f: (f.line, f.column, f.rule, f.message)))


def build_hooks(options: Options) -> tuple[dict[str, list[Handler]], dict[str, list[Handler]]]:
    """Leave and visit hooks of the enabled rules, keyed by libcst node class name, in the registry's order.

    The rename rules share one set of hooks (``codemods.frontends.python.rename_hooks``), and the Trainer-flag rules
    one more (``codemods.frontends.python.flag_hooks``), which runs each flag plan through
    :func:`codemods.rules.flag_rules`.
    """
    leave: dict[str, list[Handler]] = defaultdict(list)
    visit: dict[str, list[Handler]] = defaultdict(list)
    if any(options.enabled(rule) for rule in rename_names.RULE_IDS):
        for kind, rename_handler in rename_hooks.HANDLERS.items():
            (visit if kind.startswith("visit_") else leave)[kind.removeprefix("visit_")].append(rename_handler)
    for rule in REGISTRY.values():
        if options.enabled(rule.id):
            for kind, handler in rule.handlers.items():
                (visit if kind.startswith("visit_") else leave)[kind.removeprefix("visit_")].append(handler)
    for kind, flags_handler in flag_hooks.HANDLERS.items():
        leave[kind].append(flags_handler)
    return dict(leave), dict(visit)
