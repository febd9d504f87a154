"""One case in its forked child: its cluster and machine faked, its instances built, the ``Trainer`` constructed.

``_run_case`` is the default case runner of ``record_runner.run_all``; ``record_compat.py`` wraps it. Lightning is
imported only when a case runs.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import tempfile
import warnings
from pathlib import Path
from typing import Any

import case_model
import extra_cases
import record_2x
from record_describe import describe
from record_lightning import _LOGGERS, _is_2x
from record_machine import _fake_cuda, apply_hardware
from record_messages import _dedup, _error, _scrub, _split_ignored, _warnings

_AnyCase = case_model.Case | extra_cases.ExtraCase


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname}: {record.getMessage()}")


def _run_case(case: _AnyCase, sites: dict[str, list[str]], backend_as_accelerator: bool = True) -> dict[str, Any]:
    """Build the Trainer of one case on its faked machine and describe it (``backend_as_accelerator``: pass
    ``distributed_backend`` as ``accelerator=``, the 1.4 semantics the 1.x files record; a 1.5 shim takes it as is)."""
    import pytorch_lightning as pl

    tmp = tempfile.mkdtemp(prefix="plref-")
    os.chdir(tmp)
    try:
        env = _apply_cluster(case, tmp)
        version = pl.__version__
        if _is_2x(version):
            record_2x.apply_hardware(case.hardware, case.interactive, _fake_cuda)
        else:
            apply_hardware(case.hardware, case.interactive, sites)

        kwargs = dict(case_model.BASE_KWARGS)
        call_kwargs = dict(case.kwargs)
        if backend_as_accelerator and "distributed_backend" in call_kwargs:
            # Removed in 1.5 (#10017); record it with 1.4 semantics: it was an alias of `accelerator`.
            call_kwargs["accelerator"] = call_kwargs.pop("distributed_backend")

        result: dict[str, Any] = {"cluster_env": env} if env else {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                built = {key: _build(value, version) for key, value in call_kwargs.items()}
            except _Unavailable as exc:
                return {"outcome": "unavailable", "reason": str(exc)}
            except Exception as exc:  # an instance could not even be constructed: data too
                result.update(outcome="error", phase="instantiate", error=_error(exc, tmp))
                result["instance_warnings"] = _warnings(caught, tmp)
                return result
        instance_warnings = _warnings(caught, tmp)
        kwargs.update(built)

        capture = _Capture()
        for name in _LOGGERS:
            logging.getLogger(name).addHandler(capture)
            logging.getLogger(name).setLevel(logging.INFO)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                trainer = pl.Trainer(**kwargs)
            except Exception as exc:
                trainer = None
                result.update(outcome="error", phase="trainer", error=_error(exc, tmp))
        for name in _LOGGERS:
            logging.getLogger(name).removeHandler(capture)
        if instance_warnings:
            result["instance_warnings"] = instance_warnings
        result["warnings"], ignored = _split_ignored(_warnings(caught, tmp))
        if ignored:
            result["ignored_warnings"] = ignored
        result["logs"] = _dedup([_scrub(m, tmp) for m in capture.messages])
        if trainer is not None:
            result["outcome"] = "ok"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecated properties warn on access; not part of the case
                result["selected"] = describe(trainer, version, tmp)
        return result
    finally:
        os.chdir("/")
        shutil.rmtree(tmp, ignore_errors=True)


class _Unavailable(Exception):
    """A class named by a case does not exist in this Lightning release."""


_LOOKUP_MODULES = (
    "pytorch_lightning.strategies",
    "pytorch_lightning.plugins",
    "pytorch_lightning.plugins.environments",
    "pytorch_lightning.plugins.io",
    "pytorch_lightning.accelerators",
)


def _lookup_class(name: str, version: str) -> type:
    import importlib

    for modname in record_2x.LOOKUP_MODULES if _is_2x(version) else _LOOKUP_MODULES:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        if hasattr(module, name):
            return getattr(module, name)
    raise _Unavailable(f"class {name!r} does not exist in this release")


def _build(value: Any, version: str) -> Any:
    """Turn a case's JSON description into real objects (instances, torch.device)."""
    if isinstance(value, list):
        return [_build(v, version) for v in value]
    if isinstance(value, dict):
        if "__class__" in value:
            cls = _lookup_class(value["__class__"], version)
            args = [_build(v, version) for v in value.get("args", [])]
            kwargs = {k: _build(v, version) for k, v in value.get("kwargs", {}).items()}
            return cls(*args, **kwargs)
        if "__device__" in value:
            import torch

            return torch.device(value["__device__"])
        return {k: _build(v, version) for k, v in value.items()}
    return value


def _apply_cluster(case: _AnyCase, tmp: str) -> dict[str, str]:
    env = dict(case.env)
    if "LSB_DJOB_RANKFILE" in env:
        rankfile = Path(tmp) / "lsf_rankfile"
        host = socket.gethostname()
        rankfile.write_text("launch-node\n" + f"{host}\n" * 4)
        env["LSB_DJOB_RANKFILE"] = str(rankfile)
    os.environ.update(env)
    return {k: ("<rankfile>" if k == "LSB_DJOB_RANKFILE" else v) for k, v in sorted(case.env.items())}
