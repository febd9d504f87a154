"""Properties of the YAML front end's text edits, on every YAML fixture and on generated configs.

(a) every input line that is not on a migrated key's line comes out unchanged and in order; (b) every comment
of the input is in the output exactly once; (c) the output loads; (d) a second run changes nothing; (e) the
output does not depend on the hash seed. Plus rows for the pieces: plain or quoted scalars, the Hydra group
file, the project guard hook and the safety check.
"""

from __future__ import annotations

import difflib
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from codemods.frontends.yaml import pipeline as yaml_config
from codemods.frontends.yaml.nodes import compose
from codemods.frontends.yaml.pipeline import plan_file, transform_yaml
from codemods.frontends.yaml.render import scalar
from codemods.frontends.yaml.verify import Mismatch, Touched, verify
from codemods.model import Options
from codemods.plan.model import Value

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
YAML_CASES = sorted(p for p in FIXTURES.glob("yaml_*") if p.is_dir())


def _target(case: Path) -> str:
    if (case / "options.json").exists():
        return str(json.loads((case / "options.json").read_text(encoding="utf-8")).get("target", "1.6"))
    if (case / "target").exists():
        return (case / "target").read_text(encoding="utf-8").strip()
    return "1.6"


def _generated() -> list[tuple[str, str]]:
    """Legacy trainer sections in several layouts: indentation, list style, comments, flow, line endings."""
    out = []
    shapes = itertools.product((2, 4), (True, False), (True, False), ("\n", "\r\n"))
    for step, indented, comments, newline in shapes:
        pad, dash = " " * step, " " * (step if indented else 0)
        note = "  # per node" if comments else ""
        lines = [
            "# generated" if comments else "seed: 1",
            "trainer:",
            f"{pad}gpus: 2{note}",
            f"{pad}accelerator: ddp",
            f"{pad}precision: 16",
            f"{pad}plugins:",
            f"{pad}{dash}- class_path: pytorch_lightning.plugins.DDPPlugin{note}",
            f"{pad}{dash}  init_args:",
            f"{pad}{dash}  {pad}find_unused_parameters: false",
            f"{pad}max_epochs: 3",
            "model:",
            f"{pad}devices: ${{trainer.gpus}}",
            f"{pad}tags: [a, b]{note}",
        ]
        name = f"step{step}-{'indented' if indented else 'flat'}-{'comments' if comments else 'bare'}-{len(newline)}"
        out.append((name, newline.join(lines) + newline))
    out.append(("flow", "trainer: {gpus: 4, distributed_backend: ddp, amp_backend: native}  # flow\nx: [1, 2]\n"))
    out.append(("no-newline", "trainer:\n  tpu_cores: 8\n  accelerator: ddp"))
    return out


INPUTS = [
    pytest.param(next(case.glob("before.*")).read_bytes().decode("utf-8"), _target(case), id=case.name)
    for case in YAML_CASES
] + [pytest.param(text, target, id=f"{name}@{target}") for name, text in _generated() for target in ("1.7", "2.0")]


def _touched_lines(text: str, target: str) -> set[int]:
    """0-based input lines that some edit changes (a deleted or rewritten span, or text inserted mid-line)."""
    work = plan_file(text, Options(target=target))
    lines = compose(text)[0].lines if text.strip() else None
    assert lines is not None
    touched: set[int] = set()
    for edit in work.edits:
        first = lines.line(edit.start)
        if edit.end > edit.start:
            touched.update(range(first, lines.line(edit.end - 1) + 1))
        elif edit.start != lines.start(edit.start):
            touched.add(first)
    return touched


@pytest.mark.parametrize(("text", "target"), INPUTS)
def test_only_migrated_lines_change(text: str, target: str) -> None:
    outcome = transform_yaml(text, Options(target=target))
    assert outcome.error is None, outcome.error
    before, after = text.splitlines(keepends=True), outcome.source.splitlines(keepends=True)
    touched = _touched_lines(text, target)
    kept = [line for index, line in enumerate(before) if index not in touched]
    # each untouched line, in order, somewhere in the output (a subsequence); difflib shows where it broke
    position = 0
    for line in kept:
        while position < len(after) and after[position] != line:
            position += 1
        if position == len(after):
            diff = "".join(difflib.unified_diff(kept, after, "untouched input lines", "output"))
            pytest.fail(f"an input line outside the migrated keys changed or moved: {line!r}\n{diff}")
        position += 1


@pytest.mark.parametrize(("text", "target"), INPUTS)
def test_every_comment_survives_once(text: str, target: str) -> None:
    outcome = transform_yaml(text, Options(target=target))
    comments = compose(text)[0].lines.comments()
    found = compose(outcome.source)[0].lines.comments()
    for comment in set(comments):
        assert found.count(comment) == comments.count(comment), comment


@pytest.mark.parametrize(("text", "target"), INPUTS)
def test_output_loads_and_second_run_is_a_noop(text: str, target: str) -> None:
    outcome = transform_yaml(text, Options(target=target))
    list(YAML(typ="safe", pure=True).load_all(outcome.source))
    again = transform_yaml(outcome.source, Options(target=target))
    assert again.source == outcome.source
    assert again.error is None


def test_output_does_not_depend_on_the_hash_seed() -> None:
    case = FIXTURES / "yaml_lightningcli"
    script = (
        "import sys; from codemods.frontends.python.context import Options; from codemods.frontends.yaml.pipeline import transform_yaml; "
        "o = transform_yaml(open(sys.argv[1]).read(), Options(target='2.0')); "
        "print(o.source); print(list(o.findings))"
    )
    runs = []
    for seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script, str(case / "before.yaml")], capture_output=True, text=True, env=env
        )
        assert done.returncode == 0, done.stderr
        runs.append(done.stdout)
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        pytest.param("gpu", "gpu", id="gpu is plain"),
        pytest.param("16-mixed", "16-mixed", id="16-mixed is plain"),
        pytest.param("ddp_spawn", "ddp_spawn", id="a strategy name is plain"),
        pytest.param("yes", "'yes'", id="yes would be a YAML 1.1 bool"),
        pytest.param("null", "'null'", id="null would be None"),
        pytest.param("1e3", "'1e3'", id="1e3 would be a number"),
        pytest.param("a: b", "'a: b'", id="colon-space would start a mapping"),
        pytest.param("a #b", "'a #b'", id="space-hash would start a comment"),
        pytest.param("it's", "it's", id="an inner quote is fine plain"),
        pytest.param(None, "null", id="None"),
        pytest.param(True, "true", id="True"),
        pytest.param(16, "16", id="int"),
    ],
)
def test_new_scalars_are_plain_unless_yaml_would_misread_them(value: object, text: str) -> None:
    assert scalar(value) == text


def test_hydra_group_file_without_target() -> None:
    text = "# trainer group\ngpus: 2  # both\nmax_epochs: 3\n"
    outcome = transform_yaml(text, Options(target="1.7"), "configs/trainer/default.yaml")
    assert outcome.source == "# trainer group\naccelerator: gpu\ndevices: 2  # both\nmax_epochs: 3\n"
    assert transform_yaml(text, Options(target="1.7"), "configs/model/default.yaml").source == text


def test_project_guard_blocks_the_section(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str, list[str], list[str]]] = []

    def guard(
        options: Options,
        path: str,
        section: str,
        before: list[tuple[str, Value]],
        after: list[tuple[str, Value]],
        present: Sequence[str] = (),
    ) -> list[str]:
        calls.append((path, section, [k for k, _ in before], [k for k, _ in after]))
        return ["trainer.gpus is still used at train.py:3", "schema says int"]

    monkeypatch.setattr(yaml_config, "guard_section", guard)
    text = "model:\n  trainer:\n    max_epochs: 3  # short\n    gpus: 2\n"
    outcome = transform_yaml(text, Options(target="1.7"), "conf.yaml")
    assert calls == [("conf.yaml", "model.trainer", ["max_epochs", "gpus"], ["max_epochs", "accelerator", "devices"])]
    todo = "# TODO(migrate-trainer): trainer.gpus is still used at train.py:3; schema says int [project_guard]"
    assert outcome.source == f"model:\n  trainer:\n    max_epochs: 3  # short\n    gpus: 2  {todo}\n"
    assert [(f.rule, f.kind, f.line) for f in outcome.findings] == [("project_guard", "todo", 4)]
    assert transform_yaml(outcome.source, Options(target="1.7"), "conf.yaml").source == outcome.source


def test_a_value_yaml_cannot_name_leaves_the_section_alone() -> None:
    text = "trainer:\n  auto_select_gpus: true\n  gpus: 2\n"
    outcome = transform_yaml(text, Options(target="1.9"))
    assert outcome.source == text and not outcome.changed
    expected = [("auto_select_gpus", "todo", 2), ("device_flags", "todo", 3)]
    assert [(f.rule, f.kind, f.line) for f in outcome.findings] == expected


def test_safety_check_compares_everything_outside_the_touched_keys() -> None:
    before = "trainer:\n  gpus: 2\n  max_epochs: 3\nmodel: {lr: 0.1}\n"
    renamed = Touched(0, ("trainer",), frozenset({"gpus"}), frozenset({"devices"}))
    verify(before, "trainer:\n  devices: 2\n  max_epochs: 3\nmodel: {lr: 0.1}\n", [renamed])
    with pytest.raises(Mismatch):
        verify(before, "trainer:\n  devices: 2\n  max_epochs: 4\nmodel: {lr: 0.1}\n", [renamed])
    with pytest.raises(Mismatch):
        verify(before, "trainer:\n  devices: 2\n  max_epochs: 3\nmodel: {lr: 0.2}\n", [renamed])


def test_a_failed_safety_check_returns_the_input(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(before: str, after: str, touched: list[Touched]) -> None:
        raise Mismatch("changed")

    monkeypatch.setattr(yaml_config, "verify", refuse)
    text = "trainer:\n  gpus: 2\n"
    outcome = transform_yaml(text, Options(target="1.7"), "c.yaml")
    assert outcome.source == text and not outcome.changed
    assert outcome.error is not None and outcome.error.startswith("internal error on YAML")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        pytest.param("base: &b\n  gpus: 2\ntrainer:\n  <<: *b\n  accelerator: ddp\n", "merge key", id="merge key"),
        pytest.param("n: &n 2\ntrainer:\n  gpus: *n\n", "anchor or alias", id="aliased value"),
        pytest.param("trainer: &t\n  gpus: 2\nother: *t\n", "anchored", id="anchored section"),
        pytest.param("trainer:\n  gpus: !!int 2\n", "explicit tag", id="tagged value"),
        pytest.param("trainer:\n  ? [a, b]\n  : 1\n  gpus: 2\n", "complex", id="complex key"),
        pytest.param(
            "trainer: {max_epochs: 3,\n  amp_backend: native,  # native\n  precision: 32}\n",
            "comment sits among the flow items",
            id="comment inside the flow items to remove",
        ),
    ],
)
def test_sections_that_cannot_be_edited_safely_stay_byte_identical(text: str, why: str) -> None:
    outcome = transform_yaml(text, Options(target="2.0"))
    assert outcome.source == text and not outcome.changed and outcome.error is None
    assert all(f.kind in ("todo", "report") for f in outcome.findings)
    assert any(f.kind == "todo" and why in f.message and "change it by hand" in f.message for f in outcome.findings)


def test_unknown_tags_elsewhere_do_not_stop_the_rewrite() -> None:
    text = "a: !!python/name:os.path x\nb: !custom {q: 1}\ntrainer:\n  gpus: 2\n"
    outcome = transform_yaml(text, Options(target="1.7"))
    assert outcome.error is None
    assert (
        outcome.source == "a: !!python/name:os.path x\nb: !custom {q: 1}\ntrainer:\n  accelerator: gpu\n  devices: 2\n"
    )
