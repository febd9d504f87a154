"""``callbacks.ProgressBar``, 1.5's tqdm bar, is ``TQDMProgressBar`` (deprecated in 1.5, removed in 1.7).

1.5.10's ``ProgressBar`` is a subclass of ``TQDMProgressBar`` that only warns and forwards its arguments. 2.0 brought
the name back for the renamed ``ProgressBarBase``, which draws nothing: on a 2.x target the old import still works
and the bar is silently gone, so the rename applies at every target. ``ProgressBarBase`` is never chained into it:
rule ``progress_bar_base`` writes 2.x's name under a path no 1.x release has. pytorch_lightning only.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="tqdm_progress_bar",
    description="callbacks.ProgressBar (1.5's tqdm bar) becomes TQDMProgressBar",
    deprecated_in="1.5",
    # The surface rules' token: 1.7-1.9 lack callbacks.ProgressBar, so the surface vocabulary lets such a file in.
    tokens=("pytorch_lightning",),
)
