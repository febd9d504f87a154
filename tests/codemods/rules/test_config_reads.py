"""Rule ``config_reads``: ``cfg.trainer.gpus`` -> ``cfg.trainer.devices`` where every config moves the value there.

One row per project shape, run through the real CLI on a temporary tree: the read moves only where every use of
the key is an attribute read and every config that sets it ends with ``devices`` of the same value; otherwise
nothing moves and the configs keep the key with the project guard's TODO. The whole-project fixtures
``gpus_read_moves_with_key`` and ``gpus_read_with_a_zero_config`` show the full output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codemods.cli import main

RULE = "config_reads"
CONFIG = "trainer:\n  gpus: 2\n  max_epochs: 1\n"
READ = "def nodes(cfg):\n    return {'gpus_per_node': cfg.trainer.gpus}\n"
ORDERED = "def several(cfg):\n    return {'gpus_per_node': 2 if cfg.trainer.gpus > 1 else 1}\n"


@pytest.mark.parametrize(
    ("files", "moves"),
    [
        pytest.param({"conf/a.yaml": CONFIG, "launch.py": READ}, True, id="an int moves to devices"),
        pytest.param(
            {"conf/a.yaml": CONFIG, "conf/b.yaml": "trainer:\n  gpus: [0, 1]\n", "launch.py": READ},
            True,
            id="a list keeps its value too",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "conf/cpu.yaml": "trainer:\n  gpus: 0\n", "launch.py": READ},
            "expression",
            id="gpus 0 becomes accelerator cpu: the read becomes the expression that gives 0 there",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ + "def cpu(cfg):\n    cfg.trainer.gpus = 0\n"},
            "expression",
            id="a store of 0 moves too (config_stores), and the read becomes the expression",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ + "def cpu(cfg):\n    cfg.trainer.gpus = n\n"},
            False,
            id="a store of a value that is no literal",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": "def n(cfg):\n    return cfg['trainer']['gpus']\n"},
            False,
            id="a subscript read",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ + "def has(cfg):\n    return hasattr(cfg.trainer, 'gpus')\n"},
            False,
            id="the key as text",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ, "test_launch.py": "cfg = create({'trainer': {'gpus': 0}})\n"},
            False,
            id="a config built in code",
        ),
        pytest.param(
            {
                "conf/a.yaml": CONFIG,
                "launch.py": READ,
                "test_launch.py": "cfg = Namespace(trainer=Namespace(gpus=0))\n",
            },
            False,
            id="a config built with keywords",
        ),
        pytest.param(
            {
                "conf/a.yaml": CONFIG,
                "launch.py": READ,
                "run.py": "import pytorch_lightning as pl\npl.Trainer(gpus=2)\n",
            },
            True,
            id="a Trainer's own gpus= is no config",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "conf/b.yaml": "trainer:\n  devices: 4\n", "launch.py": READ},
            False,
            id="a config that sets devices already",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "conf/model.yaml": "model:\n  trainer:\n    gpus: 0\n", "launch.py": READ},
            False,
            id="a nested section the index does not record",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ, "run.sh": "python train.py trainer.gpus=0\n"},
            "expression",
            id="a command that sets 0",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ, "run.sh": "python train.py trainer.gpus=$N\n"},
            "expression",
            id="a command whose value the shell decides (it may be 0; the command keeps its TODO)",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ, "docs/use.md": "Read `cfg.trainer.gpus` for the count.\n"},
            False,
            id="a mention the index cannot read",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ, "docs/use.md": "    config.trainer.gpus = cuda\n"},
            True,
            id="a store in a doc: it reads nothing, and the refused key fails loudly where it runs",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ, "ci.groovy": "// python train.py trainer.gpus=[0]\n"},
            True,
            id="a commented-out command",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": READ, "conf/tn.yaml": "tagger_trainer:\n  gpus: 1\n"},
            True,
            id="the key under another mapping, which no cfg.trainer read sees",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": "def on(cfg):\n    return bool(cfg.trainer.get('gpus'))\n"},
            True,
            id="a get read only tested for truth moves too",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "launch.py": "def n(cfg):\n    return cfg.trainer.get('gpus')\n"},
            False,
            id="a get read whose value goes on: a config without the key read None, the expression would read 0",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "conf/ref.yaml": "trainer:\n  gpus: null\n", "launch.py": ORDERED},
            "expression",
            id="gpus null becomes accelerator cpu where every read orders the value (None raised there in 1.5)",
        ),
        pytest.param(
            {"conf/a.yaml": CONFIG, "conf/ref.yaml": "trainer:\n  gpus: null\n", "launch.py": READ},
            False,
            id="gpus null beside a read whose value goes on (None would read 0)",
        ),
        pytest.param(
            {
                "conf/a.yaml": CONFIG,
                "launch.py": READ,
                "schema.py": "from dataclasses import dataclass\n\n@dataclass\nclass TrainerConf:\n"
                "    gpus: int = 0\n    max_epochs: int = 1\n",
            },
            False,
            id="a structured-config schema",
        ),
    ],
)
def test_reads_move_with_their_key_or_not_at_all(tmp_path: Path, files: dict[str, str], moves: bool | str) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    main([str(tmp_path), "--target-version", "2.0", "-j", "1", "--no-progress"])
    launch = (tmp_path / "launch.py").read_text(encoding="utf-8")
    config = (tmp_path / "conf" / "a.yaml").read_text(encoding="utf-8")
    if moves == "expression":
        assert '(cfg.trainer.devices if cfg.trainer.accelerator == "gpu" else 0)' in launch
    if moves:
        moved = "cfg.trainer.devices" in launch or "cfg.trainer.get('devices')" in launch
        assert moved and "gpus" not in launch.replace("gpus_per_node", "")
        assert config == "trainer:\n  accelerator: gpu\n  devices: 2\n  max_epochs: 1\n"
    else:
        assert launch == files["launch.py"]
        assert "gpus: 2" in config and "[project_guard]" in config
    before = {p: p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file()}
    main([str(tmp_path), "--target-version", "2.0", "-j", "1", "--no-progress"])
    assert {p: p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file()} == before


NO_GPUS = "lightning:\n  trainer:\n    max_epochs: 1\n"
LDM_READ = "def count(config):\n    return len(config.lightning.trainer.gpus.strip(',').split(','))\n"


@pytest.mark.parametrize(
    ("files", "target", "todo"),
    [
        pytest.param({"conf/a.yaml": NO_GPUS, "launch.py": LDM_READ}, "2.0", True, id="nothing sets the key"),
        pytest.param(
            {"conf/a.yaml": NO_GPUS, "launch.py": LDM_READ.replace("gpus", "tpu_cores")},
            "2.0",
            True,
            id="tpu_cores too",
        ),
        pytest.param({"conf/a.yaml": NO_GPUS, "launch.py": LDM_READ}, "1.9", False, id="1.9 still takes gpus="),
        pytest.param(
            {"conf/a.yaml": "lightning:\n  trainer:\n    gpus: 0,\n", "launch.py": LDM_READ},
            "2.0",
            False,
            id="a nested section sets it: the config's TODO covers the read",
        ),
        pytest.param(
            {
                "conf/a.yaml": NO_GPUS,
                "launch.py": LDM_READ + "def cpu(config):\n    config.lightning.trainer.gpus = 0\n",
            },
            "2.0",
            False,
            id="code stores it",
        ),
        pytest.param(
            {"conf/a.yaml": NO_GPUS, "launch.py": LDM_READ, "run.sh": "python main.py trainer.gpus=2\n"},
            "2.0",
            False,
            id="an override passes it",
        ),
        pytest.param(
            {
                "launch.py": LDM_READ,
                "schema.py": "from dataclasses import dataclass\n\n@dataclass\nclass TrainerConf:\n"
                "    gpus: int = 0\n    max_epochs: int = 1\n",
            },
            "2.0",
            False,
            id="a schema types it",
        ),
    ],
)
def test_a_read_nothing_sets_gets_a_todo(tmp_path: Path, files: dict[str, str], target: str, todo: bool) -> None:
    """``config.lightning.trainer.gpus`` filled from a command line (latent-diffusion's ``--gpus 0,``): one TODO
    above the read, since no config's TODO names it; none where anything in the project sets the key."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    main([str(tmp_path), "--target-version", target, "-j", "1", "--no-progress"])
    launch = (tmp_path / "launch.py").read_text(encoding="utf-8")
    assert (f"[{RULE}]" in launch) is todo
    if todo:
        key = "tpu_cores" if "tpu_cores" in files["launch.py"] else "gpus"
        assert launch.count("TODO(migrate-trainer)") == 1 and f"reads the Trainer flag {key}," in launch
        assert launch.replace(launch.splitlines()[1] + "\n", "") == files["launch.py"], "only the TODO line is new"


def test_a_read_passed_to_its_flag_is_left_to_the_flag_rules(tmp_path: Path) -> None:
    """``Trainer(tpu_cores=configs.trainer.tpu_cores)``: the read stays the flag's value whatever the flag becomes."""
    source = (
        "import pytorch_lightning as pl\n\n\ndef build(configs):\n"
        "    return pl.Trainer(tpu_cores=configs.trainer.tpu_cores, max_epochs=1)\n"
    )
    (tmp_path / "launch.py").write_text(source, encoding="utf-8")
    main([str(tmp_path), "--target-version", "2.0", "-j", "1", "--no-progress"])
    assert f"[{RULE}]" not in (tmp_path / "launch.py").read_text(encoding="utf-8")
