"""What a built ``Trainer`` selected, as JSON: strategy, accelerator, precision, cluster, launcher and trainer values.

Runs in the child after construction (``record_case.py``); the 2.x-only fields come from ``record_2x.describe_extra``.
"""

from __future__ import annotations

import enum
from typing import Any

import record_2x
from record_lightning import _is_2x
from record_messages import _scrub

_MISSING = object()


def _jsonable(value: Any, tmp: str | None = None) -> Any:
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, enum.Enum):
        return _jsonable(value.value, tmp)
    if isinstance(value, str):
        return _scrub(value, tmp)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, tmp) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v, tmp) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    module = type(value).__module__
    if module.startswith("torch") and type(value).__name__ == "device":
        return str(value)
    return f"<{value.__class__.__name__}>"


def _get(obj: Any, *path: str) -> Any:
    """getattr along ``path``; missing -> _MISSING, raising -> {'error': ...}."""
    for name in path:
        try:
            obj = getattr(obj, name)
        except AttributeError:
            return _MISSING
        except Exception as exc:  # a property that needs real hardware
            return {"error": f"{type(exc).__name__}: {_scrub(str(exc))}"}
    return obj


def _cls(obj: Any) -> Any:
    if obj is _MISSING or obj is None:
        return None
    if isinstance(obj, dict) and "error" in obj:
        return obj
    return obj.__class__.__name__  # __class__ sees through the weakref proxies 1.5 hands out


def describe(trainer: Any, version: str, tmp: str) -> dict[str, Any]:
    trainer_type = type(trainer)
    has_strategy_property = isinstance(getattr(trainer_type, "strategy", None), property)
    strategy = trainer.strategy if has_strategy_property else trainer.training_type_plugin
    connector = _get(trainer, "_accelerator_connector")
    precision_plugin = _get(strategy, "precision_plugin")
    if precision_plugin is _MISSING or precision_plugin is None:  # 1.5: the accelerator owns it
        precision_plugin = _get(trainer, "accelerator", "precision_plugin")

    out: dict[str, Any] = {
        "strategy": _cls(strategy),
        "accelerator": _cls(_get(trainer, "accelerator")),
        "precision_plugin": _cls(precision_plugin),
        "cluster_environment": _cls(_get(strategy, "cluster_environment")),
        "connector_cluster_environment": _cls(_get(connector, "cluster_environment")),
    }
    checkpoint_io = _cls(_get(strategy, "checkpoint_io"))
    if checkpoint_io != "TorchCheckpointIO":  # the default; only record the exceptions
        out["checkpoint_io"] = checkpoint_io

    def put(key: str, value: Any) -> None:
        if value is not _MISSING:
            out[key] = _jsonable(value, tmp)

    put("strategy_name", _get(strategy, "strategy_name"))
    put("strategy_distributed_backend", _get(strategy, "distributed_backend"))
    devices = _get(strategy, "parallel_devices")
    put("parallel_devices", [str(d) for d in devices] if isinstance(devices, (list, tuple)) else devices)
    root = _get(strategy, "root_device")
    put("root_device", str(root) if root is not _MISSING and not isinstance(root, dict) else root)
    put("strategy_num_nodes", _get(strategy, "num_nodes"))
    put("strategy_num_processes", _get(strategy, "num_processes"))
    put("strategy_world_size", _get(strategy, "world_size"))
    put("strategy_is_distributed", _get(strategy, "is_distributed"))
    ddp_kwargs = _get(strategy, "_ddp_kwargs")
    if isinstance(ddp_kwargs, dict):
        if ddp_kwargs:
            out["ddp_kwargs"] = _jsonable(ddp_kwargs, tmp)
        # "<unset>": DDP(Spawn)'s pre_configure_ddp() fills in True at setup time (1.5/1.6)
        out["find_unused_parameters"] = _jsonable(ddp_kwargs.get("find_unused_parameters", "<unset>"))
    for attr in ("start_method", "_start_method"):
        put("strategy" + ("_" if not attr.startswith("_") else "") + attr, _get(strategy, attr))
    put("sync_batchnorm", _get(strategy, "sync_batchnorm"))
    layer_sync = _get(strategy, "_layer_sync")
    if layer_sync is not _MISSING:
        out["layer_sync"] = _cls(layer_sync)
    launcher = _get(strategy, "launcher")
    if launcher is not _MISSING:
        out["launcher"] = _cls(launcher)
        if launcher is not None:
            put("launcher_start_method", _get(launcher, "_start_method"))
            put("launcher_is_interactive_compatible", _get(launcher, "is_interactive_compatible"))
    for attr in ("precision", "device", "amp_level", "backend"):
        put("precision_plugin_" + attr, _get(precision_plugin, attr))
    # DeepSpeed: the config stage tells the variants apart
    config = _get(strategy, "config")
    if isinstance(config, dict):
        put("deepspeed_zero_stage", config.get("zero_optimization", {}).get("stage"))
    if _is_2x(version):
        record_2x.describe_extra(strategy, put, _get)
    put("connector_is_distributed", _get(connector, "is_distributed"))
    slurm_managing = _get(connector, "_is_slurm_managing_tasks")  # 1.5: attribute, 1.6: method
    if callable(slurm_managing):
        try:
            slurm_managing = slurm_managing()
        except Exception as exc:
            slurm_managing = {"error": f"{type(exc).__name__}: {_scrub(str(exc))}"}
    put("connector_is_slurm_managing_tasks", slurm_managing)
    # Trainer-level values, old and new (a compat layer must reproduce both)
    props = {}
    for name in (
        "_distrib_type",
        "_device_type",
        "precision",
        "amp_backend",
        "amp_level",
        "num_nodes",
        "num_processes",
        "num_devices",
        "device_ids",
        "devices",
        "gpus",
        "num_gpus",
        "root_gpu",
        "data_parallel_device_ids",
        "tpu_cores",
        "ipus",
        "use_amp",
        "data_parallel",
        "world_size",
        "global_rank",
        "local_rank",
        "node_rank",
    ):
        value = _get(trainer, name)
        if value is not _MISSING:
            props[name] = _jsonable(value, tmp)
    out["trainer"] = props
    return out
