"""Rule ``removed_arguments`` (deprecated in 1.5): Trainer arguments later releases removed are renamed, dropped
where they held the default, or get one TODO for the call.

The removal release of each row is the first real ``Trainer.__init__`` without it (legacy_api/removed_arguments.py).
"""

from __future__ import annotations

import pytest

from legacy_api.removed_arguments import REMOVED_ARGUMENTS, refused_at
from tests.codemods.helpers import check_transformed, exercised, run

RULE = "removed_arguments"
_T = "from pytorch_lightning import Trainer\n"

TRANSFORMED = [
    pytest.param(
        _T + "Trainer(checkpoint_callback=False)\n", _T + "Trainer(enable_checkpointing=False)\n", "2.6", id="renamed"
    ),
    pytest.param(
        _T + "Trainer(checkpoint_callback=True, enable_checkpointing=False)\n",
        _T + "Trainer(enable_checkpointing=False)\n",
        "2.6",
        id="checkpoint_callback=True next to enable_checkpointing: 1.5 checkpointed only if both were True",
    ),
    pytest.param(
        _T + "Trainer(checkpoint_callback=False, enable_checkpointing=True)\n",
        _T + "Trainer(enable_checkpointing=False)\n",
        "2.6",
        id="checkpoint_callback=False next to enable_checkpointing=True: no checkpoints",
    ),
    pytest.param(
        _T + "from pytorch_lightning.callbacks import ModelCheckpoint\nckpt = ModelCheckpoint(monitor='x')\n"
        "Trainer(checkpoint_callback=ckpt)\n",
        _T + "from pytorch_lightning.callbacks import ModelCheckpoint\nckpt = ModelCheckpoint(monitor='x')\n"
        "Trainer(enable_checkpointing=True)\n",
        "2.6",
        id="a name holding a ModelCheckpoint: 1.5 read it as True and used its own (checkpoint_callback_object.py)",
    ),
    pytest.param(
        _T
        + "from pytorch_lightning.callbacks import ModelCheckpoint\nTrainer(checkpoint_callback=ModelCheckpoint())\n",
        _T + "from pytorch_lightning.callbacks import ModelCheckpoint\nTrainer(enable_checkpointing=True)\n",
        "2.6",
        id="a ModelCheckpoint built in the call: the same, 1.5 never used the object",
    ),
    pytest.param(
        _T + "Trainer(progress_bar_refresh_rate=0, weights_summary=None)\n",
        _T + "Trainer(enable_progress_bar=False, enable_model_summary=False)\n",
        "1.7",
        id="the values a flag spells",
    ),
    pytest.param(
        _T + "Trainer(weights_summary='top', max_epochs=3, terminate_on_nan=False)\n",
        _T + "Trainer(max_epochs=3)\n",
        "2.6",
        id="defaults are dropped",
    ),
    pytest.param(
        _T + "Trainer(reload_dataloaders_every_epoch=True)\n",
        _T + "Trainer(reload_dataloaders_every_n_epochs=1)\n",
        "1.6",
        id="reload every epoch (gone in 1.6)",
    ),
    pytest.param(
        _T + "Trainer(progress_bar_refresh_rate=20, callbacks=[early])\n",
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.callbacks import TQDMProgressBar\n\n"
        "Trainer(callbacks=[early, TQDMProgressBar(refresh_rate=20)])\n",
        "2.6",
        id="the bar 1.5 built from the rate joins the callbacks",
    ),
    pytest.param(
        _T + "import torch\nN = min(1, torch.cuda.device_count())\n"
        "Trainer(progress_bar_refresh_rate=10, gpus=N, callbacks=[monitor])\n",
        "from pytorch_lightning import Trainer\nimport torch\nfrom pytorch_lightning.callbacks import TQDMProgressBar\n\n"
        "N = min(1, torch.cuda.device_count())\n"
        'Trainer(accelerator="gpu" if N else "cpu", devices=1, callbacks=[monitor, TQDMProgressBar(refresh_rate=10)])\n',
        "2.6",
        id="the callbacks list is a new value: the trials of a non-literal device flag share the old one",
    ),
    pytest.param(
        _T + 'Trainer(weights_summary="full", callbacks=[early])\n',
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.callbacks import ModelSummary\n\n"
        "Trainer(callbacks=[early, ModelSummary(max_depth=-1)])\n",
        "2.6",
        id="the full summary 1.5 built joins the callbacks",
    ),
    pytest.param(
        _T + "Trainer(progress_bar_refresh_rate=5, process_position=2)\n",
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.callbacks import TQDMProgressBar\n\n"
        "Trainer(callbacks=[TQDMProgressBar(refresh_rate=5, process_position=2)])\n",
        "2.6",
        id="the rate and the position make one bar, as in 1.5",
    ),
    pytest.param(
        _T + 'Trainer(weights_summary="full", callbacks=[RichProgressBar()])\n',
        _T
        + "# TODO(migrate-trainer): weights_summary='full' (gone in 1.7): pass callbacks=[ModelSummary(max_depth=-1)] "
        'for "full" (pytorch_lightning.callbacks) [removed_arguments]\n'
        'Trainer(weights_summary="full", callbacks=[RichProgressBar()])\n',
        "2.6",
        id="next to the user's rich bar 1.5 built a RichModelSummary: a TODO",
    ),
    pytest.param(
        _T + "Trainer(progress_bar_refresh_rate=True)\n",
        _T + "# TODO(migrate-trainer): progress_bar_refresh_rate=True (gone in 1.7): pass callbacks=[TQDMProgressBar("
        "refresh_rate=N)] (pytorch_lightning.callbacks) [removed_arguments]\nTrainer(progress_bar_refresh_rate=True)\n",
        "2.6",
        id="True is not the refresh rate 1",
    ),
    pytest.param(
        _T + "Trainer(resume_from_checkpoint=path)\n",
        _T + "Trainer(resume_from_checkpoint=path)\n",
        "1.9",
        id="still there before its removal",
    ),
    pytest.param(
        _T + "Trainer(resume_from_checkpoint=path, auto_lr_find=True)\n",
        _T + "# TODO(migrate-trainer): resume_from_checkpoint=path (gone in 2.0): pass ckpt_path= to trainer.fit() "
        "instead; auto_lr_find=True (gone in 2.0): run Tuner(trainer).lr_find(model) (pytorch_lightning.tuner) "
        "[removed_arguments]\nTrainer(resume_from_checkpoint=path, auto_lr_find=True)\n",
        "2.0",
        id="one TODO for the call",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


_CKPT = _T + "from pytorch_lightning.callbacks import ModelCheckpoint\nckpt = ModelCheckpoint({})\n"
OLDER = [
    pytest.param(
        "filepath='x'",
        "Trainer(callbacks=[a], checkpoint_callback=ckpt)",
        "Trainer(callbacks=[a, ckpt])",
        "fix",
        id="arguments 1.5 refused: older code, which 1.2 trained with (appended to the callbacks); so does the rewrite",
    ),
    pytest.param(
        "filepath='x'",
        "Trainer(checkpoint_callback=ModelCheckpoint(filepath='y'))",
        "Trainer(callbacks=[ModelCheckpoint(filepath='y')])",
        "fix",
        id="built in the call, no callbacks: the list is made",
    ),
    pytest.param(
        "filepath='x'",
        "Trainer.from_argparse_args(args, checkpoint_callback=ckpt)",
        "Trainer.from_argparse_args(args, checkpoint_callback=ckpt)",
        "todo",
        id="callbacks out of sight: a TODO saying the object was used (mrc-ner had lost its monitor)",
    ),
    pytest.param(
        "monitor='m', period=1",
        "Trainer.from_argparse_args(args, checkpoint_callback=ckpt)",
        "Trainer.from_argparse_args(args, enable_checkpointing=True)",
        "fix",
        id="only period=, which this run renames: read as the next run would, as 1.5 did (bolts' rl models)",
    ),
]


@pytest.mark.parametrize(("arguments", "call", "after", "kind"), OLDER)
def test_a_checkpoint_1_5_could_not_build_is_older_code(arguments: str, call: str, after: str, kind: str) -> None:
    """``ModelCheckpoint(filepath=...)`` raised a TypeError on 1.5.10, and 1.3/1.4 raised for any object in
    ``checkpoint_callback=``: such code ran on 1.2 or before, which appended the object to the callbacks."""
    outcome = run(_CKPT.format(arguments) + call + "\n", "2.6")
    assert outcome.source.rstrip().endswith(after), outcome.source
    assert {f.kind for f in outcome.findings if f.rule == RULE} == {kind}
    assert run(outcome.source, "2.6").source == outcome.source, "a second run must change nothing"


def test_every_row_names_a_release_and_a_replacement() -> None:
    assert len({row.name for row in REMOVED_ARGUMENTS}) == len(REMOVED_ARGUMENTS)
    assert all(row.removed_in and row.todo for row in REMOVED_ARGUMENTS)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


@pytest.mark.parametrize(
    ("key", "target", "refused"),
    [
        ("weights_summary", (1, 6), False),
        ("weights_summary", (1, 7), True),
        ("resume_from_checkpoint", (1, 9), False),
        ("resume_from_checkpoint", (2, 0), True),
        ("gpus", (1, 9), False),
        ("gpus", (2, 6), True),
        ("distributed_backend", (1, 6), True),
        ("max_epochs", (2, 6), False),
    ],
)
def test_refused_at_says_which_release_first_refuses_an_argument(
    key: str, target: tuple[int, ...], refused: bool
) -> None:
    assert refused_at(key, target) is refused
