"""CheckpointIO plugins on the real file system."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch

from newcore.exceptions import MisconfigurationException, MissingBackendError
from newcore.plugins.io import CheckpointIO, TorchCheckpointIO, XLACheckpointIO


def test_round_trip_leaves_no_temporary_file(tmp_path: Path) -> None:
    io = TorchCheckpointIO()
    weights = torch.nn.Linear(2, 2).state_dict()
    state = {"state_dict": weights, "epoch": 3, "hparams": {"lr": 0.1}}
    path = tmp_path / "deep" / "er" / "last.ckpt"
    io.save_checkpoint(state, path)
    loaded = io.load_checkpoint(path, map_location="cpu")
    assert loaded["epoch"] == 3 and loaded["hparams"] == {"lr": 0.1}
    assert all(torch.equal(loaded["state_dict"][k], v) for k, v in weights.items())
    assert [p.name for p in path.parent.iterdir()] == ["last.ckpt"]


def test_overwrite_replaces_the_old_checkpoint(tmp_path: Path) -> None:
    io = TorchCheckpointIO()
    io.save_checkpoint({"step": 1}, str(tmp_path / "c.ckpt"))
    io.save_checkpoint({"step": 2}, str(tmp_path / "c.ckpt"))
    assert io.load_checkpoint(tmp_path / "c.ckpt")["step"] == 2


def test_failed_save_keeps_the_old_checkpoint_and_no_temporary(tmp_path: Path) -> None:
    io = TorchCheckpointIO()
    path = tmp_path / "c.ckpt"
    io.save_checkpoint({"step": 1}, path)
    with pytest.raises(Exception, match="pickle"):
        io.save_checkpoint({"step": 2, "bad": lambda: None}, path)
    assert io.load_checkpoint(path)["step"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["c.ckpt"]


def test_load_missing_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not found"):
        TorchCheckpointIO().load_checkpoint(tmp_path / "nope.ckpt")


@pytest.mark.parametrize("kind", ["file", "folder", "missing"])
def test_remove_checkpoint(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "ckpt"
    if kind == "file":
        path.write_bytes(b"x")
    elif kind == "folder":
        (path / "shard").mkdir(parents=True)
        (path / "shard" / "0.pt").write_bytes(b"x")
    TorchCheckpointIO().remove_checkpoint(path)
    assert not path.exists()


@pytest.mark.parametrize(
    ("path", "options", "message"),
    [
        pytest.param("s3://bucket/c.ckpt", None, "writes local files only", id="remote url"),
        pytest.param("c.ckpt", {"acl": "private"}, "takes no `storage_options`", id="storage options"),
    ],
)
def test_save_refuses(tmp_path: Path, path: str, options: object, message: str) -> None:
    with pytest.raises(MisconfigurationException, match=message):
        TorchCheckpointIO().save_checkpoint({}, path if "://" in path else tmp_path / path, storage_options=options)


@pytest.mark.skipif("torch_xla" in sys.modules, reason="needs a machine without torch-xla")
def test_xla_save_without_torch_xla_names_the_extra(tmp_path: Path) -> None:
    with pytest.raises(MissingBackendError, match=r"pip install 'lightning-migrate\[xla\]'"):
        XLACheckpointIO().save_checkpoint({}, tmp_path / "c.ckpt")
    assert not (tmp_path / "c.ckpt").exists()


def test_xla_checkpoints_load_without_xla(tmp_path: Path) -> None:
    TorchCheckpointIO().save_checkpoint({"a": 1}, tmp_path / "c.ckpt")
    assert XLACheckpointIO().load_checkpoint(tmp_path / "c.ckpt") == {"a": 1}
    assert isinstance(XLACheckpointIO(), CheckpointIO)
