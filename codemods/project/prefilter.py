"""Text prefilters: which files can need the migration at all, and which of their lines a rule can touch.

Standard library only, so ``--check`` of a clean tree never imports libcst. Every Python rule needs one of:

* an import from a legacy root (``pytorch_lightning``, ``compat``): renames, enums, Trainer calls and
  the dicts splatted into them are all recognised through qualified names computed from imports; or from a
  package that ships a Trainer subclass (``flash``, ``legacy_api.ecosystem``);
* a deprecated property on something named like a Trainer (``trainer.num_gpus``, ``self.trainer.root_gpu``);
* a legacy command-line option (``"--gpus"``) or ``add_argparse_args``;
* a ``"gpus":`` dict key (a Trainer's flags or an argparse namespace's, built where nothing imports Lightning:
  rule ``legacy_keys`` reports them);
* or a ``# TODO(migrate-trainer)`` comment an earlier run left: it is reported until someone acts on it.

:data:`TRIGGER` matches exactly that, and ``grep -rlE`` accepts the same pattern (see :func:`grep_pattern`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

from legacy_api.lightning15 import LEGACY_FLAGS
from legacy_api.removed_arguments import REMOVED_ARGUMENTS
from legacy_api.renames import TRAINER_PROPERTIES

#: What every TODO comment the migration writes starts with (after ``# ``).
TODO_MARKER = "TODO(migrate-trainer)"
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
    r"|(from|import)[[:space:]]+flash([^[:alnum:]_]|$)"
    rf"|[Tt]rainer[[:space:]]*[.][[:space:]]*(_?accelerator(_connector)?[.])?({_PROPERTY_ALTERNATION})([^[:alnum:]_]|$)"
    rf"|--({_OPTION_ALTERNATION})([^[:alnum:]_]|$)"
    r"|add_argparse_args"
    r"|TODO[(]migrate-trainer[)]"
    r"|[\"']gpus[\"'][[:space:]]*:"
    r"|rainer[[:space:]]*[.][[:space:]]*get[[:space:]]*[(][[:space:]]*[\"']gpus[\"']"
    r"|torch[.]_six"
)
TRIGGER = re.compile(TRIGGER_PATTERN.replace("[:space:]", r"\s").replace("[:alnum:]", "a-zA-Z0-9"), re.MULTILINE)
_FOLLOW = r"(?![a-zA-Z0-9_])"
_PROPERTY = rf"rainer\s*[.]\s*(?:_?accelerator(?:_connector)?[.])?(?:{_PROPERTY_ALTERNATION}){_FOLLOW}"
_OPTION = rf"--(?:{_OPTION_ALTERNATION}){_FOLLOW}"
_COMPAT = r"(?:from|import)\s+$"
_FLASH = r"(?:from|import)\s+flash(?![a-zA-Z0-9_])"
_GPUS_KEY = r"[\"']gpus[\"']\s*:"
#: ``cfg.trainer.get("gpus")``: a config read that may move with its key (rule ``config_reads``).
_GPUS_GET = r"rainer\s*[.]\s*get\s*[(]\s*[\"']gpus[\"']"


#: The tokens the rules declare (``Rule.tokens``) that are not rows of a ``legacy_api`` table, written out here.
_RULE_LITERALS = (
    "--amp_backend", "--amp_level", "--distributed_backend", "--gpus", "--ipus", "--num_processes", "--tpu_cores",
    "AMPType", "DeviceType", "DistributedType", "GPUAccelerator", "HPU", "IPU", "LearningRateLogger", "LightningLite",
    "LightningLoggerBase", "callbacks.lr_logger",
    "LoggerCollection", "Plugin", "ProgressBarBase", "Precision(", "PrecisionPlugin", "PrecisionType", "SingleTPU",
    "Spawn", "Strategy",
    "TPUAccelerator", "Trainer", "accelerator", "accelerators.gpu", "callbacks.base", "core.lightning",
    "loggers.base", "add_argparse_args", "apply_to_collection", "auto",
    "auto_select_gpus", "compat", "ddp", "ddp_cpu", "deepspeed", "default_attributes", "from_argparse_args", "fsdp",
    "get_deprecated_arg_names", "get_init_arguments_and_types", "instantiate", "ipu", "match_env_arguments",
    "native_amp",
    "num_nodes", "parse_argparser", "parse_env_variables", "plugins", "precision", "replace_sampler_ddp", "reset_seed",
    "single_tpu",
    "strategy", "tpu", "tpu_spawn", "trainer_defaults", "utilities.cli", "utilities.distributed", "utilities.seed",
    "save_hyperparameters", "self.hparams", "torch._six", ".__name__", ".__qualname__",
    ".logger.after_save_checkpoint(",
    ".logger.agg_and_log_metrics(",
    ".logger.close(",
    ".logger.finalize(", ".logger.log_graph(", ".logger.log_hyperparams(", ".logger.log_image(", ".logger.log_metrics(",
    ".logger.log_text(", ".logger.save(", ".logger.update_agg_funcs(",
)  # fmt: skip
#: Every token a rule declares is one of these or contains one (``tests/cli/test_check_speed.py`` checks it against
#: the registry), so a file holding none of them is one no rule can touch, whatever the options: the run decides
#: that without importing the rules, and libcst with them (``codemods.rules.REGISTRY`` loads both).
RULE_TOKENS: tuple[str, ...] = tuple(sorted({*_RULE_LITERALS, *PROPERTIES, *(row.name for row in REMOVED_ARGUMENTS)}))


_RULE_BYTES = tuple(token.encode() for token in RULE_TOKENS)


def may_concern_a_rule(text: str) -> bool:
    """False when ``text`` holds no token of any rule (:data:`RULE_TOKENS`) and names nothing of Lightning that a
    target lacks (``surface_uses``): no rule has anything to do there."""
    return any(token in text for token in RULE_TOKENS) or _surface_concerns(text)


def may_concern_a_rule_bytes(data: bytes) -> bool:
    """:func:`may_concern_a_rule` on a file's undecoded bytes (every token is ASCII)."""
    if any(token in data for token in _RULE_BYTES):
        return True
    return b"pytorch_lightning" in data and _surface_concerns(data.decode("utf-8", errors="replace"))


def _surface_concerns(text: str) -> bool:
    if "pytorch_lightning" not in text:
        return False
    from codemods.project.surface_uses import concerns  # loads the recorded surfaces: only for Lightning files

    return concerns(text)


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


class _Trigger:
    """:data:`TRIGGER` as a few substring tests, each confirmed by a small regex with a literal prefix.

    ``in`` runs at memory speed, and a regex that starts with a literal is searched for that literal first;
    one big alternation in Python's regex engine would be ten times slower than grep. Works on ``str`` and on
    ``bytes`` (every token is ASCII, so any ASCII-compatible encoding can be scanned undecoded).
    """

    def __init__(self, kind: type[str] | type[bytes]) -> None:
        def enc(text: str) -> Any:
            return text if kind is str else text.encode()

        self.lightning, self.argparse = enc("pytorch_lightning"), enc("add_argparse_args")
        #: Contains "rainer": only looked for in a text that has "rainer" at all (one pass less on clean files).
        self.todo = enc(TODO_MARKER)
        self.compat, self.rainer, self.trainer = enc("compat"), enc("rainer"), enc("Tt")
        self.property = re.compile(enc(_PROPERTY))
        # Searched as is, without an ``"--" in text`` first: the regex engine finds its literal prefix by its
        # first byte (memchr), which for "--" is faster than ``in`` and leaves one pass out.
        self.option = re.compile(enc(_OPTION))
        self.compat_before = re.compile(enc(_COMPAT))
        self.compat_after = re.compile(enc(_FOLLOW))
        self.flash, self.keywords = enc("flash"), (enc("from"), enc("import"))
        self.gpus, self.gpus_key = enc("gpus"), re.compile(enc(_GPUS_KEY))
        self.gpus_get = re.compile(enc(_GPUS_GET))
        #: torch 2.0 removed torch._six; Lightning 2.3+ needs torch >= 2.0 (rule torch_six).
        self.six = enc("torch._six")

    def __call__(self, text: Any, rainer: bool | None = None, add_arg: bool | None = None) -> bool:
        """``rainer``/``add_arg``: whether the caller already knows that ``text`` contains "rainer"/"add_arg"
        (None: look); each is a pass over a clean file the caller made anyway."""
        if self.lightning in text or (add_arg is not False and self.argparse in text):
            return True
        if self._compat_import(text):
            return True
        if self._flash_import(text):
            return True
        if rainer is None:
            rainer = self.rainer in text
        if rainer:
            if self.todo in text:
                return True
            for match in self.property.finditer(text):
                before = text[match.start() - 1 : match.start()]
                if before and before in (self.trainer[:1], self.trainer[1:]):  # "Trainer" or "trainer"
                    return True
            if self.gpus_get.search(text) is not None:
                return True
        if self.option.search(text) is not None:
            return True
        if self.six in text:
            return True
        return self.gpus in text and self.gpus_key.search(text) is not None

    def _compat_import(self, text: Any) -> bool:
        index = text.find(self.compat)
        while index >= 0:
            end = index + len(self.compat)
            if self.compat_before.search(text, max(0, index - 40), index) and self.compat_after.match(text, end):
                return True
            index = text.find(self.compat, end)
        return False

    def _flash_import(self, text: Any) -> bool:
        """Whether ``_FLASH`` matches ``text``, found from each "flash" back (the pattern has no literal prefix:
        searched as a regex, it costs more than every other test together on a library that says "flash")."""
        index = text.find(self.flash)
        while index >= 0:
            end = index + len(self.flash)  # "flash" cannot overlap itself
            if self.compat_after.match(text, end):
                start = index
                while start > 0 and text[start - 1 : start].isspace():  # what \s matches, in str and in bytes
                    start -= 1
                if start < index and any(text.endswith(keyword, 0, start) for keyword in self.keywords):
                    return True
            index = text.find(self.flash, end)
        return False


_TEXT, _BYTES = _Trigger(str), _Trigger(bytes)


def triggered(text: str) -> bool:
    """True when ``text`` may contain something the Python rules rewrite or report (same answer as TRIGGER)."""
    return _TEXT(text)


def triggered_bytes(data: bytes, rainer: bool | None = None, add_arg: bool | None = None) -> bool:
    """:func:`triggered` on a file's undecoded bytes (``rainer``, ``add_arg``: whether ``b"rainer" in data``,
    ``b"add_arg" in data``, if known)."""
    return _BYTES(data, rainer, add_arg)


#: A doc's examples may call a Trainer they never import, with a 1.5 flag: parsed, to report what stays.
_DOC_CALL = rf"Trainer\s*\([^)]*?\b(?:{'|'.join(LEGACY_FLAGS)})\s*="
_DOC_CALL_TEXT, _DOC_CALL_BYTES = re.compile(_DOC_CALL), re.compile(_DOC_CALL.encode())


def doc_triggered(data: bytes, rainer: bool | None = None) -> bool:
    """:func:`triggered_bytes`, or a document's ``Trainer(gpus=2)`` (``codemods.frontends.docs.documents`` reports it
    unmigrated)."""
    return _BYTES(data, rainer) or (rainer is not False and _DOC_CALL_BYTES.search(data) is not None)


def doc_text_triggered(text: str) -> bool:
    """:func:`doc_triggered` on decoded text."""
    return _TEXT(text) or _DOC_CALL_TEXT.search(text) is not None


def _led(word: str) -> str:
    """``word`` (it starts with a word character) where it starts a word: ``\\bword`` spelt so that the pattern
    starts with a literal. Python's ``re`` searches a pattern led by literals (or by an alternation of them) for
    that prefix first, and one led by ``\\b`` at every position: 6 to 60 times slower on source text."""
    escaped = re.escape(word)
    return f"{escaped}(?<!\\w{escaped})"


@functools.lru_cache(maxsize=64)
def word_pattern(words: frozenset[str], attributes: frozenset[str], literals: frozenset[str]) -> re.Pattern[str]:
    """Lines mentioning a name (``DDPPlugin``), an attribute (``.num_gpus``) or a literal (``--gpus``)."""
    parts = []
    if words:
        parts.append(r"(?:" + "|".join(_led(word) for word in sorted(words)) + r")\b")
    if attributes:
        parts.append(r"\.\s*(?:" + "|".join(sorted(map(re.escape, attributes))) + r")\b")
    if literals:
        parts.append("|".join(sorted(map(re.escape, literals))))
    return re.compile("|".join(parts) or r"(?!)")


_WORD_LED = re.compile(r"\\b([A-Za-z_][A-Za-z0-9_]*)")


@functools.lru_cache(maxsize=64)
def literal_led(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern``, or the same pattern led by a literal when it starts ``\\bword`` (``\\bdef\\s+...``): see
    :func:`_led`. A letter a quantifier follows (``\\bdefs?``) stays out of the lead."""
    match = _WORD_LED.match(pattern.pattern)
    if match is None:
        return pattern
    word, rest = match.group(1), pattern.pattern[match.end() :]
    if rest[:1] in ("*", "+", "?", "{"):
        word, rest = word[:-1], word[-1] + rest
    if not word:
        return pattern
    return re.compile(_led(word) + rest, pattern.flags)


def alternation(words: Iterable[str]) -> str:
    """A regex that matches exactly ``words``, written as their trie (``(?:ab(?:c|d)?)`` for ab, abc, abd): Python's
    ``re`` tries a flat alternation's branches one by one at every place its first character allows, 16 times slower
    for the 538 attribute names of rule ``removed_attributes``, after every ``.`` of a file."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here

    def render(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + render(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        if len(branches) == 1 and "" not in node:
            return branches[0]
        return "(?:" + "|".join(branches) + ")" + ("?" if "" in node else "")

    return render(trie)


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
