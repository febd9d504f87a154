"""``pytorch_lightning.profiler`` -> ``pytorch_lightning.profilers`` (deprecated in 1.7, gone in 1.9):
``SimpleProfiler``, ``AdvancedProfiler``, ``PyTorchProfiler``, ``XLAProfiler`` and ``PassThroughProfiler`` move,
``BaseProfiler`` (deprecated in 1.6, gone in 1.8) becomes ``Profiler``, and ``AbstractProfiler`` gets a TODO: it
was a bare ABC, and 2.x's Trainer calls methods and reads attributes of ``Profiler`` that it lacked.
pytorch_lightning only.

A table-driven rename: the rows live in ``legacy_api._rename_rows_moved`` (read in 1.7.7's deprecation shims and
1.5.10's classes) and the generic machinery renames imports, uses and base classes.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="profiler_package",
    description="pytorch_lightning.profiler's classes are imported from pytorch_lightning.profilers; BaseProfiler "
    "becomes Profiler, AbstractProfiler is flagged",
    deprecated_in="1.6",
    # The surface rules' token: 1.9+ lack pytorch_lightning.profiler, so the surface vocabulary lets such a file in.
    tokens=("pytorch_lightning",),
)
