"""Trainer values 1.x wrote that the target still takes, converting them itself to its own spelling.

Lightning 2.x reads ``precision=16`` as ``"16-mixed"``: ``_convert_precision_to_unified_args`` in
``lightning_fabric.connector`` maps ``_PRECISION_INPUT_STR_ALIAS_CONVERSION`` (read in the installed 2.6.6:
``{"64": "64-true", "32": "32-true", "16": "16-mixed", "bf16": "bf16-mixed"}``), with a warning for 16 and bf16.
Where the migration would respell such a value but something else in the project reads the old one, keeping the
value as written selects the same on the target: no person has anything to decide there. Standard library only.
"""

from __future__ import annotations

#: key -> (1.x value as ``str()`` spells it -> the target's spelling of the same choice).
_ALIASES: dict[str, dict[str, str]] = {
    "precision": {"64": "64-true", "32": "32-true", "16": "16-mixed", "bf16": "bf16-mixed"},
}


def same_on_target(key: str, old: object, new: object, target: tuple[int, ...]) -> bool:
    """Whether the target, given ``key=old``, selects what the migration spells ``key=new`` (``precision``: ``16``
    and ``"16-mixed"`` from 2.0 on)."""
    if target < (2, 0) or isinstance(old, bool) or not isinstance(old, int | str):
        return False
    return _ALIASES.get(key, {}).get(str(old)) == new
