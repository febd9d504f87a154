"""What a use of a config key does in a run: moves with its key, reads a flag the target may refuse, or goes
with a flag the Python rules drop. Standard library only."""

from __future__ import annotations

from codemods.project.index import ProjectIndex, Use
from codemods.project.keys import MOVES, TUNE_FLAGS, UNSET_READS, never_tunes


def movable_read(use: Use) -> bool:
    """A read the rule ``config_reads`` could move to another key: ``cfg.trainer.gpus``, spelled with attributes, or
    ``cfg.trainer.get("gpus")`` where None and 0 come to the same (``if cfg.trainer.get("gpus"):``)."""
    return use.kind == "read" and (use.attribute or use.zero_safe) and use.key.partition(".")[2] in MOVES


def removed_flag_read(use: Use) -> bool:
    """A read of a flag the target may refuse (``cfg.trainer.gpus``): the rule ``config_reads`` moves it or, where
    nothing sets the key, writes its TODO (``codemods.project.moved_reads``)."""
    return use.kind == "read" and use.key.partition(".")[2] in UNSET_READS


def drops_read(use: Use, index: ProjectIndex) -> bool:
    """Whether the Python rules drop this use of a key in this run (it then holds nothing back)."""
    if use.kind != "dropped_flag":
        return False
    return use.key.partition(".")[2] not in TUNE_FLAGS or never_tunes(index)
