"""A Trainer section under a key the code computes (``Trainer(**cfg.get(f"{name}_trainer"))``): the f-string reads as
a pattern (``codemods.project.config_chains.computed_key``), matched against the top-level keys the project's configs
hold (``spelled_keys``)."""

from __future__ import annotations

import ast

import pytest

from codemods.project.config_chains import computed_key, spelled_keys


@pytest.mark.parametrize(
    ("source", "pattern"),
    [
        pytest.param('cfg.get(f"{model_name}_trainer")', "{}_trainer", id="get with an f-string"),
        pytest.param('cfg[f"{model_name}_trainer"]', "{}_trainer", id="a subscript with an f-string"),
        pytest.param('cfg.pop(f"trainer_{stage}")', "trainer_{}", id="pop, the formatted part last"),
        pytest.param('cfg.get(f"{a}_{b}")', None, id="no text naming a trainer: it could spell any key"),
        pytest.param('cfg.get("trainer_params")', None, id="a literal key is no pattern"),
        pytest.param('self.cfg.get(f"{m}_trainer")', None, id="not the config's own top level"),
        pytest.param('cfg.get(f"{m}_{{trainer}}")', None, id="braces in the text"),
    ],
)
def test_computed_key(source: str, pattern: str | None) -> None:
    assert computed_key(ast.parse(source, mode="eval").body) == pattern


def test_a_pattern_spells_the_keys_it_matches_whole() -> None:
    keys = ["decoder_trainer", "tagger_trainer", "trainer_params", "_trainer"]
    assert spelled_keys("{}_trainer", keys) == ["decoder_trainer", "tagger_trainer"]
    assert spelled_keys("trainer_params", keys) == ["trainer_params"]
