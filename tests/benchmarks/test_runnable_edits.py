"""bench_runnable's hand edits: where a patch's hunks change the migrated file, and which TODO each answers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from _runnable_edits import (  # noqa: E402
    EDITS_DIR,
    Hunk,
    Todo,
    declared_without_todo,
    parse_patch,
    place,
    todos_in,
)

PATCH = """\
no-todo: a.py:9 a silent use next to a TODO
diff --git a/a.py b/a.py
--- a/a.py
+++ b/a.py
@@ -10,4 +10,3 @@ def f():
     keep()
-    # TODO(migrate-trainer): X is gone in 2.0: do Y [rule_x]
-    X()
+    Y()
     keep()
@@ -30,2 +29,3 @@ def g():
     keep()
+    added()
     keep()
--- a/b.py
+++ b/b.py
@@ -0,0 +1,1 @@
+first line of a new file body
@@ -5,3 +6,2 @@
 keep
--- a removed line that looks like a header
 keep
"""


def test_parse_patch_places_each_hunk_on_the_old_side() -> None:
    assert parse_patch(PATCH) == [
        Hunk("a.py", 11, 12),
        Hunk("a.py", 31, 31),  # an insertion sits before the old line at its position
        Hunk("b.py", 1, 1),
        Hunk("b.py", 6, 6),  # a removed "--- ..." line stays in its hunk
    ]


def test_the_preamble_declares_lines_without_a_todo() -> None:
    assert declared_without_todo(PATCH) == ["a.py:9 a silent use next to a TODO"]


def test_todos_in_reads_rule_and_message_of_every_frontend() -> None:
    text = (
        "x = 1\n# TODO(migrate-trainer): X is gone in 2.0: do Y [rule_x]\nkey: null  # TODO(migrate-trainer): k [g]\n"
    )
    assert todos_in("f.py", text) == [
        Todo("f.py", 2, "rule_x", "X is gone in 2.0: do Y"),
        Todo("f.py", 3, "g", "k"),
    ]


TODO = Todo("a.py", 40, "argparse_flags", "Trainer.add_argparse_args is gone in 2.0: add the options")
GUARD = Todo("conf.yaml", 3, "project_guard", "trainer.resume_from_checkpoint is still used in src/pipe.py: migrate")


@pytest.mark.parametrize(
    ("hunk", "findings", "todo", "how"),
    [
        pytest.param(Hunk("a.py", 40, 41), [], TODO, "near", id="a hunk removing the TODO's lines answers it"),
        pytest.param(Hunk("a.py", 34, 34), [], TODO, "near", id="an insertion a few lines above the TODO answers it"),
        pytest.param(Hunk("a.py", 60, 60), [], None, "", id="a hunk far from every TODO answers none"),
        pytest.param(
            Hunk("a.py", 60, 60),
            [{"path": "a.py", "line": 61, "rule": "argparse_flags", "kind": "report"}],
            TODO,
            "report",
            id="a hunk at the tool's report of the same rule answers the file's TODO",
        ),
        pytest.param(
            Hunk("a.py", 60, 60),
            [{"path": "a.py", "line": 61, "rule": "other_rule", "kind": "report"}],
            None,
            "",
            id="a report of a rule with no TODO in the file does not count",
        ),
        pytest.param(Hunk("src/pipe.py", 90, 90), [], GUARD, "named", id="a hunk in the file a TODO names answers it"),
        pytest.param(Hunk("src/pipeline.py", 9, 9), [], None, "", id="a file whose name only starts alike does not"),
    ],
)
def test_place(hunk: Hunk, findings: list[dict[str, object]], todo: Todo | None, how: str) -> None:
    placed = place(hunk, [TODO, GUARD], findings)
    assert (placed.todo, placed.how) == (todo, how)


def test_label_is_rule_and_first_words() -> None:
    assert TODO.label() == 'argparse_flags: "Trainer.add_argparse_args is gone in 2.0: add…"'


@pytest.mark.parametrize("patch", sorted(EDITS_DIR.glob("*.patch")), ids=lambda p: p.name)
def test_every_committed_patch_parses_and_names_a_manifest_entry(patch: Path) -> None:
    from _runnable_manifest import load

    assert parse_patch(patch.read_text(encoding="utf-8"))
    assert patch.stem in {entry.id for entry in load().entries}
