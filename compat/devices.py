"""Lightning 1.5's device flags (``gpus``, ``tpu_cores``, ``ipus``, ``num_processes``) -> ``accelerator``/``devices``.

Precedence, as Lightning 1.5.10's connector resolved it (read from its source, checked against the recorded
cases): a named accelerator takes the count of its own flag (``accelerator="cpu"`` or ``"ddp_cpu"``:
``num_processes``, unless that is 1.5's default 1, in which case ``devices``); without one, the first truthy flag
of gpus, tpu_cores, ipus, num_processes picks the accelerator (1.5 set the device type from ``gpus`` last, so
``gpus=2, num_processes=3`` ran on two GPUs; it is 1.6 in which the last flag wins). ``0``, ``"0"``, ``[]`` mean
"not this device" (``gpus=0`` is the CPU). ``accelerator="auto"`` with no count at all meant the CPU in 1.5.
``tpu_cores`` is validated first, as 1.5's Trainer did: 1, 8 or one index in [1, 8], on a machine with TPUs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compat._rows import compat_removed_in, flag_versions
from compat._warn import CompatFallbackWarning, Notice, warn
from legacy_api.lightning15 import DEVICE_FLAGS, PRECEDENCE, WARNING_ORDER, truthy
from newcore.accelerators import Accelerator, AcceleratorRegistry
from newcore.connector.select import AUTO_ORDER, accelerator_name, detect_environment, strategy_class
from newcore.exceptions import MisconfigurationException
from newcore.probe import current_probe


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


def flag_kind(accelerator: Any) -> str | None:
    """The device flag's accelerator name (``"gpu"``, ``"tpu"``, ...) an accelerator flag stands for, if any."""
    if isinstance(accelerator, Accelerator):
        accelerator = accelerator_name(accelerator)
    if not isinstance(accelerator, str):
        return None
    name = accelerator.strip().lower()
    return "gpu" if name == "cuda" else name


def _same_kind(accelerator: Any, kind: str) -> bool:
    return flag_kind(accelerator) == kind


def check_tpu_cores(value: Any) -> None:
    """1.5's Trainer parsed ``tpu_cores`` before anything else: 1, 8 or one core index in [1, 8], and a TPU."""
    if value is None:
        return
    parsed = value
    if isinstance(value, str):
        text = value.strip()
        try:
            parsed = int(text) if text in ("1", "8") else [int(x.strip()) for x in text.split(",") if x]
        except ValueError:
            parsed = None
    whole = parsed in (1, 8) and not isinstance(parsed, bool)
    one_index = isinstance(parsed, (list, tuple)) and len(parsed) == 1 and parsed[0] in range(1, 9)
    if not (whole or one_index):
        raise MisconfigurationException(
            f"`tpu_cores={value!r}` is not valid: pass 1, 8 or a list with one core index such as [5]"
            " (Lightning 1.5 refused it too)."
        )
    if current_probe().tpu_device_count() == 0:
        raise MisconfigurationException(f"`tpu_cores={value!r}` asks for TPU cores, but no TPU devices were found.")


def device_request(
    owner: str, given: dict[str, Any], accelerator: Any, devices: Any, strategy: Any, *, ddp_cpu: bool, num_nodes: int
) -> DeviceRequest:
    """Warn for each device flag given, then settle ``accelerator``/``devices`` as 1.5 did."""
    present = [(name, given[name]) for name in WARNING_ORDER if name in given]
    for name, value in present:
        warn(flag_notice(owner, name, value, spelling(name, value), _ONE_CORE if _one_tpu_core(name, value) else ""))
    check_tpu_cores(given.get("tpu_cores"))
    counts = {f: given[f] for f in PRECEDENCE if f in given and truthy(given[f])}
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
    if explicit_cpu:
        # 1.5 counted CPU processes with num_processes; `devices` only replaced its default value 1.
        processes = given.get("num_processes")
        if processes is not None and (processes != 1 or devices is None):
            flag = "num_processes"
    elif accelerator is None or accelerator == "auto":
        flag = next((f for f in PRECEDENCE if f in counts and not (f == "num_processes" and counts[f] == 1)), None)
        if flag is not None:
            accelerator = DEVICE_FLAGS[flag]
        elif accelerator == "auto" and devices is None:
            _auto_means_cpu(owner)
            accelerator = "cpu"
    else:
        flag = next((f for f in PRECEDENCE if f in counts and _same_kind(accelerator, DEVICE_FLAGS[f])), None)
    if flag is not None:
        value = given[flag]
        if devices is not None and devices != value:
            why = f"`devices={devices!r}` is ignored: Lightning 1.5 used the device specific number {value!r}."
            warn(flag_notice(owner, flag, value, spelling(flag, value), why), CompatFallbackWarning)
        devices = value
    kind = _kind(accelerator, strategy)
    count = _count(kind, devices)
    launched = kind is not None and count is not None and _cluster_launched(count, num_nodes)
    return DeviceRequest(accelerator, devices, kind, count, flag, explicit_cpu, launched)


#: tpu_cores=1 spawned one XLA process in 1.5; ``accelerator='tpu', devices=1`` means one TPU without spawning.
_ONE_CORE = "Lightning 1.5 spawned one process for it: add `strategy=TPUSpawnStrategy()` to keep that."


def _one_tpu_core(flag: str, value: Any) -> bool:
    return flag == "tpu_cores" and value in (1, "1") and not isinstance(value, bool)


def _auto_means_cpu(owner: str) -> None:
    deprecated_in, removed_in = flag_versions("fallback")
    notice = Notice(
        f"`{owner}(accelerator='auto')` without `devices`",
        "`accelerator='cpu'` (or pass `devices`)",
        deprecated_in,
        compat_removed_in(removed_in),
        "Lightning 1.5 detected devices only when a count was given, so this ran on the CPU, and compat keeps it;"
        " newcore would train on every device of the best kind available.",
    )
    warn(notice, CompatFallbackWarning)


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
