"""Phase one: whether the project hands the Trainer a list of loggers (``Trainer(logger=[tb, wandb])``).

Lightning 1.5 wrapped any iterable passed as ``logger=`` in a ``LoggerCollection``, whose ``log_hyperparams``,
``log_metrics``, ... call every logger it holds, so ``trainer.logger.log_hyperparams(h)`` reached them all (and did
nothing for an empty list). Since 1.6 ``trainer.logger`` is ``None`` for an empty list and since 1.8 the first logger
for several (``trainer.py``, 1.6.5 and 1.8.6). Rule ``trainer_loggers`` rewrites those calls only in a project that
builds such a list: elsewhere ``trainer.logger`` is the one logger on every release. Found by text: a list literal
bound to a name ``logger``/``loggers`` or passed as ``logger=`` (or a value named ``...loggers``) in Python, a
``logger:`` key whose value is a YAML sequence in a config (LightningCLI). Standard library only.
"""

from __future__ import annotations

import re

#: ``logger = [``, ``loggers: List[Logger] = [``, ``logger=[``/``logger=list(``/``logger=loggers`` (a keyword
#: whose value a plural names): literal-led (the engine finds "logger" with memchr and tests the rest only there).
_PYTHON = re.compile(rb"logger(?<![\w.]logger)s?[ \t]*(?::[^=\n]*)?=[ \t]*(?:\[|list\(|\w*(?:loggers|logger_list)\b)")
#: ``logger:`` followed by a sequence, inline (``logger: [...]``) or as ``- `` items on the next lines.
_YAML = re.compile(rb"^([ \t]*)logger[ \t]*:[ \t]*(?:\[|(?:#[^\n]*)?\n(?:[ \t]*(?:#[^\n]*)?\n)*\1[ \t]*- )", re.M)


def builds_logger_list(data: bytes, path: str) -> bool:
    """Whether the file's bytes build a list of loggers for a Trainer (see the module's docstring)."""
    if b"logger" not in data:
        return False
    if path.endswith(".py"):
        return any(not _commented(data, match.start()) for match in _PYTHON.finditer(data))
    if path.endswith((".yaml", ".yml")):
        return _YAML.search(data) is not None
    return False


def _commented(data: bytes, at: int) -> bool:
    """Whether ``at`` lies in a comment (this tool's own TODOs say ``logger=[a, b]``: a second run must not take
    them for code)."""
    return b"#" in data[data.rfind(b"\n", 0, at) + 1 : at]
