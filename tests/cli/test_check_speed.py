"""``--check`` of a clean tree stays cheap: what a file the prefilter rules out never needs is never imported.

Timings are benchmarks' business (``benchmarks/bench_rewrite.py --only c``); these tests pin the cause of the
last regression instead: the rule registry (and libcst with it) loaded for a file that no rule can touch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codemods.project.prefilter import RULE_TOKENS
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
#: Modules only a file that needs a rewrite needs: libcst, ruamel.yaml, the rules and the Python pipeline.
HEAVY = ("libcst", "ruamel", "codemods.rules.device_flags", "codemods.frontends.python.pipeline")
_PROBE = (
    "import json, sys\n"
    "from codemods.cli import main\n"
    "code = main(sys.argv[1:])\n"
    f"print(json.dumps([code, [m for m in {HEAVY!r} if m in sys.modules]]))\n"
)


def _check(tree: Path, *flags: str) -> tuple[int, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, "--check", "--no-progress", *flags, str(tree)],
        capture_output=True,
        text=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout, done.stderr
    code, loaded = json.loads(done.stdout.splitlines()[-1])
    return code, loaded


@pytest.mark.parametrize(
    ("files", "code", "loaded"),
    [
        pytest.param({"m.py": "x = 1\n"}, 0, [], id="plain Python loads nothing heavy"),
        pytest.param(
            {"cb.py": "import pytorch_lightning as pl\n\n\nclass Cb(pl.Callback):\n    pass\n"},
            0,
            [],
            id="a Lightning import without any rule's token loads neither the rules nor libcst",
        ),
        pytest.param(
            {"conf.yaml": "model:\n  lr: 0.1\n", "notes.md": "Run `python train.py`.\n"},
            0,
            [],
            id="a config and a doc without a Trainer flag load nothing heavy",
        ),
        pytest.param(
            {"m.py": "from pytorch_lightning import Trainer\n\nTrainer(gpus=2)\n"},
            1,
            ["libcst", "codemods.rules.device_flags", "codemods.frontends.python.pipeline"],
            id="a legacy call loads libcst and the rules (the probe sees them)",
        ),
    ],
)
def test_clean_files_import_nothing_they_do_not_need(
    tmp_path: Path, files: dict[str, str], code: int, loaded: list[str]
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert _check(tmp_path, "-j1") == (code, loaded)


def test_a_two_job_check_of_a_clean_tree_loads_nothing_heavy(tmp_path: Path) -> None:
    for index in range(4):
        (tmp_path / f"m{index}.py").write_text(f"import pytorch_lightning\nx = {index}\n", encoding="utf-8")
    assert _check(tmp_path, "-j2") == (0, [])


def test_rule_tokens_cover_every_token_a_rule_declares() -> None:
    # The prefilter rules a file out with RULE_TOKENS instead of loading the rules: a rule token holding none of
    # them would let a file that rule must see through untouched.
    missed = {
        rule.id: token
        for rule in REGISTRY.values()
        for token in rule.tokens
        if not any(known in token for known in RULE_TOKENS) and token not in SURFACE_TOKENS
    }
    assert not missed, f"add these to codemods.project.prefilter._RULE_LITERALS: {missed}"
