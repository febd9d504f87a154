"""Phase 1: check the user's flags against each other and settle the final flags.

Nothing here looks at the machine. Every conflict is reported with both values as the user gave
them; nothing is silently preferred.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch

from newcore.accelerators import Accelerator, AcceleratorRegistry
from newcore.exceptions import MisconfigurationException
from newcore.plugins.environments import ClusterEnvironment
from newcore.plugins.io import CheckpointIO
from newcore.plugins.layer_sync import LayerSync, NativeSyncBatchNorm
from newcore.plugins.precision import PrecisionPlugin
from newcore.plugins.precision.precision_plugin import PRECISION_ALIASES, normalize_precision
from newcore.strategies import ParallelStrategy, Strategy, StrategyRegistry

#: The plugin kinds ``plugins=`` accepts, at most one of each.
_PLUGIN_KINDS: tuple[tuple[str, type[Any]], ...] = (
    ("precision_plugin", PrecisionPlugin),
    ("cluster_environment", ClusterEnvironment),
    ("checkpoint_io", CheckpointIO),
    ("layer_sync", LayerSync),
)

#: Strategy names that existed in Lightning 1.x but are spelled differently now.
_RENAMED_STRATEGIES = {
    "ddp_cpu": "`strategy='ddp_cpu'` is not a strategy: pass `strategy='ddp_spawn'` (or 'ddp'), `accelerator='cpu'`"
    " and `devices=N` instead.",
    "tpu_spawn": "`strategy='tpu_spawn'` is not passed directly: pass `accelerator='tpu', devices=8` and the TPU"
    " spawn strategy is chosen for you (or `strategy='tpu_spawn_debug'` for XLA debugging).",
}


@dataclass(frozen=True)
class Flags:
    """The user's flags after phase 1: types checked, conflicts resolved, plugins sorted by kind."""

    accelerator: str | Accelerator | None
    strategy: str | Strategy | None
    devices: Any
    num_nodes: int
    precision: str
    precision_given: bool
    precision_plugin: PrecisionPlugin | None
    cluster_environment: ClusterEnvironment | None
    checkpoint_io: CheckpointIO | None
    layer_sync: LayerSync | None
    parallel_devices: tuple[torch.device, ...] | None


def check_flags(
    *,
    accelerator: Any,
    strategy: Any,
    devices: Any,
    num_nodes: Any,
    precision: Any,
    plugins: Any,
    sync_batchnorm: Any,
) -> Flags:
    """Validate the flags and return the final ones (phase 1)."""
    accelerator_flag = _check_accelerator(accelerator)
    strategy_flag = _check_strategy(strategy)
    _check_devices_type(devices)
    if isinstance(num_nodes, bool) or not isinstance(num_nodes, int) or num_nodes < 1:
        raise MisconfigurationException(
            f"`num_nodes={num_nodes!r}` is not valid: pass a whole number of nodes, 1 or more."
        )
    if not isinstance(sync_batchnorm, bool):
        raise MisconfigurationException(f"`sync_batchnorm={sync_batchnorm!r}` is not valid: pass True or False.")
    precision_flag = "32" if precision is None else normalize_precision(precision)
    if precision_flag is None:
        allowed = ", ".join(repr(p) for p in PRECISION_ALIASES)
        raise MisconfigurationException(f"`precision={precision!r}` is not valid. Allowed values: {allowed}.")

    found = _sort_plugins(plugins)
    layer_sync = found.get("layer_sync")
    if sync_batchnorm:
        if layer_sync is not None and not isinstance(layer_sync, NativeSyncBatchNorm):
            raise MisconfigurationException(
                f"You passed `sync_batchnorm=True` and the layer-sync plugin {layer_sync!r}: they do the same"
                " job. Keep one of them."
            )
        layer_sync = layer_sync or NativeSyncBatchNorm()

    parallel_devices: tuple[torch.device, ...] | None = None
    if isinstance(strategy_flag, Strategy):
        accelerator_flag = _donate(strategy_flag._accelerator, accelerator_flag, "accelerator", strategy_flag)
        owned = {
            "precision_plugin": strategy_flag._precision_plugin,
            "checkpoint_io": strategy_flag._checkpoint_io,
            "cluster_environment": getattr(strategy_flag, "cluster_environment", None),
        }
        for kind, own in owned.items():
            found[kind] = _donate(own, found.get(kind), kind, strategy_flag)
        if isinstance(strategy_flag, ParallelStrategy) and strategy_flag.parallel_devices:
            parallel_devices = tuple(strategy_flag.parallel_devices)
            accelerator_flag = _accelerator_from_devices(parallel_devices, accelerator_flag, strategy_flag)

    precision_plugin = found.get("precision_plugin")
    if precision is not None and precision_plugin is not None and precision_plugin.precision != precision_flag:
        raise MisconfigurationException(
            f"You passed `precision={precision!r}` and the precision plugin {precision_plugin!r}, which trains in"
            f" precision {precision_plugin.precision!r}. Pass one of them, or make them agree."
        )
    if precision_plugin is not None:
        precision_flag = precision_plugin.precision

    return Flags(
        accelerator=accelerator_flag,
        strategy=strategy_flag,
        devices=devices,
        num_nodes=num_nodes,
        precision=precision_flag,
        precision_given=precision is not None or precision_plugin is not None,
        precision_plugin=precision_plugin,
        cluster_environment=found.get("cluster_environment"),
        checkpoint_io=found.get("checkpoint_io"),
        layer_sync=layer_sync,
        parallel_devices=parallel_devices,
    )


def _check_accelerator(accelerator: Any) -> str | Accelerator | None:
    # Strings first: the common case, and a str never needs the (slower) ABC instance check.
    if isinstance(accelerator, str):
        name = accelerator.strip().lower()
        if name == "auto" or name in AcceleratorRegistry:
            return name
        if name in StrategyRegistry or name in _RENAMED_STRATEGIES:
            raise MisconfigurationException(
                f"`accelerator={accelerator!r}` names a strategy, not a device. Pass `strategy={accelerator!r}`"
                " together with the device, e.g. `accelerator='gpu'` (run `migrate-trainer` to rewrite this)."
            )
        raise MisconfigurationException(
            f"`accelerator={accelerator!r}` is not a known accelerator. Valid names: auto, "
            + ", ".join(AcceleratorRegistry.names())
            + "."
        )
    if accelerator is None or isinstance(accelerator, Accelerator):
        return accelerator
    if isinstance(accelerator, Strategy):
        raise MisconfigurationException(
            f"`accelerator={accelerator!r}` is a strategy object: pass it as `strategy=` instead."
        )
    raise MisconfigurationException(
        f"`accelerator={accelerator!r}` must be an accelerator name or an Accelerator instance,"
        f" not a {type(accelerator).__name__}."
    )


def _check_strategy(strategy: Any) -> str | Strategy | None:
    if strategy is None or isinstance(strategy, Strategy):
        return strategy
    if isinstance(strategy, str):
        name = strategy.strip().lower()
        if name in _RENAMED_STRATEGIES:
            raise MisconfigurationException(_RENAMED_STRATEGIES[name])
        if name in StrategyRegistry:
            return name
        if name in AcceleratorRegistry:
            raise MisconfigurationException(
                f"`strategy={strategy!r}` names a device, not a strategy: pass `accelerator={strategy!r}`."
            )
        raise MisconfigurationException(
            f"`strategy={strategy!r}` is not a known strategy. Valid names: {', '.join(StrategyRegistry.names())}."
        )
    if isinstance(strategy, type) and issubclass(strategy, Strategy):
        raise MisconfigurationException(
            f"`strategy={strategy.__name__}` is a class: pass an instance, `strategy={strategy.__name__}()`."
        )
    raise MisconfigurationException(
        f"`strategy={strategy!r}` must be a strategy name or a Strategy instance, not a {type(strategy).__name__}."
    )


def _check_devices_type(devices: Any) -> None:
    ok = devices is None or (isinstance(devices, (int, str)) and not isinstance(devices, bool))
    if isinstance(devices, Sequence) and not isinstance(devices, str):
        ok = all(isinstance(d, int) and not isinstance(d, bool) for d in devices)
    if not ok:
        raise MisconfigurationException(
            f"`devices={devices!r}` is not valid: pass a number of devices, a list of device indices such as"
            " [0, 1], a string such as '0,1', or 'auto'."
        )


def _sort_plugins(plugins: Any) -> dict[str, Any]:
    """Sort ``plugins=`` by kind, refusing strategies, unknown objects and two plugins of one kind."""
    if plugins is None:
        return {}
    items = list(plugins) if isinstance(plugins, (list, tuple)) else [plugins]
    found: dict[str, Any] = {}
    for plugin in items:
        if isinstance(plugin, Strategy) or (isinstance(plugin, str) and plugin.lower() in StrategyRegistry):
            raise MisconfigurationException(
                f"`plugins=[{plugin!r}]` holds a strategy. Strategies go in `strategy=`: pass `strategy={plugin!r}`"
                " (run `migrate-trainer` to rewrite this)."
            )
        kind = next((k for k, cls in _PLUGIN_KINDS if isinstance(plugin, cls)), None)
        if kind is None:
            raise MisconfigurationException(
                f"`plugins=` got {plugin!r}, which is not a plugin. Expected instances of PrecisionPlugin,"
                " ClusterEnvironment, CheckpointIO or LayerSync."
            )
        if kind in found:
            raise MisconfigurationException(
                f"`plugins=` holds two {kind.replace('_', ' ')}s, {found[kind]!r} and {plugin!r}. Pass at most one."
            )
        found[kind] = plugin
    return found


def _donate(own: Any, flag: Any, kind: str, strategy: Strategy) -> Any:
    """A strategy instance that carries ``kind`` itself gives it to the flags; both set is a conflict."""
    if own is None:
        return flag
    if flag is not None and flag is not own:
        where = "accelerator=" if kind == "accelerator" else "plugins="
        raise MisconfigurationException(
            f"The {kind.replace('_', ' ')} is set twice: by the strategy {strategy!r} ({own!r}) and by `{where}`"
            f" ({flag!r}). Choose one."
        )
    return own


def _accelerator_from_devices(
    devices: tuple[torch.device, ...], flag: str | Accelerator | None, strategy: Strategy
) -> str | Accelerator | None:
    """A strategy built with explicit devices fixes the accelerator; a different one is a conflict."""
    device_type = devices[0].type
    compatible = {"cpu": {"cpu"}, "cuda": {"cuda", "gpu"}, "mps": {"mps", "gpu"}, "xla": {"tpu"}, "ipu": {"ipu"}}
    names = compatible.get(device_type, {device_type})
    given = flag if isinstance(flag, str) or flag is None else (getattr(flag, "name", "") or type(flag).__name__)
    if given in (None, "auto"):
        return "tpu" if device_type == "xla" else device_type
    if given not in names and not (isinstance(flag, Accelerator) and flag.name in names):
        raise MisconfigurationException(
            f"The strategy {strategy!r} was built for {device_type} devices, but `accelerator={given!r}`."
            " Choose one device type."
        )
    return flag
