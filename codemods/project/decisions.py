"""Decisions that need the whole project: may this Trainer section of a config be migrated as planned?

The rules plan a section's rewrite from the section alone; :func:`guard_section` then checks the plan against
the project index (``codemods.project.index``) and says why it must not be applied:

* a key the plan removes or renames is still used elsewhere (``cfg.trainer.gpus`` in Python, a
  ``trainer.gpus=2`` override in a script or a doc that is left as it is, ``${trainer.gpus}`` in another
  config file; an override command that ``codemods.frontends.commands`` rewrites in the same run migrates with the key,
  and so does a read that moves to the new key, ``codemods.project.moved_reads``: neither counts), or a key
  whose value it changes is read elsewhere (``cfg.trainer.precision == 16``; an override string still sets a
  key whose value changed, so it does not block): a key is migrated together with every use, or not at all;
* a key the plan adds is missing from the project's own structured-config schema, or a value it writes has a
  type the schema forbids (``precision: 16-mixed`` where the schema says ``int``);
* a key the plan adds is also passed explicitly next to the section (``Trainer(strategy=X, **cfg.trainer)``):
  a duplicate keyword, or two strategies for one Trainer.

The front end then leaves the section as it is, with one TODO that says why. The checks live in
``codemods.project.guard``, which ``codemods.frontends.commands`` runs too, to foresee which sections keep legacy keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from codemods.project.command_analysis import analysis, migrates
from codemods.project.command_fills import fails_anyway
from codemods.project.guard import blocked_keys, reasons
from codemods.project.index import ProjectIndex, Use
from codemods.project.moved_reads import moves_with_key

if TYPE_CHECKING:
    from codemods.model import Options
    from codemods.plan.model import Value

__all__ = ["RULE", "blocked_keys", "guard_section"]

RULE = "project_guard"


def guard_section(
    options: Options,
    path: str,
    section: str,
    before: Sequence[tuple[str, Value]],
    after: Sequence[tuple[str, Value]],
    present: Sequence[str] = (),
) -> list[str]:
    """Why the planned rewrite of config section ``section`` (dotted path) in ``path`` must not be applied.

    ``present``: every key the section has, those kept out of the plan included; which schema types the section
    is decided from them, so that the decision does not change once part of the section has migrated. The checks
    are ``codemods.project.guard``'s, with this run's decisions about which override commands migrate.
    """
    index = getattr(options, "project", None)
    if not isinstance(index, ProjectIndex):
        return []
    target = options.target_tuple

    def along(use: Use) -> bool:  # rewritten in this run together with the key, or failing on the target anyway
        return (
            migrates(use, index, options) or moves_with_key(use, index, options) or stays_failing(use, index, options)
        )

    return reasons(index, path, section, before, after, present, along, target)


def stays_failing(use: Use, index: ProjectIndex, options: Options) -> bool:
    """Whether ``use`` is an override left as it is with its own TODO that sets its key to a value the target
    refuses whatever the configs hold (:func:`codemods.project.command_fills.fails_anyway`): it holds no config."""
    if use.kind != "override" or not use.command:
        return False
    decision = analysis(index, options).decisions.get(use.command)
    key = use.key.partition(".")[2]
    return (
        decision is not None
        and decision.todo is not None
        and any(item[2] == key and fails_anyway(item) for item in use.command)
    )
