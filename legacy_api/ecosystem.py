"""Trainer subclasses that other packages ship: their calls take Lightning's flags, so the flag rules apply.

Checked against the packages' sources (facts only): lightning-flash's ``flash.core.trainer.Trainer``
(re-exported as ``flash.Trainer``) subclasses ``pytorch_lightning.Trainer``; from 0.2 to 0.8 its ``__init__``
passes every argument on to Lightning's, and 0.5 alone added ``serve_sanity_check`` of its own (removed in 0.6).
Its own arguments are not Lightning flags: the rules leave them alone. lightning-transformers and lightning-bolts
define no Trainer subclass. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EcosystemTrainer:
    """``qualified``: where the class is imported from; ``own``: the arguments it takes itself, not Lightning."""

    qualified: str
    package: str
    own: tuple[str, ...] = ()


ECOSYSTEM_TRAINERS: tuple[EcosystemTrainer, ...] = (
    EcosystemTrainer("flash.Trainer", "lightning-flash", ("serve_sanity_check",)),
    EcosystemTrainer("flash.core.trainer.Trainer", "lightning-flash", ("serve_sanity_check",)),
)
#: Qualified name -> row.
BY_NAME: dict[str, EcosystemTrainer] = {row.qualified: row for row in ECOSYSTEM_TRAINERS}
#: Top-level packages whose imports the codemods track to recognise these classes.
ROOTS: tuple[str, ...] = tuple(sorted({row.qualified.split(".", 1)[0] for row in ECOSYSTEM_TRAINERS}))
