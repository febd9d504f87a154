"""``${trainer.gpus}``-style interpolations that reference a renamed or removed Trainer key.

When the flag rules rename a key in a YAML ``trainer:`` section (``gpus`` -> ``devices``) and keep its value,
interpolations in the same file that point at it are updated; when the key is gone or its value changed, they
are reported with a TODO.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="yaml_interpolations",
    description="${trainer.<key>} interpolations follow renamed Trainer keys, or are flagged",
    deprecated_in="1.4",
    scope="yaml",
)
