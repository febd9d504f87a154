"""Run a recorded Lightning reference case through our code and compare the selections.

The reference data (``tests/data/lightning-*.json``) is made by ``tools/reference/generate.py`` from
the real releases. Class names are mapped to ours through the renames table, so that
``GPUAccelerator`` and ``NativeMixedPrecisionPlugin`` compare equal to ``CUDAAccelerator`` and
``MixedPrecisionPlugin``.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import torch

import newcore.accelerators
import newcore.plugins
import newcore.strategies
from legacy_api import renames
from newcore import MisconfigurationException
from newcore.probe import FakeProbe, use_probe

DATA = Path(__file__).resolve().parents[1] / "data"
DIVERGENCES = DATA / "divergences.json"

#: The flags of the new API (Lightning 1.6 without its deprecated ones).
NEW_FLAGS = frozenset({"accelerator", "strategy", "devices", "num_nodes", "precision", "plugins", "sync_batchnorm"})

#: The fields of a selection we compare.
FIELDS = ("strategy", "accelerator", "precision_plugin", "cluster_environment", "root_device", "num_devices")


@cache
def load(version: str) -> dict[str, Any]:
    """The recorded results of one Lightning release, by case id."""
    with open(DATA / f"lightning-{version}.json", encoding="utf-8") as f:
        return dict(json.load(f)["results"])


@cache
def class_renames() -> dict[str, str]:
    """Lightning class name -> our class name, from the renames table (last path component)."""
    mapping = {}
    for row in renames.RENAMES:
        if row.kind == "class" and row.new is not None and renames.COMPAT in row.roots:
            mapping[row.old.rsplit(".", 1)[-1]] = row.new.rsplit(".", 1)[-1]
    return mapping


def our_name(lightning_name: str | None) -> str | None:
    return None if lightning_name is None else class_renames().get(lightning_name, lightning_name)


def _namespace() -> dict[str, Any]:
    names: dict[str, Any] = {}
    for module in (newcore.accelerators, newcore.plugins, newcore.strategies):
        names.update({k: v for k, v in vars(module).items() if isinstance(v, type)})
    return names


def newcore_class(name: str) -> Any:
    """Our class for a Lightning class name (``DDPPlugin`` -> newcore's ``DDPStrategy``)."""
    return _namespace()[our_name(name) or ""]


def compat_class(name: str) -> Any:
    """compat's class of that name where compat keeps an old name, else newcore's."""
    import compat.accelerators
    import compat.plugins

    for module in (compat.plugins, compat.accelerators):
        try:
            return getattr(module, name)
        except AttributeError:
            pass
    return newcore_class(name)


def build(value: Any, resolve: Callable[[str], Any] = newcore_class) -> Any:
    """Turn a recorded kwarg value back into objects: ``{"__class__": ...}`` and ``{"__device__": ...}``."""
    if isinstance(value, list):
        return [build(v, resolve) for v in value]
    if isinstance(value, dict) and "__device__" in value:
        return torch.device(value["__device__"])
    if isinstance(value, dict) and "__class__" in value:
        cls = resolve(value["__class__"])
        args = [build(a, resolve) for a in value.get("args") or []]
        kwargs = {k: build(v, resolve) for k, v in (value.get("kwargs") or {}).items()}
        return cls(*args, **kwargs)
    return value


def class_names(value: Any) -> Iterator[str]:
    if isinstance(value, list):
        for v in value:
            yield from class_names(v)
    elif isinstance(value, dict):
        if "__class__" in value:
            yield value["__class__"]
        for v in value.values():
            yield from class_names(v)


def is_new_api(case: Mapping[str, Any]) -> bool:
    """Whether a case uses the new API only: no legacy flag, no strategy spelled the 1.5 way."""
    kwargs = case["kwargs"]
    if set(kwargs) - NEW_FLAGS or case.get("legacy_mapping"):
        return False
    classes = set(class_names(kwargs))
    legacy_classes = {row.old.rsplit(".", 1)[-1] for row in renames.RENAMES if row.rule == "strategy_plugins"}
    if classes & legacy_classes:
        return False
    accelerator = kwargs.get("accelerator")
    if isinstance(accelerator, str) and accelerator.lower() in renames.STRATEGY_NAMES | {"ddp_cpu"}:
        return False
    if isinstance(accelerator, dict) and accelerator["__class__"].endswith("Strategy"):
        return False
    plugins = kwargs.get("plugins")
    plugin_list = plugins if isinstance(plugins, list) else [plugins]
    return not any(
        (isinstance(p, str) and p.lower() in renames.STRATEGY_NAMES)
        or (isinstance(p, dict) and p["__class__"].endswith("Strategy"))
        for p in plugin_list
    )


def probe_for(case: Mapping[str, Any]) -> FakeProbe:
    hw = case["hardware"]
    packages = {pkg for pkg, key in (("torch_xla", "tpu"), ("poptorch", "ipu")) if hw.get(key)}
    packages |= {key for key in ("horovod", "deepspeed", "apex", "fairscale") if hw.get(key)}
    return FakeProbe(
        cuda=hw.get("cuda", 0),
        tpu=8 if hw.get("tpu") else 0,
        ipu=4 if hw.get("ipu") else 0,
        packages=frozenset(packages),
        interactive=bool(case.get("interactive")),
    )


@contextmanager
def environment(variables: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(variables)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def selection(connector: Any) -> dict[str, Any]:
    """The compared fields of a connector (ours) as plain values."""
    # Old names (a user's DDPPlugin() through compat) count as their new class.
    return {
        "outcome": "ok",
        "strategy": our_name(type(connector.strategy).__name__),
        "accelerator": our_name(type(connector.accelerator).__name__),
        "precision_plugin": our_name(type(connector.precision_plugin).__name__),
        "cluster_environment": our_name(type(connector.cluster_environment).__name__),
        "root_device": str(connector.strategy.root_device),
        "num_devices": len(connector.parallel_devices),
    }


#: The exceptions that count as "this configuration is refused" (an outcome, not a test failure).
ERRORS = (MisconfigurationException, TypeError, ValueError, RuntimeError)


@contextmanager
def machine_for(case: Mapping[str, Any]) -> Iterator[None]:
    """The case's faked machine and environment variables, with warnings silenced."""
    with environment(case.get("env") or {}), use_probe(probe_for(case)), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def run(
    case: Mapping[str, Any], make: Callable[..., Any], resolve: Callable[[str], Any] = newcore_class
) -> dict[str, Any]:
    """Build ``make(**kwargs)`` for a case on its faked machine; an error is an outcome too."""
    with machine_for(case):
        try:
            kwargs = {k: build(v, resolve) for k, v in case["kwargs"].items()}
            return selection(make(**kwargs))
        except ERRORS as error:
            return {"outcome": "error", "error": f"{type(error).__name__}: {error}"}


def lightning_selection(record: Mapping[str, Any]) -> dict[str, Any]:
    """The compared fields of a recorded Lightning result, in our class names."""
    if record["outcome"] != "ok":
        return {"outcome": record["outcome"], "error": f"{record.get('error', {}).get('type')}: "}
    s = record["selected"]
    trainer = s.get("trainer", {})
    devices = s.get("parallel_devices")
    return {
        "outcome": "ok",
        "strategy": our_name(s["strategy"]),
        "accelerator": our_name(s["accelerator"]),
        "precision_plugin": our_name(s["precision_plugin"]),
        "cluster_environment": our_name(s.get("connector_cluster_environment") or s.get("cluster_environment")),
        "root_device": s.get("root_device"),
        "num_devices": len(devices) if devices else trainer.get("num_devices", 1),
    }


def differences(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Field -> [Lightning's value, ours]; errors compare by outcome only (messages differ by design)."""
    if ours["outcome"] != "ok" or theirs["outcome"] != "ok":
        if ours["outcome"] == theirs["outcome"]:
            return {}
        return {"outcome": [theirs["outcome"], ours["outcome"]]}
    # Lightning 1.6's IPU strategy has no root device (it reports None, or an int under ddp): nothing to compare.
    skip = {"root_device"} if str(theirs["root_device"]) in {"None", "0"} else set()
    return {f: [theirs[f], ours[f]] for f in FIELDS if f not in skip and theirs[f] != ours[f]}


def summary(selected: Mapping[str, Any]) -> str:
    """One line for the divergence table."""
    if selected["outcome"] != "ok":
        return str(selected.get("error", selected["outcome"]))[:160]
    return (
        f"{selected['strategy']} / {selected['accelerator']} / {selected['precision_plugin']} / "
        f"{selected['cluster_environment']} / {selected['num_devices']}x {selected['root_device']}"
    )
