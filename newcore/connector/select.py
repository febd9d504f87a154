"""Phase 2: choose accelerator, devices, cluster environment, strategy and precision.

Each choice is a small function over the final flags and the machine (the probe and the
environment variables); defaults follow Lightning 1.6 so unmigrated code keeps its selection.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from newcore import environ
from newcore.accelerators import Accelerator, AcceleratorRegistry, TPUAccelerator
from newcore.connector.flags import Flags
from newcore.exceptions import MisconfigurationException
from newcore.plugins.environments import (
    ClusterEnvironment,
    KubeflowEnvironment,
    LightningEnvironment,
    LSFEnvironment,
    SLURMEnvironment,
    TorchElasticEnvironment,
)
from newcore.plugins.precision import (
    ApexMixedPrecisionPlugin,
    DoublePrecisionPlugin,
    MixedPrecisionPlugin,
    PrecisionPlugin,
    TPUPrecisionPlugin,
)
from newcore.probe import Probe
from newcore.strategies import Strategy, StrategyRegistry
from newcore.warnings import warn_fallback

#: ``accelerator="auto"`` takes the first available of these.
AUTO_ORDER = ("tpu", "ipu", "cuda", "mps", "cpu")

#: Accelerators that bring their own strategies: (one device, several devices).
ACCELERATOR_STRATEGIES = {"tpu": ("single_tpu", "tpu_spawn"), "ipu": ("ipu_strategy", "ipu_strategy")}

#: Cluster environments tried in order; the first whose test passes wins, else LightningEnvironment.
#: SLURM counts only when it runs one task per device (otherwise our own launcher starts the processes).
#: The middle column is a variable each environment cannot do without: checked first, it keeps the
#: common no-scheduler case to one cheap lookup per environment.
ENVIRONMENT_DETECTION: tuple[tuple[type[ClusterEnvironment], str, Callable[[int, int], bool]], ...] = (
    (SLURMEnvironment, "SLURM_NTASKS", SLURMEnvironment.manages_tasks),
    (TorchElasticEnvironment, "GROUP_RANK", lambda devices, nodes: TorchElasticEnvironment.detect()),
    (KubeflowEnvironment, "KUBERNETES_PORT", lambda devices, nodes: KubeflowEnvironment.detect()),
    (LSFEnvironment, "LSB_JOBID", lambda devices, nodes: LSFEnvironment.detect()),
)

#: A launcher that starts processes cannot run where the scheduler already started them.
SPAWN_TO_SCRIPT = {
    "ddp_spawn": "ddp",
    "ddp_spawn_find_unused_parameters_false": "ddp_find_unused_parameters_false",
    "ddp_fork": "ddp",
    "ddp_fork_find_unused_parameters_false": "ddp_find_unused_parameters_false",
    "ddp_notebook": "ddp",
    "ddp_notebook_find_unused_parameters_false": "ddp_find_unused_parameters_false",
    "ddp_spawn_find_unused_parameters_true": "ddp_find_unused_parameters_true",
    "ddp_fork_find_unused_parameters_true": "ddp_find_unused_parameters_true",
    "ddp_notebook_find_unused_parameters_true": "ddp_find_unused_parameters_true",
    "ddp_sharded_spawn": "ddp_sharded",
    "ddp_sharded_spawn_find_unused_parameters_false": "ddp_sharded_find_unused_parameters_false",
}


@dataclass(frozen=True)
class Selection:
    """What phase 2 chose. The strategy is still a name (or the user's instance): phase 3 builds it."""

    accelerator: Accelerator
    accelerator_name: str
    parallel_devices: tuple[torch.device, ...]
    num_nodes: int
    cluster_environment: ClusterEnvironment
    strategy: str | Strategy
    precision_plugin: PrecisionPlugin


def strategy_class(strategy: str | Strategy | None) -> type[Strategy] | None:
    """The class a strategy flag stands for (``None`` when no strategy was given)."""
    if strategy is None:
        return None
    return StrategyRegistry.entry(strategy).cls if isinstance(strategy, str) else type(strategy)


def select(flags: Flags, probe: Probe) -> Selection:
    """Run phase 2 for ``flags`` on the machine described by ``probe``."""
    name, accelerator = choose_accelerator(flags)
    # A Horovod job with no strategy flag runs Horovod: its device default applies already.
    planned = flags.strategy if flags.strategy is not None else ("horovod" if _horovod_job(probe) else None)
    devices = choose_devices(flags, accelerator, name, strategy_class(planned))
    environment = flags.cluster_environment or detect_environment(len(devices), flags.num_nodes)
    if flags.strategy is None:
        strategy: str | Strategy = default_strategy(name, len(devices), flags.num_nodes, environment, probe)
    else:
        strategy = fall_back(flags.strategy, environment)
    strategy_cls = strategy_class(strategy)
    assert strategy_cls is not None
    precision = choose_precision(flags, accelerator, strategy_cls, devices[0].type)
    return Selection(accelerator, name, devices, flags.num_nodes, environment, strategy, precision)


def accelerator_name(accelerator: Accelerator) -> str:
    """The canonical registry name of an accelerator instance (``"cuda"``, not its alias ``"gpu"``)."""
    if accelerator.name:
        return accelerator.name
    names = [n for n in AcceleratorRegistry.names_for(type(accelerator)) if n != "gpu"]
    return names[0] if names else type(accelerator).__name__


def choose_accelerator(flags: Flags) -> tuple[str, Accelerator]:
    """The accelerator flag, else the one the strategy needs, else the CPU; ``"auto"`` detects."""
    flag = flags.accelerator
    if isinstance(flag, Accelerator):
        accelerator = flag
    else:
        if flag is None:
            strategy_cls = strategy_class(flags.strategy)
            flag = getattr(strategy_cls, "default_accelerator", None) or "cpu"
        if flag == "auto":
            flag = next(n for n in AUTO_ORDER if AcceleratorRegistry.entry(n).cls.is_available())
        accelerator = AcceleratorRegistry.get(flag)
    if not accelerator.is_available():
        available = [e.name for e in AcceleratorRegistry if e.cls.is_available()]
        raise MisconfigurationException(
            f"`accelerator={flags.accelerator!r}` asks for {type(accelerator).__name__}, but this machine has none."
            f" Available accelerators: {', '.join(available)}. Pass one of them (or 'auto')."
        )
    return accelerator_name(accelerator), accelerator


def choose_devices(
    flags: Flags, accelerator: Accelerator, name: str, strategy_cls: type[Strategy] | None = None
) -> tuple[torch.device, ...]:
    """The parallel devices: the strategy's own, else ``devices=`` parsed by the accelerator (default: all)."""
    if flags.parallel_devices:
        return flags.parallel_devices
    if flags.devices == "auto" and flags.accelerator is None:
        raise MisconfigurationException(
            "`devices='auto'` needs an accelerator to count: pass `accelerator='auto'` to use every device of the"
            " best kind available, or name the accelerator, e.g. `accelerator='gpu', devices='auto'`."
        )
    # As in Lightning 1.6: a named accelerator without `devices` takes all of its devices (the CPU: one),
    # unless the strategy takes one (single-device strategies, Horovod).
    default = (strategy_cls or Strategy).default_devices
    devices_flag = default if flags.devices is None else flags.devices
    parsed = accelerator.parse_devices(devices_flag)
    devices = tuple(accelerator.get_parallel_devices(parsed))
    if not devices:
        raise MisconfigurationException(f"`devices={flags.devices!r}` selects no {name} device.")
    return devices


def detect_environment(num_devices: int, num_nodes: int) -> ClusterEnvironment:
    """The scheduler this process runs under, from environment variables only."""
    for cls, required, detected in ENVIRONMENT_DETECTION:
        if environ.has(required) and detected(num_devices, num_nodes):
            return cls()
    return LightningEnvironment()


def _horovod_job(probe: Probe) -> bool:
    return (environ.has("OMPI_COMM_WORLD_RANK") or environ.has("HOROVOD_RANK")) and probe.has_package("horovod")


def default_strategy(
    accelerator: str, num_devices: int, num_nodes: int, environment: ClusterEnvironment, probe: Probe
) -> str:
    """The strategy when none was given (Lightning 1.6's defaults, plus ``ddp_fork`` in notebooks as in 1.7)."""
    if accelerator in ACCELERATOR_STRATEGIES:
        return ACCELERATOR_STRATEGIES[accelerator][num_devices > 1]
    if _horovod_job(probe):
        return "horovod"
    if num_nodes > 1:
        return "ddp"
    if num_devices <= 1:
        return "single_device"
    if environment.creates_processes_externally:
        return "ddp"
    if probe.is_interactive() and probe.fork_available() and accelerator != "cuda":
        return "ddp_fork"
    return "ddp_spawn"


def fall_back(strategy: str | Strategy, environment: ClusterEnvironment) -> str | Strategy:
    """A strategy *name* the machine cannot honour is replaced, with a warning; instances are never altered."""
    if isinstance(strategy, str) and strategy in SPAWN_TO_SCRIPT and environment.creates_processes_externally:
        replacement = SPAWN_TO_SCRIPT[strategy]
        warn_fallback(
            f"`strategy={strategy!r}` starts its own processes, but {type(environment).__name__} already started"
            f" one per device. Using `strategy={replacement!r}` instead; pass it yourself to silence this warning."
        )
        return replacement
    return strategy


def choose_precision(
    flags: Flags, accelerator: Accelerator, strategy_cls: type[Strategy], device_type: str
) -> PrecisionPlugin:
    """The user's plugin, else the accelerator's, the strategy's, or the generic one for the precision."""
    plugin = flags.precision_plugin
    if plugin is None:
        precision = flags.precision
        if precision == "16" and device_type == "cpu":
            warn_fallback(
                "You passed `precision=16` on the CPU, where float16 mixed precision is not supported by native"
                " AMP. Using `precision='bf16'` instead; pass it yourself to silence this warning."
            )
            precision = "bf16"
        plugin = (
            accelerator.default_precision_plugin(precision)
            or strategy_cls.default_precision_plugin(precision, device_type)
            or _generic_precision(precision, device_type)
        )
    if isinstance(plugin, ApexMixedPrecisionPlugin) and device_type == "cpu":
        raise MisconfigurationException(
            "You passed an `ApexMixedPrecisionPlugin` with `accelerator='cpu'`, but apex AMP runs on CUDA only."
            " On the CPU, native AMP works in bfloat16: pass `precision='bf16'` and drop the apex plugin."
        )
    if isinstance(accelerator, TPUAccelerator) and not isinstance(plugin, TPUPrecisionPlugin):
        raise MisconfigurationException(
            f"`accelerator='tpu'` needs a TPU precision plugin, but `plugins=` holds {plugin!r}."
            " Drop it and pass `precision=32` or `precision='bf16'`."
        )
    return plugin


#: The precision plugin for each precision when neither accelerator nor strategy brings its own.
GENERIC_PRECISION: dict[str, Callable[[str], PrecisionPlugin]] = {
    "32": lambda device_type: PrecisionPlugin(),
    "64": lambda device_type: DoublePrecisionPlugin(),
    "16": lambda device_type: MixedPrecisionPlugin("16", device_type),
    "bf16": lambda device_type: MixedPrecisionPlugin("bf16", device_type),
}


def _generic_precision(precision: str, device_type: str) -> PrecisionPlugin:
    return GENERIC_PRECISION[precision](device_type)
