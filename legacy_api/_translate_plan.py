"""What :mod:`legacy_api.translate` reads and builds: the tables, value readers, the plan. Standard library only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from legacy_api.lightning15 import ACCELERATOR_KINDS, FIXED_PRECISION
from legacy_api.renames import STRATEGY_CLASSES, STRATEGY_NAMES

#: 1.5 precision values -> their 2.x spelling (2.0 warns for 16/"bf16"; its AMP plugins refuse them).
MIXED = {16: "16-mixed", "16": "16-mixed", "bf16": "bf16-mixed"}
#: Every precision value, for comparing a plugin's precision with ``precision=`` in one spelling.
_PRECISION_2X: dict[Any, str] = {**MIXED, 32: "32-true", "32": "32-true", 64: "64-true", "64": "64-true"}


def precision_2x(value: Any) -> Any:
    """A 1.5 precision value in 2.x spelling (``16`` -> ``"16-mixed"``); other values as they are."""
    return value if isinstance(value, bool) or value is None else _PRECISION_2X.get(value, value)


#: 1.x AMP plugin class -> how its ``precision`` argument is spelled in 2.x.
PLUGIN_PRECISION_ARGS: dict[str, dict[Any, str]] = {
    "NativeMixedPrecisionPlugin": MIXED,
    "MixedPrecisionPlugin": MIXED,
    "FSDPMixedPrecisionPlugin": MIXED,
    "DeepSpeedPrecisionPlugin": {**MIXED, 32: "32-true", "32": "32-true"},
}


#: Strategy names whose feature 2.x removed: the error names the replacement (codemod rule strategy_names).
REMOVED_STRATEGIES: dict[str, str] = {
    "dp": 'DataParallel is removed in 2.0: use strategy="ddp"',
    "ddp2": 'DDP2 is removed (1.7): use strategy="ddp"',
    "horovod": 'Horovod left Lightning in 2.0: use the lightning-Horovod package, or strategy="ddp"',
    "ddp_sharded": 'FairScale sharding is removed in 2.0: use strategy="fsdp"',
    "ddp_sharded_spawn": 'FairScale sharding is removed in 2.0: use strategy="fsdp"',
    "ddp_sharded_find_unused_parameters_false": 'FairScale sharding is removed in 2.0: use strategy="fsdp"',
    "ddp_sharded_spawn_find_unused_parameters_false": 'FairScale sharding is removed in 2.0: use strategy="fsdp"',
    "ddp_fully_sharded": 'FairScale FSDP is removed in 2.0: use strategy="fsdp" (native PyTorch FSDP)',
    "fsdp": (
        'strategy="fsdp" was FairScale FSDP in 1.5, removed in 2.0: pass FSDPStrategy() (native FSDP, other options)'
    ),
    "hpu_parallel": "HPU support left Lightning in 2.1: `pip install lightning-habana`",
    "hpu_single": "HPU support left Lightning in 2.1: `pip install lightning-habana`",
}
#: Strategy names 2.x keeps for another implementation: kept, with a warning (codemod rule strategy_names leaves a
#: TODO there). ``"fsdp"`` was FairScale's FSDP in 1.5 and is PyTorch's native FSDP in 2.x, as the rewrite keeps it.
CHANGED_MEANING: dict[str, str] = {
    "fsdp": "FSDPStrategy() (PyTorch's native FSDP, what strategy='fsdp' means in 2.x; 1.5's was FairScale's): check"
    " its options",
}
RENAMED_STRATEGIES = {"tpu_spawn": "xla", "tpu_spawn_debug": "xla_debug"}
IPU_MOVED = (
    "IPU support left Lightning in 2.1: `pip install lightning-graphcore` and pass its IPUAccelerator()/IPUStrategy()"
)
SAME_KIND = {"gpu": {"gpu", "cuda"}, "cpu": {"cpu"}, "tpu": {"tpu"}, "ipu": {"ipu"}}


@dataclass(frozen=True)
class Call:
    """An object to build on the target, ``target`` relative to the Lightning root (``"callbacks.TQDMProgressBar"``)."""

    target: str
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Use:
    """One legacy flag (or value) rewritten: what the user wrote, its 2.x spelling, the codemod rule that does it."""

    old: str
    replacement: str
    rule: str
    #: Whether ``migrate-trainer --only <rule>`` rewrites this use (False: it leaves a TODO and the shim decides).
    rewrites: bool = True


@dataclass(frozen=True)
class Translation:
    """The 2.x keyword arguments, the legacy uses found, and the error to raise (None: the call is fine)."""

    kwargs: dict[str, Any]
    uses: tuple[Use, ...]
    error: str | None = None
    #: The rule whose TODO would stand at this call (the codemod leaves it as it is): where the error comes from.
    error_rule: str | None = None
    #: The error is about a feature 2.x removed (DP, DDP2, Horovod, FairScale, IPU, apex...), not a combination of
    #: flags that 1.5 refused too.
    removed: bool = False


# --- reading values ------------------------------------------------------------------------------------------------
def encoded(value: Any) -> bool:
    """An instance in the reference-case encoding (``{"__class__": "DDPPlugin", "kwargs": {...}}``)."""
    return isinstance(value, Mapping) and isinstance(value.get("__class__"), str)


def class_names(value: Any) -> tuple[str, ...]:
    """The class names a value answers to: the encoded name, or a live object's MRO (builtins: none)."""
    if encoded(value):
        return (value["__class__"],)
    if value is None or isinstance(value, str | int | float | bool | list | tuple | dict):
        return ()
    return tuple(cls.__name__ for cls in type(value).__mro__ if cls.__module__ != "builtins")


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def is_strategy(value: Any) -> bool:
    """A strategy name of 1.5 or a strategy object (1.5 ``*Plugin`` or 2.x ``*Strategy``)."""
    if isinstance(value, str):
        return value.lower() in STRATEGY_NAMES
    return any(name in STRATEGY_CLASSES or name == "Strategy" for name in class_names(value))


def accelerator_kind(value: Any) -> str | None:
    return next((ACCELERATOR_KINDS[n] for n in class_names(value) if n in ACCELERATOR_KINDS), None)


def is_deepspeed(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower().startswith("deepspeed")
    return any(name.startswith("DeepSpeed") for name in class_names(value))


def plugin_precision(value: Any) -> Any:
    """The precision a precision plugin trains in, in 2.x spelling; None when ``value`` is not one."""
    names = class_names(value)
    if not names or not (names[0].endswith("PrecisionPlugin") or names[0].endswith("Precision")):
        return None
    if encoded(value):
        cls = value["__class__"]
        if cls in FIXED_PRECISION:
            return precision_2x(FIXED_PRECISION[cls])
        args, kwargs = value.get("args") or [], value.get("kwargs") or {}
        raw = kwargs.get("precision", args[0] if args else None)
        return precision_2x(raw)
    return precision_2x(getattr(value, "precision", None))


def shown(value: Any) -> str:
    if encoded(value):
        return f"{value['__class__']}(...)"
    if class_names(value):
        return f"{type(value).__name__}(...)"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    return repr(value)


# --- the plan: ordered flags, where each came from, what was found ---------------------------------------------------
class Stop(Exception):
    """A rule found what 1.5 refused, or what has no 2.x equivalent: the error to raise."""

    def __init__(self, rule: str, message: str, removed: bool = False) -> None:
        super().__init__(message)
        self.rule = rule
        self.removed = removed


class Plan:
    def __init__(self, kwargs: Mapping[str, Any], test_suite: bool = False) -> None:
        self.flags: dict[str, Any] = dict(kwargs)
        #: pytest runs the program: several devices 1.5 spawned keep ``ddp_spawn`` (legacy_api.launch_policy).
        self.test_suite = test_suite
        self.origin: dict[str, str] = {}
        self.uses: list[Use] = []
        self.given = dict(kwargs)

    def __contains__(self, key: str) -> bool:
        return key in self.flags

    def get(self, key: str) -> Any:
        return self.flags.get(key)

    def use(self, old: str, replacement: str, rule: str, rewrites: bool = True) -> None:
        self.uses.append(Use(old, replacement, rule, rewrites))

    def flag(self, key: str, replacement: str, rule: str, rewrites: bool = True) -> None:
        """A legacy flag as the user passed it (``Trainer(gpus=2)``) and its replacement."""
        value = self.given.get(key, self.flags.get(key))
        self.use(f"Trainer({key}={shown(value)})", replacement, rule, rewrites)
