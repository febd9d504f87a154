"""Rule ``schema_fields``: a class mirroring the Trainer's arguments migrates as the Trainer section it types (from
2.0 on, where the refused fields fail every run); a field the flag rules cannot migrate exactly keeps one TODO at the
field, naming what replaced it; other classes and fields are left alone.

Rows give the class body after ``max_epochs: int = 1`` and the body the run leaves; each is run twice (a second run
changes nothing).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "schema_fields"
HEAD = "from dataclasses import dataclass\n\n\n@dataclass\nclass TrainerConf:\n    max_epochs: int = 1\n"
ADDED = '    strategy: str = "auto"\n'

REWRITE = [
    pytest.param(
        "    gpus: int = 0\n",
        '    accelerator: str = "cpu"\n    devices: int = 1\n' + ADDED,
        id="gpus=0: one CPU, as 1.5 ran it",
    ),
    pytest.param(
        "    gpus: int = 2  # two\n",
        '    accelerator: str = "gpu"  # two\n    devices: int = 2\n' + ADDED,
        id="gpus=2: the field becomes accelerator, its type the new value's",
    ),
    pytest.param(
        "    accelerator: str = 'ddp'\n    amp_backend: str = 'native'\n",
        "    accelerator: str = 'auto'\n    devices: str = \"auto\"\n" + ADDED,
        id="1.5's defaults go; ddp on one CPU did nothing (the target's default, reported as for a config)",
    ),
    pytest.param(
        "    # the devices\n    gpus: Optional[int] = None  # none\n    devices: Any = None\n    strategy: Any = None\n",
        '    # the devices\n    # none\n    accelerator: str = "cpu"\n    devices: Any = 1\n    strategy: Any = "auto"\n',
        id="comments of a dropped field stay; no device flag was one CPU in 1.5; strategy=None is the default",
    ),
    pytest.param(
        "    replace_sampler_ddp: bool = False\n    gpus: Any = None\n    checkpoint_callback: bool = True\n"
        "    enable_checkpointing: bool = True\n",
        '    use_distributed_sampler: bool = False\n    accelerator: str = "cpu"\n    devices: int = 1\n'
        "    enable_checkpointing: bool = True\n" + ADDED,
        id="a renamed argument renames its field; checkpoint_callback=True next to enable_checkpointing",
    ),
]


@pytest.mark.parametrize(("body", "after"), REWRITE)
def test_rewrite_rows(body: str, after: str) -> None:
    outcome = run(HEAD + body, "2.0")
    assert outcome.source == HEAD + after, outcome.findings
    found = [f for f in outcome.findings if f.rule == RULE]
    assert [f.kind for f in found] == ["fix"] and found[0].message.startswith("TrainerConf types a Trainer section")
    assert run(outcome.source, "2.0").source == outcome.source, "a second run must change nothing"


TODO = [
    pytest.param("    gpus: int = GPUS\n", "accelerator and devices", id="a value that is no literal: gpus stays"),
    pytest.param(
        "    devices: int = 1\n    weights_summary: str = 'full'\n",
        "ModelSummary(max_depth=-1)",
        id="a value no field spells (a callback): that field stays",
    ),
]


@pytest.mark.parametrize(("body", "message"), TODO)
def test_todo_rows(body: str, message: str) -> None:
    source = HEAD + body
    outcome = run(source, "2.0")
    found = [f for f in outcome.findings if f.rule == RULE and f.kind == "todo"]
    assert len(found) == 1 and message in found[0].message, outcome.findings
    assert found[0].line == len(source.splitlines())
    assert run(outcome.source, "2.0").source == outcome.source, "a second run must change nothing"


NOOP = [
    pytest.param("class Args:\n    gpus: int = 0\n    name: str = 'x'\n", "2.0", id="a class that does not mirror it"),
    pytest.param(HEAD + "    gpus: int = 0\n", "1.6", id="a target that still takes gpus"),
    pytest.param(HEAD + "    devices: int = 1\n    accelerator: str = 'gpu'\n", "2.0", id="fields 2.x takes"),
]


@pytest.mark.parametrize(("source", "target"), NOOP)
def test_noop_rows(source: str, target: str) -> None:
    outcome = run(source, target)
    assert [f for f in outcome.findings if f.rule == RULE] == [] and outcome.source == source
