"""One TODO per override: a command left as written with a TODO on its first line (a shell command continued over
several lines takes no comment inside it) gets no second TODO at the line of a refused key it names. TALI's 420
generated scripts each got two, one per rule, for the same ``trainer.auto_scale_batch_size=True``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codemods.cli import main

FILES = {
    "conf/config.yaml": "defaults:\n  - trainer: default\n",
    "conf/trainer/default.yaml": "_target_: pytorch_lightning.Trainer\ngpus: 1\nauto_scale_batch_size: false\n",
    "train.py": (
        "import hydra\n\n\n@hydra.main(config_path='conf', config_name='config')\ndef main(cfg):\n"
        "    trainer = hydra.utils.instantiate(cfg.trainer)\n    if cfg.trainer.auto_scale_batch_size:\n"
        "        print('tuning')\n    return trainer\n"
    ),
}
CONTINUED = "#!/bin/bash\npython train.py \\\n  trainer.gpus=16 \\\n  trainer.auto_scale_batch_size=True \\\n  trainer.max_epochs=3\n"
ONE_LINE = "#!/bin/bash\npython train.py trainer.auto_scale_batch_size=True\n"


@pytest.mark.parametrize("script", [CONTINUED, ONE_LINE], ids=["a command over several lines", "on one line"])
def test_one_todo_per_override(script: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in {**FILES, "run.sh": script}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    main([str(tmp_path), "--check", "--format", "json", "--no-progress", "-j", "1"])
    report = json.loads(capsys.readouterr().out)
    todos = [row for row in report if row["path"].endswith("run.sh") and row["kind"] == "todo"]
    assert len(todos) == 1, todos
    assert "auto_scale_batch_size" in todos[0]["message"]
