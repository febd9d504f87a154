"""legacy_api.surface: the recorded API surface of each Lightning release.

Every fact in the rows below was checked in the real release (tools/reference/.venvs/surface/<release>, imported
and inspected), not taken from memory or docs.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from legacy_api import surface as api

ROOT = Path(__file__).resolve().parents[2]
#: where tools/reference/surface_generate.py keeps each release's full recording (outside the repository)
FULL_DIR = (
    Path(os.environ.get("PLREF_SURFACE_ROOT", Path.home() / ".cache" / "lightning-migrate" / "surface"))
    / "surface-full"
)
MAPS = ("modules", "classes", "aliases", "graveyard", "deprecated", "unimportable")

EXISTS = [
    # (release, path, exists)
    pytest.param(
        "1.5", "pytorch_lightning.utilities.seed.seed_everything", True, id="1.5 has utilities.seed.seed_everything"
    ),
    pytest.param(
        "1.9",
        "pytorch_lightning.utilities.seed.seed_everything",
        True,
        id="1.9 still has utilities.seed.seed_everything",
    ),
    pytest.param(
        "2.0",
        "pytorch_lightning.utilities.seed.seed_everything",
        False,
        id="2.0 dropped utilities.seed.seed_everything",
    ),
    pytest.param("2.6", "lightning.pytorch.seed_everything", True, id="2.6 has seed_everything at the root"),
    pytest.param("1.5", "pytorch_lightning.utilities.cli.LightningCLI", True, id="1.5 has utilities.cli.LightningCLI"),
    pytest.param(
        "1.9",
        "pytorch_lightning.utilities.cli.LightningCLI",
        False,
        id="1.9 keeps utilities.cli.LightningCLI only in the graveyard",
    ),
    pytest.param("1.9", "pytorch_lightning.cli.LightningCLI", True, id="1.9 has cli.LightningCLI"),
    pytest.param("1.5", "pytorch_lightning.cli", False, id="1.5 has no pytorch_lightning.cli module"),
    pytest.param("2.6", "pytorch_lightning.utilities.cli", False, id="2.6 has no utilities.cli module"),
    pytest.param(
        "1.5", "pytorch_lightning.core.lightning.LightningModule", True, id="1.5 has core.lightning.LightningModule"
    ),
    pytest.param(
        "1.9",
        "pytorch_lightning.core.lightning.LightningModule",
        False,
        id="1.9 keeps core.lightning only in the graveyard",
    ),
    pytest.param(
        "2.0", "pytorch_lightning.core.module.LightningModule", True, id="2.0 has core.module.LightningModule"
    ),
    pytest.param(
        "1.5",
        "pytorch_lightning.LightningModule.training_epoch_end",
        True,
        id="1.5 LightningModule has training_epoch_end",
    ),
    pytest.param(
        "1.9",
        "pytorch_lightning.LightningModule.training_epoch_end",
        True,
        id="1.9 LightningModule has training_epoch_end",
    ),
    pytest.param(
        "2.0",
        "pytorch_lightning.LightningModule.training_epoch_end",
        False,
        id="2.0 LightningModule lost training_epoch_end",
    ),
    pytest.param(
        "2.6",
        "lightning.pytorch.LightningModule.training_epoch_end",
        False,
        id="2.6 LightningModule has no training_epoch_end",
    ),
    pytest.param("1.5", "pytorch_lightning.Trainer.num_gpus", True, id="1.5 Trainer has num_gpus"),
    pytest.param(
        "1.5", "pytorch_lightning.trainer.trainer.Trainer.num_gpus", True, id="1.5 num_gpus through the defining path"
    ),
    pytest.param("1.9", "pytorch_lightning.Trainer.num_gpus", False, id="1.9 Trainer.num_gpus is a graveyard property"),
    pytest.param("2.6", "pytorch_lightning.Trainer.num_gpus", False, id="2.6 Trainer has no num_gpus"),
    pytest.param("2.6", "pytorch_lightning.Trainer.fit", True, id="2.6 Trainer has fit"),
    pytest.param("1.5", "pytorch_lightning.plugins.DDPPlugin", True, id="1.5 has plugins.DDPPlugin"),
    pytest.param("2.0", "pytorch_lightning.plugins.DDPPlugin", False, id="2.0 has no plugins.DDPPlugin"),
    pytest.param("1.5", "pytorch_lightning.strategies", False, id="1.5 has no strategies package"),
    pytest.param(
        "1.9",
        "pytorch_lightning.accelerators.GPUAccelerator",
        False,
        id="1.9 keeps GPUAccelerator only in the graveyard",
    ),
    pytest.param(
        "2.0", "pytorch_lightning.accelerators.TPUAccelerator", True, id="2.0 still has a real TPUAccelerator"
    ),
    pytest.param(
        "2.6",
        "pytorch_lightning.accelerators.TPUAccelerator",
        False,
        id="2.6 keeps TPUAccelerator only as a deprecated graveyard shim",
    ),
    pytest.param(
        "2.6", "pytorch_lightning.accelerators.HPUAccelerator", False, id="2.6 HPUAccelerator raises: graveyard"
    ),
]


@pytest.mark.parametrize(("version", "path", "exists"), EXISTS)
def test_has(version: str, path: str, exists: bool) -> None:
    assert api.surface(version).has(path) is exists


GRAVEYARD = [
    pytest.param(
        "1.9",
        "pytorch_lightning.Trainer.num_gpus",
        "removed: AttributeError: `Trainer.num_gpus` was deprecated in v1.6",
        id="1.9 Trainer.num_gpus raises AttributeError",
    ),
    pytest.param(
        "1.9",
        "pytorch_lightning.utilities.cli.LightningCLI",
        "removed: NotImplementedError: `pytorch_lightning.utilities.cli.LightningCLI` was deprecated in v1.7.0",
        id="1.9 utilities.cli.LightningCLI raises",
    ),
    pytest.param(
        "1.9",
        "pytorch_lightning.core.lightning",
        "graveyard module pytorch_lightning._graveyard.core",
        id="1.9 core.lightning is a graveyard module",
    ),
    pytest.param(
        "2.6",
        "pytorch_lightning.accelerators.TPUAccelerator",
        "deprecated: The `TPUAccelerator` class is deprecated.",
        id="2.6 TPUAccelerator only warns",
    ),
    pytest.param(
        "2.6",
        "pytorch_lightning.accelerators.HPUAccelerator",
        "removed: NotImplementedError: The `HPUAccelerator` class has been removed.",
        id="2.6 HPUAccelerator raises",
    ),
    pytest.param(
        "2.6",
        "pytorch_lightning.plugins.precision.precision_plugin",
        "alias of pytorch_lightning.plugins.precision.precision",
        id="2.6 precision_plugin is a module alias",
    ),
    pytest.param("2.0", "pytorch_lightning.core.lightning", None, id="2.0 has no graveyard entry for core.lightning"),
    pytest.param("1.5", "pytorch_lightning.Trainer.num_gpus", None, id="1.5 Trainer.num_gpus is real"),
]


@pytest.mark.parametrize(("version", "path", "message"), GRAVEYARD)
def test_graveyard(version: str, path: str, message: str | None) -> None:
    found = api.surface(version).graveyard(path)
    assert found == message if message is None else (found or "").startswith(message)


SIGNATURES = [
    pytest.param(
        "1.5",
        "pytorch_lightning.LightningModule.training_step",
        "(self, *args, **kwargs)",
        id="1.5 training_step(*args, **kwargs)",
    ),
    pytest.param(
        "2.6",
        "lightning.pytorch.LightningModule.training_step",
        "(self, *args, **kwargs)",
        id="2.6 training_step(*args, **kwargs)",
    ),
    pytest.param(
        "1.9",
        "pytorch_lightning.LightningModule.optimizer_step",
        "(self, epoch, batch_idx, optimizer, optimizer_idx=0, optimizer_closure=None, on_tpu=False, using_lbfgs=False)",
        id="1.9 optimizer_step has optimizer_idx",
    ),
    pytest.param(
        "2.0",
        "pytorch_lightning.LightningModule.optimizer_step",
        "(self, epoch, batch_idx, optimizer, optimizer_closure=None)",
        id="2.0 optimizer_step lost optimizer_idx",
    ),
    pytest.param(
        "1.5",
        "pytorch_lightning.Callback.on_train_batch_end",
        "(self, trainer, pl_module, outputs, batch, batch_idx, unused=0)",
        id="1.5 on_train_batch_end has unused",
    ),
    pytest.param(
        "1.9",
        "pytorch_lightning.Callback.on_train_batch_end",
        "(self, trainer, pl_module, outputs, batch, batch_idx)",
        id="1.9 on_train_batch_end lost unused",
    ),
    pytest.param(
        "2.6", "pytorch_lightning.LightningModule.state_dict", None, id="torch's own methods have no recorded signature"
    ),
    pytest.param("2.6", "pytorch_lightning.Trainer.num_gpus", None, id="no signature for what the class lacks"),
]


@pytest.mark.parametrize(("version", "path", "expected"), SIGNATURES)
def test_signature(version: str, path: str, expected: str | None) -> None:
    assert api.surface(version).signature(path) == expected


@pytest.mark.parametrize(
    ("version", "accepts_gpus"),
    [
        pytest.param("1.5", True, id="1.5 Trainer(gpus=) accepted"),
        pytest.param("1.9", True, id="1.9 Trainer(gpus=) accepted"),
        pytest.param("2.0", False, id="2.0 Trainer(gpus=) refused"),
        pytest.param("2.6", False, id="2.6 Trainer(gpus=) refused"),
    ],
)
def test_trainer_init_gpus(version: str, accepts_gpus: bool) -> None:
    sig = api.surface(version).signature("pytorch_lightning.Trainer.__init__")
    assert sig is not None and sig.startswith("(self")
    assert (" gpus=" in sig) is accepts_gpus


def test_resolve_maps_public_paths_to_the_defining_class() -> None:
    old, new = api.surface("1.5"), api.surface("2.6")
    assert old.resolve("pytorch_lightning.LightningModule") == "pytorch_lightning.core.lightning.LightningModule"
    assert new.resolve("lightning.pytorch.LightningModule") == "pytorch_lightning.core.module.LightningModule"
    assert new.resolve("pytorch_lightning.trainer.Trainer") == "pytorch_lightning.trainer.trainer.Trainer"
    assert new.resolve("pytorch_lightning.callbacks") == "pytorch_lightning.callbacks"
    assert new.resolve("pytorch_lightning.NoSuchThing") is None
    assert "fit" in (new.members("pytorch_lightning.Trainer") or ())
    assert new.members("pytorch_lightning.seed_everything") is None
    assert "seed_everything" in new.exports("lightning.pytorch")
    assert new.home("seed_everything") == "pytorch_lightning"
    assert old.home("DDPPlugin") == "pytorch_lightning.plugins" and new.home("DDPPlugin") is None


@pytest.mark.parametrize(
    ("version", "release"),
    [("2.6", "2.6.6"), ("1.5", "1.5.10"), ("1.5.3", "1.5.10"), ("2.0.9", "2.0.9"), ("1.4", "1.4.9")],
)
def test_release_for(version: str, release: str) -> None:
    assert api.release_for(version) == release


def test_release_for_an_unrecorded_minor_names_the_recorded_ones() -> None:
    with pytest.raises(ValueError, match=r"recorded: 1\.4\.9, 1\.5\.10"):
        api.release_for("1.3")


def test_every_minor_from_1_4_to_the_newest_is_recorded() -> None:
    minors = [tuple(int(p) for p in r.split(".")[:2]) for r in api.RELEASES]
    assert minors == sorted(minors) and len(set(minors)) == len(minors)
    assert minors[0] == (1, 4) and (1, 9) in minors and (2, 0) in minors and minors[-1] >= (2, 6)


def test_removed_lists_what_the_newer_release_lacks() -> None:
    gone = api.removed("1.5", "2.6")
    assert "pytorch_lightning.core.lightning" in gone.modules
    assert "pytorch_lightning.utilities.seed.seed_everything" in gone.names
    assert "pytorch_lightning.Trainer.num_gpus" in gone.members
    assert "pytorch_lightning.LightningModule.training_epoch_end" in gone.members
    assert "pytorch_lightning.Trainer.fit" not in gone.members
    assert not api.removed("2.6", "2.6").members


@pytest.mark.parametrize("release", api.RELEASES)
def test_rebuild_from_base_and_changes_matches_the_recording(release: str) -> None:
    """The digest is of the full recording; a kept full recording (``FULL_DIR``) is compared too."""
    rebuilt = api.recording(release)
    text = json.dumps({key: rebuilt[key] for key in MAPS}, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest() == api._data()["digests"][release]
    kept = FULL_DIR / f"{release}.json"
    if kept.is_file():
        full = json.loads(kept.read_text(encoding="utf-8"))
        assert {key: full[key] for key in MAPS} == {key: rebuilt[key] for key in MAPS}


def test_graveyard_names_are_not_counted_as_existing() -> None:
    for version in ("1.9", "2.6"):
        s = api.surface(version)
        for name in s.graveyard_names:
            assert not s.has_module(name) and name not in s.classes, name


def test_the_reader_imports_only_the_standard_library() -> None:
    code = (
        "import sys; before = set(sys.modules); import legacy_api.surface as s; s.surface('2.6').has('x');"
        "new = {m.split('.')[0] for m in set(sys.modules) - before};"
        "bad = sorted(m for m in new if m not in sys.stdlib_module_names and m != 'legacy_api'); print(bad);"
        "sys.exit(bool(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("path", "knows"),
    [
        pytest.param("pytorch_lightning.utilities.seed.seed_everything", True, id="a module's name"),
        pytest.param("pytorch_lightning.Trainer.num_gpus", True, id="a class member"),
        pytest.param("pytorch_lightning.utilities.distributed.log", True, id="below a missing module"),
        pytest.param("pytorch_lightning.utilities.rank_zero_only.rank", False, id="an attribute of a function"),
    ],
)
def test_knows_what_the_recording_can_answer(path: str, knows: bool) -> None:
    assert api.surface("2.6.6").knows(path) is knows
