"""What a rule is. Kept apart from the registry so rule modules can import it without cycles."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from legacy_api.renames import version_tuple

if TYPE_CHECKING:
    from codemods.plan.model import Plan

#: A libcst leave hook: (file context, original node, updated node) -> replacement.
Handler = Callable[[Any, Any, Any], Any]
Step = Callable[["Plan"], None]


@dataclass(frozen=True)
class Rule:
    """A rule's identity card plus the hooks it contributes.

    ``handlers`` run inside the single combined libcst pass (keyed by node class name); ``step`` runs on
    every set of Trainer flags (Python calls, dicts and YAML sections) in ``order``.
    """

    id: str
    description: str
    deprecated_in: str
    scope: Literal["python", "flags", "yaml"] = "python"
    handlers: Mapping[str, Handler] = field(default_factory=dict)
    step: Step | None = None
    #: What the rule still does on a plan an earlier rule gave up on (``Plan.stop``), where it is exact whatever the
    #: flags the TODO names become; a rule in ``codemods.plan.model.INDEPENDENT`` runs its whole ``step`` there.
    on_stop: Step | None = None
    order: int = 100
    #: Text that must occur in a file for the rule to have anything to do (the cheap prefilter).
    tokens: tuple[str, ...] = ()
    #: Lines the Python pass must visit for this rule besides those naming a legacy import (``def validation_epoch_end``
    #: names none): a pattern, built only when the rule runs.
    visit: Callable[[], re.Pattern[str]] | None = None
    #: Whether the rule may act where the pass visits because of one line ``visit`` matched (a
    #: ``codemods.frontends.python.context.Site``, of a later stage: hence ``Any``). False only where the rule provably
    #: does nothing there: ``super().__init__()`` passes nothing whose position moved. Without it, every line counts.
    screen: Callable[[Any], bool] | None = None

    @property
    def version(self) -> tuple[int, ...]:
        return version_tuple(self.deprecated_in)
