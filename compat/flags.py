"""Lightning 1.5 flags -> newcore flags, before newcore's first phase.

:func:`translate` returns the keyword arguments for ``newcore.AcceleratorConnector`` that select what
Lightning 1.5.10 selected for the same flags on the same machine, and warns once per legacy flag with the
new spelling of the value passed. newcore never sees a legacy value. Where 1.5 chose differently from
newcore, compat follows 1.5 and says so (:class:`~compat.CompatFallbackWarning`); where 1.5 raised, so do we.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from compat._rows import compat_removed_in, flag_versions
from compat._warn import CompatDeprecationWarning, CompatFallbackWarning, Notice, warn
from compat.devices import DeviceRequest, device_request, flag_kind, flag_notice, shown
from compat.enums import member_value
from legacy_api.lightning15 import CPU_FALLBACK, LEGACY_FLAGS, NO_EFFECT_ON_ONE_CPU, truthy
from newcore.exceptions import MisconfigurationException
from newcore.plugins.precision import ApexMixedPrecisionPlugin, PrecisionPlugin
from newcore.plugins.precision.precision_plugin import normalize_precision
from newcore.strategies import DeepSpeedStrategy, Strategy, StrategyRegistry

#: Names that survived ``tpu_cores``/``ipus`` in 1.5 (its registered plugins, and horovod); any other strategy
#: name was replaced by the TPU or IPU strategy (1.5's ``set_distributed_mode`` checked the device first).
_KEPT_ON_TPU_AND_IPU = ("deepspeed", "fsdp", "tpu_spawn_debug", "horovod")


def _registered_in_15(name: str) -> bool:
    """Whether 1.5 built a plugin object for this name (its registry), rather than only noting a distributed type."""
    return name.endswith("find_unused_parameters_false") or name.startswith(("deepspeed", "fsdp", "tpu_spawn_debug"))


def _is_plugin_object(value: Any) -> bool:
    return isinstance(value, Strategy) or (isinstance(value, str) and _registered_in_15(value.strip().lower()))


@dataclass(frozen=True)
class LegacyFlags:
    """What the user passed in 1.5 terms, kept for the old properties (``gpus``, ``amp_backend``, ...)."""

    given: Mapping[str, Any] = field(default_factory=dict)
    device_flag: str | None = None
    devices: Any = None
    amp_backend: str = "native"
    amp_level: str | None = None
    replace_sampler_ddp: bool = True


def _fallback(owner: str, what: str, spelling: str, why: str) -> None:
    deprecated_in, removed_in = flag_versions("fallback")
    notice = Notice(f"`{owner}({what})`", f"`{spelling}`", deprecated_in, compat_removed_in(removed_in), why)
    warn(notice, CompatFallbackWarning)


def is_strategy(value: Any) -> bool:
    """A strategy instance or a registered strategy name (what 1.5 accepted in ``accelerator=``/``plugins=``)."""
    return isinstance(value, Strategy) or (isinstance(value, str) and value.strip().lower() in StrategyRegistry)


def _strategy_from_accelerator(owner: str, accelerator: Any, strategy: Any, flag: str) -> tuple[Any, Any]:
    """``accelerator="ddp"`` (or ``distributed_backend=``) names a strategy: move it to ``strategy=``."""
    if strategy is not None:  # 1.5 refused both, even when they named the same strategy
        raise MisconfigurationException(
            f"`strategy={strategy!r}` is already set, but `{flag}={accelerator!r}` names a strategy too."
            " Pass only `strategy=`."
        )
    if flag == "accelerator":
        warn(flag_notice(owner, flag, accelerator, f"strategy={shown(accelerator)}"))
    return accelerator, None


def _strategies_from_plugins(owner: str, plugins: Any, strategy: Any, from_strategy_flag: bool) -> tuple[Any, Any]:
    """Strategies in ``plugins=`` move to ``strategy=``; as in 1.5 the last one given wins over earlier ones
    (from ``accelerator=`` or ``plugins=``), with a warning, and one given in ``strategy=`` as well is an error."""
    if plugins is None:
        return plugins, strategy
    items = list(plugins) if isinstance(plugins, (list, tuple)) else [plugins]
    kept = []
    for plugin in items:
        if not is_strategy(plugin):
            kept.append(plugin)
            continue
        if strategy is not None and (from_strategy_flag or (_is_plugin_object(strategy) and _is_plugin_object(plugin))):
            raise MisconfigurationException(
                f"You passed the strategy {strategy!r} and also the strategy {plugin!r} in `plugins=`. Pass one"
                " strategy, in `strategy=`."
            )
        warn(flag_notice(owner, "plugins", [plugin], f"strategy={shown(plugin)}"))
        if strategy is None:
            strategy = plugin
            continue
        # 1.5: a plugin object (an instance or a registered name) beat plain names; among names the last won.
        chosen = strategy if _is_plugin_object(strategy) else plugin
        _fallback(
            owner,
            f"plugins=[{shown(plugin)}]",
            f"strategy={shown(chosen)}",
            f"Two strategies were given ({shown(strategy)} and {shown(plugin)}): Lightning 1.5 used"
            f" {shown(chosen)}, and so does compat. Pass only the one you mean.",
        )
        strategy = chosen
    return (kept or None), strategy


def translate(owner: str, flags: dict[str, Any]) -> tuple[dict[str, Any], LegacyFlags]:
    """Turn ``flags`` (new and legacy, as passed) into newcore flags plus the legacy values for properties."""
    passed = {k: flags.pop(k, None) for k in LEGACY_FLAGS}
    given = {k: v for k, v in passed.items() if v is not None}
    for key in ("accelerator", "strategy", *given):
        if key in flags:
            flags[key] = member_value(flags[key])
        if key in given:
            given[key] = member_value(given[key])
    accelerator, strategy = flags.get("accelerator"), flags.get("strategy")
    from_strategy_flag = strategy is not None

    source = "accelerator"
    if "distributed_backend" in given:  # 1.4's name for accelerator=, itself a strategy name by 1.5
        backend = given["distributed_backend"]
        warn(flag_notice(owner, "distributed_backend", backend, f"strategy={backend!r}"))
        accelerator, source = backend, "distributed_backend"
    if isinstance(accelerator, str) and accelerator.strip().lower() == "tpu_spawn" and truthy(given.get("tpu_cores")):
        # 1.5 took `accelerator='tpu_spawn'` silently (it was a DistributedType) and ran TPU spawn on the cores.
        warn(flag_notice(owner, source, accelerator, "accelerator='tpu'"))
        accelerator = "tpu"
    if is_strategy(accelerator):
        strategy, accelerator = _strategy_from_accelerator(owner, accelerator, strategy, source)
    flags["plugins"], strategy = _strategies_from_plugins(owner, flags.get("plugins"), strategy, from_strategy_flag)

    ddp_cpu = isinstance(accelerator, str) and accelerator.strip().lower() == "ddp_cpu"
    request = device_request(
        owner,
        given,
        "cpu" if ddp_cpu else accelerator,
        flags.get("devices"),
        strategy,
        ddp_cpu=ddp_cpu,
        num_nodes=flags.get("num_nodes", 1),
    )
    flags["accelerator"] = request.accelerator
    flags["devices"] = request.devices
    if "auto_select_gpus" in given:
        count = given.get("gpus")
        warn(flag_notice(owner, "auto_select_gpus", given["auto_select_gpus"], f"devices={count!r}"))

    flags["strategy"] = _choose_strategy(owner, request, strategy, ddp_cpu, flags.get("num_nodes", 1))
    legacy = LegacyFlags(
        given=given,
        device_flag=request.flag,
        devices=request.devices,
        amp_backend=str(given.get("amp_backend", "native")).lower(),
        amp_level=given.get("amp_level"),
        replace_sampler_ddp=bool(given.get("replace_sampler_ddp", True)),
    )
    _translate_precision(owner, flags, legacy, request)
    if "replace_sampler_ddp" in given:
        value = given["replace_sampler_ddp"]
        warn(flag_notice(owner, "replace_sampler_ddp", value, f"use_distributed_sampler={value!r}"))
    return flags, legacy


def _choose_strategy(owner: str, request: DeviceRequest, strategy: Any, ddp_cpu: bool, num_nodes: int) -> Any:
    """Lightning 1.5's strategy choice where it differs from newcore's (elsewhere newcore's default is 1.5's)."""
    name = strategy.strip().lower() if isinstance(strategy, str) else None
    on_cpu, count = request.kind == "cpu", request.count
    if ddp_cpu and strategy is None:
        chosen = "ddp" if count == 1 and num_nodes > 1 else "ddp_spawn"
        _fallback(
            owner,
            "accelerator='ddp_cpu'",
            f"accelerator='cpu', strategy={chosen!r}, devices={count}",
            "newcore has no 'ddp_cpu' and refuses it.",
        )
        return chosen
    if name in NO_EFFECT_ON_ONE_CPU and on_cpu and count == 1 and num_nodes == 1 and not request.explicit_cpu:
        _fallback(
            owner,
            f"strategy={strategy!r}",
            "strategy='single_device'",
            "On one CPU process Lightning 1.5 ignored it ('distributed has no effect') and compat does too;"
            " newcore would run it with a single process.",
        )
        return "single_device"
    if name == "dp" and num_nodes > 1 and not (on_cpu and not request.explicit_cpu):
        raise MisconfigurationException(
            "Your chosen strategy does not support `num_nodes > 1`. Please set `strategy=('ddp'|'ddp2')`."
            " (DataParallel runs in one process: Lightning 1.5 raised here too.)"
        )
    device_named = request.kind in ("tpu", "ipu") and request.kind == flag_kind(request.accelerator)
    refused = name in ("tpu_spawn", "ddp_cpu")  # 1.5 refused these in `strategy=` before looking at devices
    kept = name is None or refused or name.startswith(_KEPT_ON_TPU_AND_IPU) or _registered_in_15(name)
    if device_named and not kept:
        _fallback(
            owner,
            f"strategy={strategy!r}",
            "no `strategy` (the TPU/IPU strategy is chosen for you)",
            f"With {str(request.kind).upper()} devices Lightning 1.5 ignored the strategy name and ran its"
            f" {str(request.kind).upper()} strategy; compat does too, newcore would refuse the combination.",
        )
        strategy = name = None
    if request.kind == "tpu" and strategy is None and _one_core_by_count(request.devices):
        # 1.5: an int `tpu_cores` (even 1) meant TPU spawn; only a core index ([5]) meant one TPU, no spawning.
        return StrategyRegistry.get("tpu_spawn")
    if name in CPU_FALLBACK and on_cpu:  # newcore refuses dp/ddp2 on the CPU; compat maps them as 1.5 did
        chosen = CPU_FALLBACK[name]
        _fallback(
            owner,
            f"strategy={strategy!r}",
            f"strategy={chosen!r}",
            f"{strategy!r} is not supported on CPUs: Lightning 1.5 used {chosen!r}, so does compat; newcore raises.",
        )
        return chosen
    if strategy is None and request.kind == "cuda" and count is not None:
        if count == 1 and num_nodes > 1:
            raise MisconfigurationException(
                "Your chosen strategy does not support `num_nodes > 1`. Please set `strategy=('ddp'|'ddp2')`."
                " (Lightning 1.5 raised here too; newcore would pick 'ddp'.)"
            )
        if count > 1:
            warn(
                Notice(
                    "Choosing a strategy for several GPUs implicitly",
                    "`strategy='ddp_spawn'` (or 'ddp')",
                    *_fallback_versions(),
                    "You requested multiple GPUs but did not specify a backend; Lightning 1.5 set"
                    " `strategy='ddp_spawn'` for you, and so does compat.",
                ),
                CompatFallbackWarning,
            )
            if num_nodes > 1 and not request.cluster_launched:
                return "ddp_spawn"  # newcore would pick 'ddp' for several nodes
    return strategy


def _one_core_by_count(devices: Any) -> bool:
    return devices in (1, "1") and not isinstance(devices, bool)


def _fallback_versions() -> tuple[str, str]:
    deprecated_in, removed_in = flag_versions("fallback")
    return deprecated_in, compat_removed_in(removed_in)


def _is_deepspeed(strategy: Any) -> bool:
    name = strategy if isinstance(strategy, str) else getattr(strategy, "registered_name", None) or ""
    return name.strip().lower().startswith("deepspeed") or isinstance(strategy, DeepSpeedStrategy)


def _translate_precision(owner: str, flags: dict[str, Any], legacy: LegacyFlags, request: DeviceRequest) -> None:
    precision = flags.get("precision")
    deepspeed = _is_deepspeed(flags.get("strategy"))
    if precision == "mixed" and deepspeed:
        # 1.5's DeepSpeed plugin enabled fp16 for precision 16 and "mixed" alike.
        _fallback(owner, "precision='mixed'", "precision=16", "DeepSpeed's 'mixed' was float16 AMP in 1.5.")
        flags["precision"] = precision = 16
    _plugin_over_precision(owner, flags)
    precision = flags.get("precision")
    is_16 = precision in (16, "16")
    if "amp_backend" in legacy.given:
        value = legacy.given["amp_backend"]
        spelling = f"plugins=[ApexMixedPrecisionPlugin(amp_level={legacy.amp_level or 'O2'!r})]"
        warn(flag_notice(owner, "amp_backend", value, spelling if legacy.amp_backend == "apex" else "precision=16"))
    if legacy.amp_level is not None:
        if legacy.amp_backend != "apex":
            raise MisconfigurationException(
                f"You have asked for `amp_level={legacy.amp_level!r}` but it's only supported with"
                " `amp_backend='apex'`."
            )
        level = legacy.amp_level
        warn(flag_notice(owner, "amp_level", level, f"plugins=[ApexMixedPrecisionPlugin(amp_level={level!r})]"))
    if legacy.amp_backend == "apex" and precision == "bf16":
        raise MisconfigurationException(
            "You passed `amp_backend='apex'` and `precision='bf16'`, but apex has no bfloat16 AMP (Lightning 1.5"
            " raised too). Drop `amp_backend` to use native bf16 AMP."
        )
    # precision=16 on the CPU: Lightning 1.5.10 switched to bf16 with a warning, and so does newcore.
    # On TPUs, IPUs and with DeepSpeed 1.5 chose their own precision plugin and never used apex.
    if legacy.amp_backend == "apex" and is_16 and request.kind not in ("tpu", "ipu") and not deepspeed:
        plugins = flags.get("plugins")
        items = list(plugins) if isinstance(plugins, (list, tuple)) else ([] if plugins is None else [plugins])
        flags["plugins"] = [*items, ApexMixedPrecisionPlugin(amp_level=legacy.amp_level or "O2")]
    if legacy.amp_backend not in ("native", "apex"):
        raise MisconfigurationException(
            f"`amp_backend={legacy.given['amp_backend']!r}` is not an AMP backend: pass 'native' or 'apex'."
        )


def _plugin_over_precision(owner: str, flags: dict[str, Any]) -> None:
    """1.5 used a precision plugin from ``plugins=`` and ignored a ``precision=`` that disagreed; newcore refuses."""
    precision = flags.get("precision")
    if precision is None:
        return
    plugins = flags.get("plugins")
    items = list(plugins) if isinstance(plugins, (list, tuple)) else ([] if plugins is None else [plugins])
    plugin = next((p for p in items if isinstance(p, PrecisionPlugin)), None)
    if plugin is None or normalize_precision(precision) == plugin.precision:
        return
    _fallback(
        owner,
        f"precision={precision!r}",
        f"plugins=[{type(plugin).__name__}(...)] without `precision`",
        f"Lightning 1.5 trained in the plugin's precision {plugin.precision!r} and ignored `precision`;"
        " compat does too, newcore refuses the conflict.",
    )
    flags["precision"] = None


__all__ = ["LEGACY_FLAGS", "CompatDeprecationWarning", "LegacyFlags", "is_strategy", "translate"]
