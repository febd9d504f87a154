"""The prefilter's vocabulary (``legacy_api/data/surface_vocabulary.json``) is what the recorded surfaces, the hook
table and the keyword table give today: regenerated in memory and compared."""

from __future__ import annotations

import json

from legacy_api import vocabulary


def test_the_vocabulary_file_is_current() -> None:
    stored = json.loads(json.dumps(vocabulary._data()))
    assert stored == json.loads(json.dumps(vocabulary.build())), "run python tools/reference/surface_vocabulary.py"


def test_it_holds_what_the_rules_look_for() -> None:
    assert "pytorch_lightning.utilities.seed.seed_everything" in vocabulary.missing()
    assert "validation_epoch_end" in vocabulary.hooks()
    assert {"train_dataloader", "every_n_val_epochs", "num_nodes"} <= vocabulary.keywords()
    assert "optimizer_idx" in vocabulary.gone()["training_step"]
