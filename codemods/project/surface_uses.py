"""The prefilter of the surface rules: does a file name a Lightning path, or override a hook, that some target lacks?

Rules ``removed_names``, ``removed_hooks`` and ``removed_keywords`` look at every ``pytorch_lightning`` import and at
the ``def``\\ s of Lightning's hooks, which no substring test can tell from the names every release has. This reads the
paths a file names from its text (``from pytorch_lightning.x import y``, ``import pytorch_lightning.x as z``, the dotted
uses of such an alias), the hooks it defines and the keywords it passes, and looks them up in the vocabulary derived
from the recorded surfaces (``legacy_api.vocabulary``: a small file, not the thirteen surfaces) to see whether any
target release lacks one. A file whose Lightning names every target has then never loads libcst and the rules, as
before these rules existed. Over-approximate on purpose (text, not syntax): a comment may make a file pass, which only
costs the parse. Standard library only.
"""

from __future__ import annotations

import ast
import re

from legacy_api import vocabulary

PL = "pytorch_lightning"  # legacy_api.renames.PL, without importing the renames table into the prefilter
#: The tokens of the surface rules: files holding them are decided by :func:`concerns`, not by the token alone.
TOKENS = (PL, "def ")

_FROM = re.compile(r"\bfrom[ \t]+(pytorch_lightning(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)")
_IMPORT = re.compile(r"\bimport[ \t]+(pytorch_lightning(?:\.\w+)*)(?:[ \t]+as[ \t]+(\w+))?")
_NAME = re.compile(r"\w+")
_DEF = re.compile(r"\bdef[ \t]+(\w+)[ \t]*\(")
_MEMBER = re.compile(r"\.[ \t]*(\w+)")
_KEYWORD = re.compile(r"[(,][ \t\n]*(\w+)[ \t]*=(?!=)")
#: ``self.log("name", {...})``: a dict value, which 2.x refuses (rule ``removed_keywords``).
_LOG_DICT = re.compile(r"\.log[ \t]*\([^,()]*,[ \t\n]*\{")
#: A "frequency" key where configure_optimizers is defined (rule optimizer_frequency: 2.x ignores an optimizer's).
_FREQUENCY = re.compile(r"""["']frequency["']""")
#: A call 1.5's LoggerCollection forwarded to each logger (rule trainer_loggers).
_LOGGER_CALL = re.compile(r"\.logger\.(?:log_hyperparams|log_metrics|log_graph|log_text|log_image|save|finalize)\(")
_HEADER = re.compile(r"\(((?:[^()]|\([^()]*\))*)\)")


def _paths(text: str) -> set[str]:
    paths: set[str] = set()
    aliases: dict[str, str] = {}
    for match in _FROM.finditer(text):
        module, names = match.groups()
        if names.strip().startswith("*"):
            paths.add(module)
        for part in names.strip("()").split(","):
            words = _NAME.findall(part)
            if words:
                paths.add(f"{module}.{words[0]}")
                aliases[words[-1]] = f"{module}.{words[0]}"
    for match in _IMPORT.finditer(text):
        module, alias = match.groups()
        paths.add(module)
        aliases[alias or module.split(".", 1)[0]] = module if alias else PL
    for alias, path in aliases.items():
        for use in re.finditer(rf"(?<![\w.]){re.escape(alias)}((?:\.\w+)+)", text):
            paths.add(path + use.group(1))
    return paths


def _missing_somewhere(path: str) -> bool:
    """``path`` or a module above it is a 1.x name some target release lacks."""
    missing = vocabulary.missing()
    parts = path.split(".")
    return any(".".join(parts[:end]) in missing for end in range(2, len(parts) + 1))


def concerns(text: str) -> bool:
    """Whether a file that mentions Lightning names a path some target release lacks, defines a hook whose calls
    changed (a ``def`` of :func:`legacy_api.hooks.changed_hooks`, or a step taking ``dataloader_iter``), passes a
    removed keyword or reads an attribute some target's Lightning objects lack (``.progress_bar_dict``), or saves a
    network as a hyperparameter or calls a method on ``trainer.logger`` (rules hparams_modules, trainer_loggers)."""
    if PL not in text:
        return False
    hooks = vocabulary.hooks()
    if "def " in text and any(
        match.group(1) in hooks and not _current(match.group(1), text, match.end() - 1) for match in _DEF.finditer(text)
    ):
        return True
    if vocabulary.ITERATOR in text and any(m.group(1) in vocabulary.ITERATOR_STEPS for m in _DEF.finditer(text)):
        return True  # a step taking the batch iterator (rule dataloader_iter_steps)
    if _LOG_DICT.search(text):
        return True
    if "def configure_optimizers" in text and _FREQUENCY.search(text):
        return True
    if "save_hyperparameters(" in text and "nn.Module" in text:
        return True  # a network saved as a hyperparameter (rule hparams_modules)
    if ".logger." in text and _LOGGER_CALL.search(text):
        return True  # trainer.logger.log_hyperparams(...): rule trainer_loggers, where the project lists loggers
    keywords = vocabulary.keywords()
    if any(match.group(1) in keywords for match in _KEYWORD.finditer(text)):
        return True
    for function, renamed in vocabulary.function_keywords().items():
        if f"{function}(" in text and any(match.group(1) in renamed for match in _KEYWORD.finditer(text)):
            return True  # is_overridden(..., model=m): a keyword too common to pass every file
    if any(f"{name}(" in text for name in vocabulary.defaulted()):
        return True
    members = vocabulary.members()
    if any(match.group(1) in members for match in _MEMBER.finditer(text)):
        return True
    return any(_missing_somewhere(path) for path in _paths(text))


def _current(hook: str, text: str, start: int) -> bool:
    """Whether the ``def`` whose parameter list opens at ``start`` is written as the newest release calls ``hook``."""
    header = _HEADER.match(text, start)
    if header is None:
        return False
    try:
        function = ast.parse(f"def f({header.group(1)}): pass").body[0]
    except SyntaxError:
        return False
    assert isinstance(function, ast.FunctionDef)
    names = tuple(a.arg for a in (*function.args.posonlyargs, *function.args.args))[1:]
    if vocabulary.gone().get(hook, frozenset()) & set(names):
        return False
    return any(varargs or forms == names for forms, varargs in vocabulary.hooks()[hook])
