"""Fixture pairs (tests/codemods/fixtures/<case>/before.* + after.*) and the harness every fixture goes through.

A case may carry ``options.json`` (``{"target": "2.0", "only": [...], "skip": [...]}``; the older one-line
``target`` file still works). Without an ``after.*`` file the case is a noop (or unparseable) input and must
come back byte for byte. Every case: the output parses, a second run changes nothing, and ``findings.txt``
(when present) lists exactly the ``rule kind`` pairs reported.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from codemods.model import Options
from codemods.project.scan import scan_local_strategies
from codemods.project.trainer_classes import project_trainers, scan_classes
from codemods.rules import REGISTRY
from codemods.runner import transform_text

FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())


def _options(case: Path, before: Path) -> Options:
    settings: dict[str, object] = {}
    if (case / "options.json").exists():
        settings = json.loads((case / "options.json").read_text(encoding="utf-8"))
    elif (case / "target").exists():
        settings = {"target": (case / "target").read_text().strip()}
    only = settings.get("only")
    skip = settings.get("skip", [])
    rules = None
    if only is not None or skip:
        rules = frozenset(only if isinstance(only, list) else REGISTRY) - frozenset(skip)  # type: ignore[arg-type]
    # As the runner does: a strategy subclass defined in the case is known in plugins=[...].
    local = scan_local_strategies([str(before)]) if before.suffix == ".py" else frozenset()
    # And a Trainer subclass defined in the case is a Trainer (held ones named by the file's name).
    trainers = project_trainers(scan_classes(before.read_bytes(), before.name) if before.suffix == ".py" else ())
    return Options(
        target=str(settings.get("target", "1.6")),
        rules=rules,
        local_strategies=local,
        local_trainers=trainers.passing,
        held_trainers=trainers.held,
    )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixture(case: Path) -> None:
    before = next(case.glob("before.*"))
    after = next(iter(case.glob("after.*")), None)
    options = _options(case, before)
    text = before.read_bytes().decode("utf-8")
    outcome = transform_text(text, before.name, options)
    if after is None:  # noop or unparseable: byte-identical
        assert outcome.source == text
        assert not outcome.changed
    else:
        assert outcome.error is None, outcome.error
        assert outcome.source == after.read_bytes().decode("utf-8")
    if before.suffix == ".py" and outcome.error is None:
        ast.parse(outcome.source)
    again = transform_text(outcome.source, before.name, options)
    assert again.source == outcome.source, "a second run must change nothing"
    expected = case / "findings.txt"
    if expected.exists():
        found = sorted({f"{f.rule} {f.kind}" for f in outcome.findings})
        assert found == sorted(set(expected.read_text(encoding="utf-8").split("\n")) - {""})


def test_every_rule_has_a_fixture_or_a_row() -> None:
    """Each rule shows up in some fixture's output (findings or TODO), so none is untested end to end; a rule that
    acts only on what the project index decides shows up in a whole-project fixture's findings.txt."""
    seen: set[str] = set()
    for case in CASES:
        before = next(case.glob("before.*"))
        outcome = transform_text(before.read_text(encoding="utf-8"), before.name, _options(case, before))
        seen.update(f.rule for f in outcome.findings)
    for listed in (FIXTURES.parent / "projects").glob("*/findings.txt"):
        seen.update(line.split()[1] for line in listed.read_text(encoding="utf-8").splitlines() if line.strip())
    assert set(REGISTRY) - seen == set()
