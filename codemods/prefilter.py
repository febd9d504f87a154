"""Text prefilters: which files can need the migration at all, and which of their lines a rule can touch.

Standard library only, so ``--check`` of a clean tree never imports libcst. Every Python rule needs one of:

* an import from a legacy root (``pytorch_lightning``, ``compat``): renames, enums, Trainer calls and
  the dicts splatted into them are all recognised through qualified names computed from imports;
* a deprecated property on something named like a Trainer (``trainer.num_gpus``, ``self.trainer.root_gpu``);
* a legacy command-line option (``"--gpus"``) or ``add_argparse_args``.

:data:`TRIGGER` matches exactly that, and ``grep -rlE`` accepts the same pattern (see :func:`grep_pattern`).
"""

from __future__ import annotations

import functools
import re

from codemods.renames import TRAINER_PROPERTIES

#: Trainer property names, nested ones included (``accelerator.training_type_plugin``).
PROPERTIES: tuple[str, ...] = tuple(sorted({prop.old.rsplit(".", 1)[-1] for prop in TRAINER_PROPERTIES}))
OPTIONS: tuple[str, ...] = (
    "--gpus",
    "--tpu_cores",
    "--ipus",
    "--num_processes",
    "--distributed_backend",
    "--amp_backend",
    "--amp_level",
)
_PROPERTY_ALTERNATION = "|".join(PROPERTIES)
_OPTION_ALTERNATION = "|".join(option[2:] for option in OPTIONS)

#: The trigger, written in the regex dialect Python and ``grep -E`` share.
TRIGGER_PATTERN = (
    r"pytorch_lightning"
    r"|(from|import)[[:space:]]+compat([^[:alnum:]_]|$)"
    rf"|[Tt]rainer[[:space:]]*[.][[:space:]]*(accelerator[.])?({_PROPERTY_ALTERNATION})([^[:alnum:]_]|$)"
    rf"|--({_OPTION_ALTERNATION})([^[:alnum:]_]|$)"
    r"|add_argparse_args"
)
TRIGGER = re.compile(TRIGGER_PATTERN.replace("[:space:]", r"\s").replace("[:alnum:]", "a-zA-Z0-9"), re.MULTILINE)
#: Literal substrings one of which every match of :data:`TRIGGER` contains: a fast first test.
_QUICK = ("pytorch_lightning", "compat", "rainer", "--", "add_argparse_args")


#: A YAML config needs one of these to hold a Trainer section, a ``_target_``/``class_path`` or an interpolation.
YAML_TOKENS: tuple[str, ...] = (
    "gpus",
    "tpu_cores",
    "ipus",
    "num_processes",
    "accelerator",
    "distributed_backend",
    "plugins",
    "amp_",
    "precision",
    "Plugin",
    "GPUAccelerator",
    "auto_select_gpus",
    "replace_sampler_ddp",
    "trainer",
)


def yaml_triggered(text: str) -> bool:
    """True when a YAML ``text`` may hold something the YAML rules rewrite."""
    return any(token in text for token in YAML_TOKENS)


def grep_pattern() -> str:
    """The trigger for ``grep -rlE`` (POSIX extended regular expressions)."""
    return TRIGGER_PATTERN


def triggered(text: str) -> bool:
    """True when ``text`` may contain something the Python rules rewrite or report."""
    return any(quick in text for quick in _QUICK) and TRIGGER.search(text) is not None


@functools.lru_cache(maxsize=64)
def word_pattern(words: frozenset[str], attributes: frozenset[str], literals: frozenset[str]) -> re.Pattern[str]:
    """Lines mentioning a name (``DDPPlugin``), an attribute (``.num_gpus``) or a literal (``--gpus``)."""
    parts = []
    if words:
        parts.append(r"\b(?:" + "|".join(sorted(map(re.escape, words))) + r")\b")
    if attributes:
        parts.append(r"\.\s*(?:" + "|".join(sorted(map(re.escape, attributes))) + r")\b")
    if literals:
        parts.append("|".join(sorted(map(re.escape, literals))))
    return re.compile("|".join(parts) or r"(?!)")


def matching_lines(text: str, pattern: re.Pattern[str]) -> list[int]:
    """1-based numbers of the lines where ``pattern`` matches, ascending."""
    lines: list[int] = []
    line, position = 1, 0
    for match in pattern.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines
