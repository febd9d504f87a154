"""What a ``migrate-trainer`` rule does with the uses it finds: rewrite them, or leave a TODO for their author.

compat's warnings end with "`migrate-trainer --only X` rewrites it" only where rule X rewrites; where X only marks
the use, they say so. compat must not import ``codemods``, so the fact lives here, and
``tests/compat/test_notice_rules.py`` runs each rule listed below on code it finds and checks that it leaves the
code as it was, with a TODO. Rules that rewrite some uses and mark others (``device_flags``, ``strategy_names``)
are not listed: the notice for such a use says which (:class:`legacy_api.translate.Use`'s ``rewrites``).
Standard library only.
"""

from __future__ import annotations

#: Rules that never rewrite code: every use they find gets a ``# TODO(migrate-trainer)`` comment, nothing else.
TODO_ONLY: frozenset[str] = frozenset(
    {
        "accelerator_arguments",
        "argparse_flags",
        "dataloader_iter_steps",
        "hparams_modules",
        "interactive_launch",
        "ipu_accelerator",
        "removed_attributes",
    }
)


def rewrites(rule: str) -> bool:
    """Whether ``migrate-trainer --only <rule>`` may rewrite a use (False: it only leaves a TODO)."""
    return rule not in TODO_ONLY
