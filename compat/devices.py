"""Lightning 1.5's device flags (``gpus``, ``tpu_cores``, ``ipus``, ``num_processes``) -> ``accelerator``/``devices``.

Precedence, as 1.5 resolved it: an explicit ``accelerator="cpu"`` (or ``"ddp_cpu"``) wins over device flags;
otherwise the last truthy flag in the order ipus, tpu_cores, gpus, num_processes picks the accelerator, and
``0``, ``"0"``, ``[]`` mean "not this device" (``gpus=0`` is the CPU). ``num_processes=1`` was 1.5's default
value, so passing it explicitly cannot have chosen the CPU over another device flag.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codemods.renames import DEVICE_FLAGS
from compat._rows import compat_removed_in, flag_versions
from compat._warn import CompatFallbackWarning, Notice, warn
from newcore.accelerators import Accelerator, AcceleratorRegistry
from newcore.connector.select import AUTO_ORDER, accelerator_name, detect_environment, strategy_class
from newcore.exceptions import MisconfigurationException
from newcore.probe import current_probe

#: The device flags in the order 1.5 evaluated them (the last truthy one wins).
ORDER = ("ipus", "tpu_cores", "gpus", "num_processes")


@dataclass(frozen=True)
class DeviceRequest:
    """The device part of the translation.

    ``accelerator``/``devices`` go to newcore; ``kind`` is the accelerator that will run (``"cuda"``,
    ``"cpu"``, ...; ``None`` if it cannot be known before newcore runs), ``count`` its number of devices
    (``None`` where not needed), ``flag`` the legacy flag that chose it.
    """

    accelerator: Any
    devices: Any
    kind: str | None
    count: int | None
    flag: str | None
    explicit_cpu: bool
    cluster_launched: bool


def truthy(value: Any) -> bool:
    """Lightning 1.5: ``0``, ``"0"``, ``""``, ``[]``, ``None`` and ``False`` mean "not this device"."""
    return value not in (None, 0, "0", "", False) and value != []


def spelling(flag: str, value: Any) -> str:
    """The new flags for ``<flag>=<value>``: ``gpus=2`` -> ``accelerator='gpu', devices=2``."""
    if not truthy(value):
        return "accelerator='cpu'"
    return f"accelerator={DEVICE_FLAGS[flag]!r}, devices={value!r}"


def shown(value: Any) -> str:
    """How messages quote a flag value: ``repr``, but objects as ``DDPStrategy(...)``, not their full repr."""
    if isinstance(value, list):
        return f"[{', '.join(shown(v) for v in value)}]"
    if isinstance(value, (str, int, float, tuple, type(None))):
        return repr(value)
    return f"{type(value).__name__}(...)"


def flag_notice(owner: str, flag: str, value: Any, new: str, details: str = "") -> Notice:
    """The warning for ``<owner>(<flag>=<value>)``, whose new spelling is ``new``."""
    deprecated_in, removed_in = flag_versions(flag)
    old = f"`{owner}({flag}={shown(value)})`"
    return Notice(old, f"`{new}`", deprecated_in, compat_removed_in(removed_in), details)


def _same_kind(accelerator: Any, kind: str) -> bool:
    aliases = {"gpu": {"gpu", "cuda"}, "cpu": {"cpu"}, "tpu": {"tpu"}, "ipu": {"ipu"}}
    return isinstance(accelerator, str) and accelerator.strip().lower() in aliases[kind]


def device_request(
    owner: str, given: dict[str, Any], accelerator: Any, devices: Any, strategy: Any, *, ddp_cpu: bool, num_nodes: int
) -> DeviceRequest:
    """Warn for each device flag given, then settle ``accelerator``/``devices`` as 1.5 did."""
    present = [(name, given[name]) for name in ORDER if name in given]
    for name, value in present:
        warn(flag_notice(owner, name, value, spelling(name, value)))
    chosen = [(f, v) for f, v in present if truthy(v) and not (f == "num_processes" and v == 1)]
    explicit_cpu = _same_kind(accelerator, "cpu")
    if ddp_cpu:
        if current_probe().tpu_device_count() > 0:
            raise MisconfigurationException(
                "`accelerator='ddp_cpu'` is not supported on TPU machines (Lightning 1.5 raised too):"
                " pass `accelerator='cpu', strategy='ddp_spawn', devices=N`."
            )
        if truthy(given.get("gpus")):
            why = "You requested one or more GPUs, but set `accelerator='ddp_cpu'`. Training will not use GPUs."
            warn(flag_notice(owner, "gpus", given["gpus"], "accelerator='cpu'", why), CompatFallbackWarning)
    flag: str | None = None
    if chosen and not explicit_cpu:
        flag, value = chosen[-1]
        if accelerator is None or accelerator == "auto":
            accelerator = DEVICE_FLAGS[flag]
        if _same_kind(accelerator, DEVICE_FLAGS[flag]):
            if devices is not None and devices != value:
                why = f"`devices={devices!r}` is ignored: Lightning 1.5 used the device specific number {value!r}."
                warn(flag_notice(owner, flag, value, spelling(flag, value), why), CompatFallbackWarning)
            devices = value
        else:
            flag = None
    elif explicit_cpu and "num_processes" in given:
        flag, devices = "num_processes", given["num_processes"]
    kind = _kind(accelerator, strategy)
    count = _count(kind, devices)
    launched = kind is not None and count is not None and _cluster_launched(count, num_nodes)
    return DeviceRequest(accelerator, devices, kind, count, flag, explicit_cpu, launched)


def _kind(accelerator: Any, strategy: Any) -> str | None:
    """The accelerator newcore will select (same rules as its phase 2), or ``None`` if the flag is invalid."""
    try:
        if isinstance(accelerator, Accelerator):
            return accelerator_name(accelerator)
        if accelerator is None:
            cls = strategy_class(strategy) if isinstance(strategy, (str, type(None))) else type(strategy)
            return getattr(cls, "default_accelerator", None) or "cpu"
        if accelerator == "auto":
            return next(n for n in AUTO_ORDER if AcceleratorRegistry.entry(n).cls.is_available())
        return accelerator_name(AcceleratorRegistry.get(str(accelerator)))
    except MisconfigurationException:  # newcore reports bad flags itself, in its own words
        return None


def _count(kind: str | None, devices: Any) -> int | None:
    if kind not in ("cpu", "cuda"):
        return None
    try:
        accelerator = AcceleratorRegistry.get(kind)
        return len(accelerator.get_parallel_devices(accelerator.parse_devices(1 if devices is None else devices)))
    except MisconfigurationException:
        return None


def _cluster_launched(count: int, num_nodes: Any) -> bool:
    nodes = num_nodes if isinstance(num_nodes, int) and num_nodes > 0 else 1
    return detect_environment(count, nodes).creates_processes_externally
