"""Codemod test helpers: rows of ``check_noop`` / ``check_transformed`` through the real engine."""

from __future__ import annotations

import ast
import textwrap

from codemods.configs.pipeline import transform_yaml
from codemods.model import Options, Outcome
from codemods.python import transform_python


def run(source: str, target: str = "1.6", rules: frozenset[str] | None = None, yaml: bool = False) -> Outcome:
    options = Options(target=target, rules=rules)
    return transform_yaml(source, options, "config.yaml") if yaml else transform_python(source, options)


def check_noop(source: str, target: str = "1.6", yaml: bool = False) -> None:
    source = textwrap.dedent(source)
    outcome = run(source, target, yaml=yaml)
    assert outcome.error is None
    assert not outcome.changed
    assert outcome.source == source


def check_transformed(before: str, after: str, target: str = "1.6", yaml: bool = False) -> Outcome:
    before, after = textwrap.dedent(before), textwrap.dedent(after)
    outcome = run(before, target, yaml=yaml)
    assert outcome.error is None, outcome.error
    assert outcome.source == after
    if not yaml:
        ast.parse(outcome.source)
    again = run(outcome.source, target, yaml=yaml)
    assert again.source == outcome.source, "a second run must change nothing"
    return outcome
