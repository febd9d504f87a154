"""Sharded FSDP checkpoints' clear errors (the save -> load -> resume row is in test_resume.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from newcore import MisconfigurationException, Runner
from newcore.checkpoint_sharded import METADATA_FILE
from newcore.strategies import DDPFullyShardedStrategy


def test_an_unknown_state_dict_type_is_named() -> None:
    with pytest.raises(MisconfigurationException, match=r"state_dict_type='local'.*Pass \"full\".*or \"sharded\""):
        DDPFullyShardedStrategy(state_dict_type="local")


@pytest.mark.parametrize(
    ("state", "message"),
    [
        pytest.param({"step": 0}, r"holds per-rank shards written by `fsdp`.*dcp_to_torch_save", id="not under fsdp"),
        pytest.param(None, r"holds per-rank shards written by `fsdp`", id="not under fsdp, without a state"),
    ],
)
def test_a_sharded_checkpoint_outside_fsdp_is_named(state: object, message: str, tmp_path: Path) -> None:
    # What `Runner.save` writes besides the shards: it is what marks the directory as a sharded checkpoint.
    torch.save({"step": 3}, tmp_path / METADATA_FILE)
    with pytest.raises(MisconfigurationException, match=message):
        Runner().load(tmp_path, state)  # type: ignore[arg-type]
