"""Codemod test helpers: rows of ``check_noop`` / ``check_transformed`` through the real engine."""

from __future__ import annotations

import ast
import functools
import textwrap

from codemods.frontends.python import transform_python
from codemods.frontends.yaml.pipeline import transform_yaml
from codemods.model import Options, Outcome


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


def check_todo(source: str, target: str, rule: str) -> None:
    """The code stays, with a TODO of ``rule`` above it, and a second run changes nothing."""
    outcome = run(source, target)
    assert "# TODO(migrate-trainer): " in outcome.source and f"[{rule}]" in outcome.source
    assert any(f.rule == rule and f.kind == "todo" for f in outcome.findings)
    assert outcome.source.endswith(source.splitlines()[-1] + "\n")
    assert run(outcome.source, target).source == outcome.source


@functools.lru_cache(maxsize=1)
def _shown_by_fixtures() -> frozenset[str]:
    from codemods.runner import transform_text
    from tests.codemods.test_fixtures import CASES, _options

    shown: set[str] = set()
    for case in CASES:
        before = next(case.glob("before.*"))
        outcome = transform_text(before.read_text(encoding="utf-8"), before.name, _options(case, before))
        shown.update(f.rule for f in outcome.findings)
    return frozenset(shown)


def exercised(rule: str) -> bool:
    """Some fixture case reports ``rule``, or the rule's own test module has rows."""
    import sys

    module = sys.modules.get(f"tests.codemods.rules.test_{rule}")
    rows = any(getattr(module, name, None) for name in ("TRANSFORMED", "TODO", "FALLBACKS", "PROPERTY_TODO"))
    return rows or rule in _shown_by_fixtures()
