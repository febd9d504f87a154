"""The Python front end: one libcst pass per file over the statements that can matter.

``pipeline`` is the entry (``transform_python``): the text prefilter, one ``ast`` parse for qualified names
(``qualnames``), libcst only for the top-level chunks that mention a legacy name (``chunks``), one traversal
that dispatches nodes to the enabled rules' hooks (``traversal``, with the per-file ``context``), Trainer
calls and dicts rendered from their flag plans (``flag_hooks``: ``flags`` for calls and dicts, ``stores`` for
``d["gpus"] = 2`` with ``dict_uses``; values read and written by ``values``, laid out by ``layout``), renames
(``rename_hooks``) and the imports reconciled at the end (``imports``).
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Sequence

from codemods.model import Finding, Options, Outcome, Runs, first_line


@functools.lru_cache(maxsize=32)
def prefilter_tokens(options: Options) -> tuple[str, ...]:
    """Every token some enabled rule needs; a file without any of them is not parsed."""
    from codemods.rules import REGISTRY

    tokens: set[str] = set()
    for rule in REGISTRY.values():
        if options.enabled(rule.id) and (rule.version <= options.target_tuple or rule.id in ANY_TARGET):
            tokens.update(rule.tokens)
    return tuple(sorted(tokens))


#: Rules that always matter for compat code, whatever the target (compat migrates to newcore's API).
ANY_TARGET = frozenset({"device_flags", "amp_flags", "gpu_accelerator", "precision_plugins"})


def python_triggered(text: str, options: Options) -> bool:
    """Whether Python ``text`` may concern a rule in this run: a legacy token, a project Trainer subclass, a subclass
    of the project's own hook classes, a Trainer-mirroring schema, or a config store that moves."""
    from codemods.project.hook_classes import defines_hook_subclass
    from codemods.project.moved_stores import mentions_store
    from codemods.project.prefilter import triggered
    from codemods.project.scan_python import defines_schema_field
    from codemods.project.trainer_classes import names_project_trainer

    return (
        triggered(text)
        or names_project_trainer(text, options.local_trainers, options.held_trainers)
        or defines_hook_subclass(text, options.hook_classes)
        or defines_schema_field(text)
        or mentions_store(text, options.moved_stores)
    )


def transform_python(source: str, options: Options, tokens: Sequence[str] | None = None) -> Outcome:
    """Rewrite ``source``; unchanged (and unparsed) when nothing in it can concern an enabled rule.

    TODO comments an earlier run left are findings too (kind ``todo``, on their own line): ``--check`` keeps
    failing until someone acted on them and deleted them.
    """
    from codemods.project.prefilter import TODO_MARKER

    left = existing_todos(source) if TODO_MARKER in source else ()
    if tokens is None:
        tokens = prefilter_tokens(options)
    if not any(token in source for token in tokens) or not python_triggered(source, options):
        return Outcome(source, changed=False, findings=_leftovers(source, left, options), parsed=False)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return Outcome(source, changed=False, error=f"cannot parse: {_describe(exc)}")
    from codemods.frontends.python.pipeline import run_rules

    outcome = run_rules(source, tree, options)
    if outcome.error is None:
        outcome = Outcome(
            outcome.source,
            outcome.changed,
            _leftovers(outcome.source, outcome.findings, options, outcome.statements),
            None,
            outcome.parsed,
        )
    if not left:
        return outcome
    # A TODO this run asks for again is reported once, by the rule (at the statement it concerns).
    asked = {(f.rule, f.message) for f in outcome.findings if f.kind == "todo"}
    extra = tuple(f for f in left if (f.rule, f.message) not in asked)
    findings = tuple(sorted((*outcome.findings, *extra), key=lambda f: (f.line, f.column, f.rule, f.message)))
    return Outcome(outcome.source, outcome.changed, findings, outcome.error, outcome.parsed)


def _leftovers(
    source: str, findings: tuple[Finding, ...], options: Options, statements: Runs | None = None
) -> tuple[Finding, ...]:
    """Legacy flags left in mappings the rules could not follow (rule ``legacy_keys``), at targets that drop them."""
    from codemods.rules import legacy_keys

    if not options.enabled(legacy_keys.ID) or options.target_tuple < legacy_keys.RULE.version:
        return findings
    return legacy_keys.report(source, findings, statements)


_TODO_TEXT = re.compile(r"#\s*TODO\(migrate-trainer\):?\s*(?P<message>.*?)(?:\s+\[(?P<rule>[\w.-]+)\])?\s*$")


def existing_todos(source: str) -> tuple[Finding, ...]:
    """``# TODO(migrate-trainer): ... [rule]`` comments in ``source`` (comments only: not in strings)."""

    found: list[Finding] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and "TODO(migrate-trainer)" in token.string:
                match = _TODO_TEXT.match(token.string)
                if match is not None:
                    rule = match.group("rule") or "migrate-trainer"
                    line, column = token.start
                    found.append(Finding(rule, match.group("message"), line, column + 1, "todo"))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return tuple(found)  # what was read before the error still counts
    return tuple(found)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"{exc.msg} (line {exc.lineno})"
    return first_line(exc)
