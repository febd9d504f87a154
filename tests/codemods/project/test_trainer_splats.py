"""Phase one's byte prefilter for a mapping splatted into a Trainer call (``Trainer(**config["trainer_params"])``):
the whole call is read, however long, and only its own arguments count."""

from __future__ import annotations

import pytest

from codemods.project.scan import _splats_into


@pytest.mark.parametrize(
    ("source", "found"),
    [
        pytest.param(b'Trainer(**config["trainer_params"])', True, id="the splat alone"),
        pytest.param(
            b"Trainer(\n    logger=logger,\n    callbacks=[\n        ModelCheckpoint(\n            dirpath=os.path.join"
            b'(a, "b"),\n            monitor="val_loss",\n        ),\n    ],\n    strategy=DDPPlugin(),\n'
            b'    **config["trainer_params"],\n)\n',
            True,
            id="after arguments that call things, over many lines",
        ),
        pytest.param(b"Trainer(callbacks=[make(**options)])", False, id="a splat into a nested call"),
        pytest.param(b"Trainer(max_epochs=1)\nf(**kwargs)\n", False, id="a splat after the call closed"),
        pytest.param(b"pl.Trainer (gpus=1, **rest)", True, id="a space before the parenthesis"),
    ],
)
def test_splats_into(source: bytes, found: bool) -> None:
    assert _splats_into(source) is found
