"""What the new-API connector says when it is handed a Lightning 1.5 flag."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from newcore.exceptions import MisconfigurationException


def _device_hint(accelerator: str) -> Any:
    return lambda value: f"accelerator={accelerator!r}, devices={value!r}"


#: Legacy flag -> function of the value the user passed -> the new spelling.
_HINTS: dict[str, Any] = {
    "gpus": _device_hint("gpu"),
    "tpu_cores": _device_hint("tpu"),
    "ipus": _device_hint("ipu"),
    "num_processes": _device_hint("cpu"),
    "distributed_backend": lambda v: f"strategy={v!r}",
    "amp_backend": lambda v: (
        "plugins=[ApexMixedPrecisionPlugin(amp_level=...)]" if v == "apex" else "nothing (native AMP is the default)"
    ),
    "amp_level": lambda v: f"plugins=[ApexMixedPrecisionPlugin(amp_level={v!r})]",
    "auto_select_gpus": lambda v: "accelerator='gpu', devices=N (or devices='auto')",
    "replace_sampler_ddp": lambda v: f"use_distributed_sampler={v!r} on the runner",
}


def reject_legacy_flags(owner: str, legacy: Mapping[str, Any]) -> None:
    """Raise for flags the new API does not take, with the replacement for the values given."""
    if not legacy:
        return
    unknown = sorted(set(legacy) - set(_HINTS))
    if unknown:
        raise MisconfigurationException(
            f"`{owner}()` got unexpected argument(s) {', '.join(unknown)}. It takes accelerator, strategy, devices,"
            " num_nodes, precision, plugins, sync_batchnorm, benchmark and deterministic."
        )
    fixes = "; ".join(f"instead of `{k}={v!r}` pass {_HINTS[k](v)}" for k, v in legacy.items())
    raise MisconfigurationException(
        f"`{owner}()` takes the new API only: {fixes}. Run `migrate-trainer` on your code to rewrite these flags,"
        " or use `compat." + owner + "` to keep the Lightning 1.5 flags working while you migrate."
    )
