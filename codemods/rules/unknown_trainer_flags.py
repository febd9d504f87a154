"""A keyword Lightning's ``Trainer`` takes in no recorded release (1.4 ... the target): one TODO on it.

Every flag a recorded 1.x release took and the target does not is some rule's (``removed_arguments``, the device
and strategy rules); what is left is older than the recordings or never was a flag: ``Trainer(
early_stop_callback=EarlyStopping(...))`` (gone in 1.0) raises ``TypeError: Trainer.__init__() got an unexpected
keyword argument`` on the target, as it did on 1.5, and a ``--check`` that passed on it would say it runs. Only a
call of Lightning's own class in Python code counts: a subclass, ``flash.Trainer`` or a config section may take keys
of its own. The signatures are the recorded ones (``legacy_api.surface``).
"""

from __future__ import annotations

import functools

from codemods.plan.model import LEGACY_FLAG_RULES, Plan
from codemods.plan.rule import Rule
from legacy_api.keywords import signature_keywords
from legacy_api.removed_arguments import REMOVED_ARGUMENTS
from legacy_api.renames import PL
from legacy_api.surface import RELEASES, release_for, surface

ID = "unknown_trainer_flags"
_INIT = f"{PL}.trainer.trainer.Trainer.__init__"


@functools.cache
def _taken(release: str) -> frozenset[str]:
    """The keywords ``Trainer.__init__`` takes at ``release``."""
    found = signature_keywords(surface(release).signature(_INIT))
    return found[0] if found is not None else frozenset()


@functools.cache
def _owned() -> frozenset[str]:
    """The flags other rules migrate or flag: any a recorded release took, and the legacy ones by name."""
    recorded = {key for release in RELEASES for key in _taken(release)}
    return frozenset({*recorded, *LEGACY_FLAG_RULES, *(row.name for row in REMOVED_ARGUMENTS)})


def step(plan: Plan) -> None:
    if not plan.lightning_trainer:
        return
    release = release_for(".".join(map(str, plan.target)))
    taken = _taken(release)
    for key in list(plan.keys()):
        if key in taken or key in _owned():
            continue
        value = plan.get(key)
        written = value.text if value is not None else "..."
        plan.todo(
            ID,
            f"{key}={written}: Trainer takes no {key}= in Lightning {release}, nor in any release since 1.4 "
            "(a TypeError): pass what it became, or drop it",
        )


RULE = Rule(
    id=ID,
    description="a keyword Lightning's Trainer takes in no recorded release (early_stop_callback=, gone in 1.0) is "
    "flagged: it raises a TypeError on the target as it did on 1.5",
    deprecated_in="1.4",  # the oldest recorded release: no keyword flagged here was taken there
    scope="flags",
    step=step,
    order=87,
    tokens=("Trainer",),
)
