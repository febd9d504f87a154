"""Rule ``config_stores``: ``cfg.trainer.gpus = 1`` -> the keys the migrated configs hold, where the key moves.

One row per project shape, run through the real CLI on a temporary tree: a store moves only where every use of its
key in the project is a store with a value the table translates (or a command line); then the configs migrate
too. Otherwise the store and the configs stay, with the project guard's TODO. The whole-project fixture
``config_stores_in_a_test`` shows the full output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codemods.cli import main

CONFIG = "trainer:\n  gpus: 2\n  accelerator: ddp\n  max_epochs: 1\n"
TEST = "def test_it(config):\n    config.trainer.{key} = {value}\n    return Trainer(**config.trainer)\n"


def _test(key: str, value: str) -> str:
    return TEST.format(key=key, value=value)


@pytest.mark.parametrize(
    ("files", "stored"),
    [
        pytest.param(
            {"test_a.py": _test("gpus", "1")},
            '    config.trainer.accelerator = "gpu"\n    config.trainer.devices = 1\n',
            id="gpus=N: a GPU count",
        ),
        pytest.param(
            {"test_a.py": _test("gpus", "0")},
            '    config.trainer.accelerator = "cpu"\n    config.trainer.devices = 1\n',
            id="gpus=0: one CPU process",
        ),
        pytest.param(
            {"test_a.py": _test("accelerator", "None")},
            '    config.trainer.strategy = "auto"\n',
            id="accelerator=None: no backend, the target chooses",
        ),
        pytest.param(
            {"test_a.py": _test("accelerator", '"ddp_spawn"')},
            '    config.trainer.strategy = "ddp_spawn"\n',
            id="accelerator=<a strategy 2.x still has>: that strategy",
        ),
        pytest.param(
            {"test_a.py": _test("gpus", "1"), "run.py": "def n(cfg):\n    return cfg.trainer.gpus\n"},
            '    config.trainer.accelerator = "gpu"\n    config.trainer.devices = 1\n',
            id="a read elsewhere moves with the key (config_reads), so the store does too",
        ),
        pytest.param(
            {"test_a.py": _test("gpus", "1"), "run.py": "def n(cfg):\n    return cfg['trainer']['gpus']\n"},
            None,
            id="a read that cannot move would see the config where it saw the store",
        ),
        pytest.param(
            {"test_a.py": _test("gpus", "n")},
            None,
            id="a value that is no literal",
        ),
        pytest.param(
            {"test_a.py": _test("accelerator", '"gpu"')},
            None,
            id="a device type: 1.5 dropped the backend, the target would keep it",
        ),
        pytest.param(
            {
                "test_a.py": _test("gpus", "1"),
                "schema.py": "@dataclass\nclass TrainerConf:\n    gpus: int = 0\n    max_epochs: int = 1\n",
            },
            '    config.trainer.accelerator = "gpu"\n    config.trainer.devices = 1\n',
            id="a schema names the key and migrates with the configs: it has the new keys then",
        ),
        pytest.param(
            {
                "test_a.py": _test("gpus", "1"),
                "schema.py": "@dataclass\nclass TrainerConf:\n    gpus: int = GPUS\n    max_epochs: int = 1\n",
            },
            None,
            id="a schema that cannot migrate: the store may go into a dataclass that drops new keys",
        ),
        pytest.param(
            {
                "test_a.py": _test("gpus", "1"),
                "train.py": "@hydra.main(config_path='conf', config_name='a')\ndef main(cfg):\n"
                "    return cfg.trainer.gpus\n",
            },
            '    config.trainer.accelerator = "gpu"\n    config.trainer.devices = 1\n',
            id="a read in code that loads its configs never sees the store: both move with the key",
        ),
        pytest.param(
            {"test_a.py": _test("gpus", "0"), "conf/tpu.yaml": "trainer:\n  tpu_cores: 8\n"},
            None,
            id="gpus=0 next to a config with another device flag",
        ),
    ],
)
def test_stores_move_with_their_key_or_not_at_all(tmp_path: Path, files: dict[str, str], stored: str | None) -> None:
    files = {"conf/a.yaml": CONFIG, **files}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    main([str(tmp_path), "--target-version", "2.0", "-j", "1", "--no-progress"])
    test = (tmp_path / "test_a.py").read_text(encoding="utf-8")
    config = (tmp_path / "conf" / "a.yaml").read_text(encoding="utf-8")
    if stored is not None:
        assert test == "def test_it(config):\n" + stored + "    return Trainer(**config.trainer)\n"
        assert config == "trainer:\n  accelerator: gpu\n  devices: 2\n  strategy: ddp\n  max_epochs: 1\n"
    else:
        assert test == files["test_a.py"]
        assert "[project_guard]" in config
    before = {p: p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file()}
    main([str(tmp_path), "--target-version", "2.0", "-j", "1", "--no-progress"])
    assert {p: p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file()} == before, "a second run"


def test_before_2_0_the_store_stays(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "a.yaml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "test_a.py").write_text(_test("gpus", "1"), encoding="utf-8")
    main([str(tmp_path), "--target-version", "1.9", "-j", "1", "--no-progress"])
    assert (tmp_path / "test_a.py").read_text(encoding="utf-8") == _test("gpus", "1")
