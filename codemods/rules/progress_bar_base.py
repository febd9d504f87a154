"""``callbacks.ProgressBarBase`` is ``ProgressBar`` from 2.0 (renamed, CHANGELOG #17058; the same base class).

Written as ``pytorch_lightning.callbacks.progress.progress_bar.ProgressBar``, a path no 1.x release has, because a
bare ``callbacks.ProgressBar`` is 1.5's tqdm bar to rule ``tqdm_progress_bar``, which a second run would apply.
The base's removed members (``train_batch_idx`` and the like) are rule ``removed_members``'. pytorch_lightning only.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="progress_bar_base",
    description="callbacks.ProgressBarBase becomes callbacks.progress.progress_bar.ProgressBar (renamed in 2.0)",
    deprecated_in="2.0",
    tokens=("ProgressBarBase",),
)
