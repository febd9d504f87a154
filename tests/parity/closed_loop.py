"""The closed loop: a recorded 1.5 case as source, through ``migrate-trainer``, back into newcore.

For one case: render ``pl.Trainer(<flags>)`` as real keyword source (instances as constructor calls of the
``pytorch_lightning`` 1.5 classes, imported from their 1.5 modules), rewrite it with the real rule set
in-process, parse the migrated call with :mod:`ast`, evaluate its keyword values (literals, and the new class
names mapped to newcore's classes through the renames table) and build ``newcore.AcceleratorConnector`` on
them, on the case's faked machine. The selection is compared with what compat made of the original flags.

The target is Lightning 1.9, the last 1.x release: by then every legacy connector flag is deprecated
(gpus/tpu_cores/ipus/num_processes in 1.7, amp_level in 1.8, amp_backend and auto_select_gpus in 1.9), so the
rule set migrates all of them. Target 2.0 would add 2.0's behaviour-change rewrites (``find_unused_parameters``
default, ``Trainer()`` taking every GPU, ``dp`` removed), which newcore does not need: it keeps 1.x defaults.

A TODO left by the rewrite means "not migrated": the suite reports it as its own outcome. The exception is the
TODOs of the rules that only announce a later fate of a name (``strategy_names``, ``strategy_removals``: FairScale
and Horovod leave in 2.0, ddp2 in 1.7): they change no code, and the code they flag is valid for 1.9 and newcore,
which keeps those strategies, so such a case still goes round the loop.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Mapping
from functools import cache
from typing import Any

import torch

from codemods.frontends.python import transform_python
from codemods.model import Options
from compat.flags import LEGACY_FLAGS
from newcore import AcceleratorConnector
from tests.parity import harness

TARGET = "1.9"

#: Rules whose TODOs announce what happens to a name after the target, without touching the code.
LATER_FATE_RULES = frozenset({"strategy_names", "strategy_removals"})

#: Keyword arguments newcore's connector takes, plus the legacy connector flags (left there, they are a finding).
CONNECTOR_FLAGS = frozenset(inspect.signature(AcceleratorConnector).parameters) - {"legacy"} | (
    frozenset(LEGACY_FLAGS) - {"replace_sampler_ddp"}
)

#: Where Lightning 1.5 kept each kind of class the recordings use.
_ACCELERATORS = "pytorch_lightning.accelerators"
_ENVIRONMENTS = "pytorch_lightning.plugins.environments"
_PLUGINS = "pytorch_lightning.plugins"


def module_of(name: str) -> str:
    if name.endswith("Accelerator"):
        return _ACCELERATORS
    if name.endswith("Environment"):
        return _ENVIRONMENTS
    return _PLUGINS


def _render(value: Any, imports: set[tuple[str, str]]) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_render(v, imports) for v in value) + "]"
    if isinstance(value, dict) and "__device__" in value:
        imports.add(("torch", ""))
        return f"torch.device({value['__device__']!r})"
    if isinstance(value, dict) and "__class__" in value:
        name = value["__class__"]
        imports.add((module_of(name), name))
        args = [_render(a, imports) for a in value.get("args") or []]
        args += [f"{k}={_render(v, imports)}" for k, v in (value.get("kwargs") or {}).items()]
        return f"{name}({', '.join(args)})"
    if isinstance(value, (str, int, float, bool, type(None))):
        return repr(value)
    raise TypeError(f"not renderable: {value!r}")


def render(kwargs: Mapping[str, Any]) -> str:
    """The 1.5 user code for these flags: imports, then ``trainer = pl.Trainer(...)`` with keywords."""
    imports: set[tuple[str, str]] = set()
    call = ", ".join(f"{key}={_render(value, imports)}" for key, value in kwargs.items())
    lines = ["import pytorch_lightning as pl"]
    for module, name in sorted(imports, key=lambda item: (bool(item[1]), item)):  # plain imports first
        lines.append(f"import {module}" if not name else f"from {module} import {name}")
    return "\n".join(lines) + f"\n\ntrainer = pl.Trainer({call})\n"


@cache
def migrate(source: str) -> tuple[str, tuple[str, ...]]:
    """The migrated source and the rules that left a TODO in it (a TODO means: not migrated faithfully)."""
    outcome = transform_python(source, Options(target=TARGET))
    if outcome.error:
        raise RuntimeError(f"migrate-trainer failed on generated source: {outcome.error}")
    todos = (f for f in outcome.findings if f.kind == "todo" and f.rule not in LATER_FATE_RULES)
    return outcome.source, tuple(sorted({f.rule for f in todos}))


def trainer_keywords(source: str) -> dict[str, ast.expr]:
    """The keyword arguments of the ``Trainer(...)`` call in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _callee(node.func) == "Trainer":
            if any(k.arg is None for k in node.keywords) or node.args:
                raise ValueError(f"the migrated Trainer call is not plain keywords: {ast.unparse(node)}")
            return {str(k.arg): k.value for k in node.keywords}
    raise ValueError("no Trainer call in the migrated source")


def _callee(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def evaluate(node: ast.expr) -> Any:
    """A migrated keyword value: literals, ``torch.device(...)``, and (new or old) class names built as newcore's."""
    if isinstance(node, ast.List | ast.Tuple):
        return [evaluate(e) for e in node.elts]
    if isinstance(node, ast.Call):
        name = _callee(node.func)
        args = [evaluate(a) for a in node.args]
        kwargs = {str(k.arg): evaluate(k.value) for k in node.keywords}
        if name == "device":
            return torch.device(*args, **kwargs)
        if name == "find_usable_cuda_devices":
            # newcore has no free-memory probe; the first N GPUs stand for the N usable ones, as under compat.
            return int(args[0]) if args else -1
        return harness.newcore_class(name)(*args, **kwargs)
    return ast.literal_eval(node)


def connector_kwargs(source: str) -> dict[str, Any]:
    """The migrated call's connector flags as objects; other Trainer arguments are dropped."""
    return {key: evaluate(node) for key, node in trainer_keywords(source).items() if key in CONNECTOR_FLAGS}


NOT_MIGRATED = "not migrated"


def run(case: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """newcore's selection for the migrated source of ``case`` (or the TODO outcome), and that source."""
    migrated, todos = migrate(render(case["kwargs"]))
    if todos:
        return {"outcome": NOT_MIGRATED, "error": f"not migrated: TODO from {', '.join(todos)}"}, migrated
    with harness.machine_for(case):
        try:
            return harness.selection(AcceleratorConnector(**connector_kwargs(migrated))), migrated
        except harness.ERRORS as error:
            return {"outcome": "error", "error": f"{type(error).__name__}: {error}"}, migrated


def compat_selection(case: Mapping[str, Any]) -> dict[str, Any]:
    """What compat selects for the original 1.5 flags (the reference the migrated code must reproduce)."""
    import compat

    return harness.run(case, compat.AcceleratorConnector, harness.compat_class)
