"""Record what a real Lightning release selects when a ``Trainer`` is built, for every case in ``cases.py``.

Runs *inside* one of the throwaway reference venvs (see ``make_venvs.py``); ``generate.py`` drives it::

    tools/reference/.venvs/1.5.10/bin/python tools/reference/record.py 1.5.10 --out /tmp/1.5.10.json

How it stays fast and isolated: the parent imports ``pytorch_lightning`` once, then forks one
child per case (``--jobs`` children at a time). The child fakes the case's hardware and cluster,
builds the ``Trainer``, describes what was selected and sends one JSON object back through a pipe,
then exits without running any cleanup. Nothing a case does (registries, environment variables,
monkeypatches, module globals) can leak into another case.

Faked hardware never reaches a device: every patch is applied at the edge Lightning reads
(``torch.cuda`` queries, Lightning's own ``_*_AVAILABLE`` constants and the vendor modules it
imported under them). The exact list is ``PATCHES`` below (1.x) or ``record_2x.PATCHES`` (2.x) and goes
into the JSON header. ``--cases-json FILE`` records the cases of a JSON file (``extra_cases.py``) instead.
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import json
import logging
import os
import re
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cases as case_table  # noqa: E402  (stdlib-only data module next to this file)
import extra_cases  # noqa: E402  (likewise: --cases-json)
import record_2x  # noqa: E402  (imports Lightning only when called)

_AnyCase = case_table.Case | extra_cases.ExtraCase
_RunCase = Callable[[_AnyCase, dict[str, list[str]]], dict[str, Any]]

# Environment variables that would make Lightning detect a cluster or a launcher; removed in the
# parent so that only what a case sets is visible.
SCRUBBED_ENV_PREFIXES = ("SLURM_", "LSB_", "JSM_", "OMPI_", "HOROVOD_", "PMI_", "TORCHELASTIC_", "PL_", "KUBERNETES_")
SCRUBBED_ENV_VARS = (
    "RANK",
    "GROUP_RANK",
    "LOCAL_RANK",
    "LOCAL_WORLD_SIZE",
    "WORLD_SIZE",
    "NODE_RANK",
    "MASTER_ADDR",
    "MASTER_PORT",
    "CUDA_VISIBLE_DEVICES",
    "XRT_TPU_CONFIG",
    "TPU_NUM_DEVICES",
    "COLAB_TPU_ADDR",
)

# Every patch the child may apply. Keys are referenced from ``apply_hardware``; the dict is
# copied verbatim into the JSON header so a reader knows what "faked" means.
PATCHES: dict[str, str] = {
    "cuda": "torch.cuda.is_available -> cuda>0, torch.cuda.device_count -> cuda; when cuda>0 also"
    " torch.cuda.get_device_capability -> (8, 0), torch.cuda.is_bf16_supported -> True,"
    " torch.cuda.get_device_name -> 'Faked GPU', torch.cuda.current_device -> 0,"
    " torch.cuda.set_device -> no-op, torch.cuda.get_device_properties -> a stub with 80 GiB."
    " No CUDA kernel or context is ever created.",
    "availability_flags": "Every module-level constant named _TPU_AVAILABLE, _XLA_AVAILABLE, _IPU_AVAILABLE,"
    " _POPTORCH_AVAILABLE, _HPU_AVAILABLE, _HABANA_FRAMEWORK_AVAILABLE, _HOROVOD_AVAILABLE, _DEEPSPEED_AVAILABLE,"
    " _DEEPSPEED_GREATER_EQUAL_0_5_9, _DEEPSPEED_GREATER_EQUAL_0_6, _APEX_AVAILABLE, _FAIRSCALE_AVAILABLE,"
    " _FAIRSCALE_OSS_FP16_BROADCAST_AVAILABLE, _FAIRSCALE_FULLY_SHARDED_AVAILABLE and _IS_INTERACTIVE is"
    " overwritten in every loaded pytorch_lightning.* module that holds it (modules import them by value).",
    "xla_device_utils": "pytorch_lightning.utilities.xla_device.XLADeviceUtils.tpu_device_exists/xla_available"
    " -> the faked TPU flag, XLADeviceUtils._TPU_AVAILABLE likewise.",
    "vendor_modules": "Where a flag is faked on, the names Lightning would have imported under it"
    " (xm, xmp, xenv for torch_xla; hvd for horovod.torch; deepspeed, DeepSpeedEngine; poptorch; amp for apex;"
    " hmp, load_habana_module for habana) are injected as MagicMock-based stand-ins into the pytorch_lightning"
    " modules whose source imports them, and the vendor package names are put in sys.modules. Stand-in"
    " behaviour: xm.xla_device(n) -> torch.device('xla', n or 0), xm.xrt_world_size() -> 1,"
    " xm.get_ordinal() -> 0, xenv.HOST_WORLD_SIZE/TPUVM_MODE -> their torch_xla names (unset);"
    " hvd.local_size()/hvd.size() -> hardware.horovod_local_size,"
    " hvd.rank()/hvd.local_rank() -> 0; poptorch.ipuHardwareIsAvailable() -> True.",
    "fairscale": "fairscale 0.4.13 is really installed (--no-deps); hardware.fairscale=False turns its flags off.",
    "cluster_env": "A case's cluster is only environment variables (cases.py: slurm, torchelastic, kubeflow,"
    " lsf, horovodrun, lightning_env). LSF additionally gets"
    " LSB_DJOB_RANKFILE pointing to a rank file written in the case's temp dir, listing this host's name"
    " after a launch node. Inherited cluster/launcher variables are removed first (SCRUBBED_ENV_*).",
    "cwd": "Each case runs in a fresh temporary working directory, removed afterwards.",
}

# Warnings that are about the recording environment (a torch far newer than these releases),
# not about the flags. Dropped from ``warnings`` but counted in ``ignored_warnings``.
IGNORED_WARNINGS = (
    r"pkg_resources is deprecated",
    r"Deprecated call to `pkg_resources",
    r"torch\.cuda\.amp\.GradScaler\(args\.\.\.\)` is deprecated",
    r"torch\.cuda\.amp\.autocast\(args\.\.\.\)` is deprecated",
    r"`torch\.distributed\._sharded_tensor` will be deprecated",
    r"distutils Version classes are deprecated",
)
_IGNORED = re.compile("|".join(IGNORED_WARNINGS))

_ADDR = re.compile(r" at 0x[0-9a-fA-F]+")


def _scrub(text: str, tmp: str | None = None) -> str:
    text = _ADDR.sub(" at 0x?", text)
    if tmp:
        text = text.replace(tmp, "<tmp>")
    return text


# --------------------------------------------------------------------------------------------
# parent side
# --------------------------------------------------------------------------------------------


def _scrub_environment() -> list[str]:
    removed = []
    for key in list(os.environ):
        if key.startswith(SCRUBBED_ENV_PREFIXES) or key in SCRUBBED_ENV_VARS:
            removed.append(key)
            del os.environ[key]
    return removed


def _import_lightning() -> Any:
    """Import Lightning once in the parent (quietly) and everything a case may touch."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import importlib

        # Imported lazily by torch on first use (e.g. torch.use_deterministic_algorithms pulls in
        # torch._inductor, ~1 s); importing them once here keeps every forked case fast.
        for name in WARM_IMPORTS:
            with contextlib.suppress(ImportError):
                importlib.import_module(name)
        import pytorch_lightning as pl
        import pytorch_lightning.accelerators
        import pytorch_lightning.plugins
        import pytorch_lightning.plugins.environments

        with contextlib.suppress(ImportError):
            import pytorch_lightning.strategies
        if _is_2x(pl.__version__):
            import lightning_fabric.accelerators.xla
            import lightning_fabric.plugins.environments  # noqa: F401
            import pytorch_lightning.plugins.precision
        else:
            import pytorch_lightning.utilities.xla_device
    # Lightning attaches a stream handler to its root logger; the child captures records instead.
    for name in _LOGGERS:
        for handler in list(logging.getLogger(name).handlers):
            logging.getLogger(name).removeHandler(handler)
    return pl


# 2.x also logs through the bundled lightning_fabric (a package 1.x does not have: no records there).
_LOGGERS = ("pytorch_lightning", "lightning_fabric")


def _is_2x(version: str) -> bool:
    return int(version.split(".")[0]) >= 2


WARM_IMPORTS = (
    "torch._inductor",
    "torch._dynamo",
    "torch.distributed",
    "torch.distributed.algorithms.ddp_comm_hooks",
    "torch.nn.parallel",
    "torch.amp",
    "torch.cuda.amp",
    "torch.utils.tensorboard",
    "fairscale.nn",
    "fairscale.optim",
)

_VENDOR_IMPORT = {
    # injected global name -> regex that finds the import in a Lightning module's source
    "xm": r"import torch_xla\.core\.xla_model as xm",
    "xmp": r"import torch_xla\.distributed\.xla_multiprocessing as xmp",
    "xenv": r"import torch_xla\.core\.xla_env_vars as xenv",
    "hvd": r"import horovod\.torch as hvd",
    "deepspeed": r"^\s*import deepspeed\s*$",
    "DeepSpeedEngine": r"from deepspeed import DeepSpeedEngine",
    "poptorch": r"^\s*import poptorch\s*$",
    "amp": r"from apex import amp",
    "hmp": r"from habana_frameworks\.torch\.hpex import hmp",
    "load_habana_module": r"import load_habana_module",
}


def _vendor_import_sites() -> dict[str, list[str]]:
    """Map each vendor global to the Lightning modules whose source imports it (computed once)."""
    sites: dict[str, list[str]] = {name: [] for name in _VENDOR_IMPORT}
    for modname, module in sorted(sys.modules.items()):
        if not (modname == "pytorch_lightning" or modname.startswith("pytorch_lightning.")):
            continue
        path = getattr(module, "__file__", None)
        if not path or not path.endswith(".py"):
            continue
        source = Path(path).read_text(encoding="utf-8")
        for name, pattern in _VENDOR_IMPORT.items():
            if re.search(pattern, source, re.MULTILINE):
                sites[name].append(modname)
    return sites


def run_all(
    selected: list[_AnyCase], jobs: int, timeout: float, run_case: _RunCase | None = None
) -> dict[str, dict[str, Any]]:
    """Each case in a forked child, ``jobs`` at a time; ``run_case`` (default :func:`_run_case`) runs one."""
    sites = _vendor_import_sites()
    results: dict[str, dict[str, Any]] = {}
    pending = list(selected)
    running: dict[int, tuple[_AnyCase, int, float, bytearray]] = {}  # pid -> (case, fd, start, buffer)
    done = 0
    while pending or running:
        while pending and len(running) < jobs:
            case = pending.pop(0)
            read_fd, write_fd = os.pipe()
            pid = os.fork()
            if pid == 0:  # child
                os.close(read_fd)
                _child(case, write_fd, sites, run_case or _run_case)  # never returns
            os.close(write_fd)
            running[pid] = (case, read_fd, time.monotonic(), bytearray())
        fds = {entry[1]: pid for pid, entry in running.items()}
        ready, _, _ = select.select(list(fds), [], [], 0.5)
        for fd in ready:
            pid = fds[fd]
            chunk = os.read(fd, 1 << 16)
            if chunk:
                running[pid][3].extend(chunk)
                continue
            case, _, start, buffer = running.pop(pid)
            os.close(fd)
            _, status = os.waitpid(pid, 0)
            results[case.id] = _decode(buffer, status)
            done += 1
            if done % 50 == 0:
                print(f"  {done}/{len(selected)} cases", file=sys.stderr, flush=True)
        now = time.monotonic()
        for pid, (case, fd, start, _) in list(running.items()):
            if now - start > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(fd)
                running.pop(pid)
                results[case.id] = {"outcome": "error", "error": {"type": "Timeout", "message": f"> {timeout}s"}}
                done += 1
    return results


def _decode(buffer: bytearray, status: int) -> dict[str, Any]:
    if buffer:
        try:
            return json.loads(buffer.decode("utf-8"))
        except ValueError:
            pass
    return {
        "outcome": "error",
        "error": {"type": "ChildCrashed", "message": f"wait status {status}, {len(buffer)} bytes of output"},
    }


# --------------------------------------------------------------------------------------------
# child side
# --------------------------------------------------------------------------------------------


def _child(case: _AnyCase, write_fd: int, sites: dict[str, list[str]], run_case: _RunCase) -> None:
    code = 0
    try:
        # Keep the child's own stdout/stderr quiet; everything of interest is captured.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        result = run_case(case, sites)
        payload = json.dumps(result, sort_keys=True).encode("utf-8")
    except BaseException as exc:
        payload = json.dumps(
            {
                "outcome": "error",
                "error": {"type": "RecorderBug", "message": f"{type(exc).__name__}: {exc}"},
                "traceback": traceback.format_exc(),
            }
        ).encode("utf-8")
        code = 1
    view = memoryview(payload)
    while view:
        written = os.write(write_fd, view)
        view = view[written:]
    os.close(write_fd)
    os._exit(code)


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

        kwargs = dict(case_table.BASE_KWARGS)
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


def _fake_module(name: str, **attrs: Any) -> mock.MagicMock:
    fake = mock.MagicMock(name=name)
    for key, value in attrs.items():
        setattr(fake, key, value)
    return fake


def _fake_cuda(n_cuda: int) -> None:
    import torch

    torch.cuda.is_available = lambda: n_cuda > 0
    torch.cuda.device_count = lambda: n_cuda
    if n_cuda:
        torch.cuda.get_device_capability = lambda device=None: (8, 0)
        torch.cuda.is_bf16_supported = lambda *a, **k: True
        torch.cuda.get_device_name = lambda device=None: "Faked GPU"
        torch.cuda.current_device = lambda: 0
        torch.cuda.set_device = lambda device: None
        torch.cuda.get_device_properties = lambda device=None: mock.Mock(
            name="Faked GPU", total_memory=80 << 30, major=8, minor=0, multi_processor_count=108
        )


def apply_hardware(hw: dict[str, Any], interactive: bool, sites: dict[str, list[str]]) -> None:
    import torch

    _fake_cuda(int(hw.get("cuda", 0)))

    tpu, ipu, hpu = bool(hw.get("tpu")), bool(hw.get("ipu")), bool(hw.get("hpu"))
    horovod, deepspeed, apex = bool(hw.get("horovod")), bool(hw.get("deepspeed")), bool(hw.get("apex"))
    fairscale = bool(hw.get("fairscale", True))
    flags = {
        "_TPU_AVAILABLE": tpu,
        "_XLA_AVAILABLE": tpu,
        "_IPU_AVAILABLE": ipu,
        "_POPTORCH_AVAILABLE": ipu,
        "_HPU_AVAILABLE": hpu,
        "_HABANA_FRAMEWORK_AVAILABLE": hpu,
        "_HOROVOD_AVAILABLE": horovod,
        "_DEEPSPEED_AVAILABLE": deepspeed,
        "_DEEPSPEED_GREATER_EQUAL_0_5_9": deepspeed,
        "_DEEPSPEED_GREATER_EQUAL_0_6": deepspeed,
        "_APEX_AVAILABLE": apex,
        "_IS_INTERACTIVE": interactive,
    }
    if not fairscale:
        flags.update(
            _FAIRSCALE_AVAILABLE=False,
            _FAIRSCALE_OSS_FP16_BROADCAST_AVAILABLE=False,
            _FAIRSCALE_FULLY_SHARDED_AVAILABLE=False,
        )
    lightning_modules = [
        module
        for name, module in list(sys.modules.items())
        if module is not None and (name == "pytorch_lightning" or name.startswith("pytorch_lightning."))
    ]
    for module in lightning_modules:
        namespace = vars(module)
        for flag, value in flags.items():
            if flag in namespace:
                setattr(module, flag, value)

    from pytorch_lightning.utilities import xla_device

    utils = xla_device.XLADeviceUtils
    utils._TPU_AVAILABLE = tpu
    utils.tpu_device_exists = staticmethod(lambda: tpu)
    if hasattr(utils, "xla_available"):
        utils.xla_available = staticmethod(lambda: tpu)

    fakes: dict[str, Any] = {}
    vendor_modules: dict[str, Any] = {}
    if tpu:
        xm = _fake_module("torch_xla.core.xla_model")
        xm.xla_device.side_effect = lambda n=None, *a, **k: torch.device("xla", n if isinstance(n, int) else 0)
        xm.xrt_world_size.return_value = 1
        xm.get_ordinal.return_value = 0
        xm.get_local_ordinal.return_value = 0
        xmp = _fake_module("torch_xla.distributed.xla_multiprocessing")
        xenv = _fake_module(  # env var *names*, as torch_xla defines them
            "torch_xla.core.xla_env_vars", HOST_WORLD_SIZE="XRT_HOST_WORLD_SIZE", TPUVM_MODE="TPUVM_MODE"
        )
        fakes.update(xm=xm, xmp=xmp, xenv=xenv)
        torch_xla = _fake_module("torch_xla")
        vendor_modules.update(
            {
                "torch_xla": torch_xla,
                "torch_xla.core": torch_xla.core,
                "torch_xla.core.xla_model": xm,
                "torch_xla.core.xla_env_vars": xenv,
                "torch_xla.distributed": torch_xla.distributed,
                "torch_xla.distributed.xla_multiprocessing": xmp,
                "torch_xla.distributed.parallel_loader": torch_xla.distributed.parallel_loader,
            }
        )
    if horovod:
        size = int(hw.get("horovod_local_size", 1))
        hvd = _fake_module("horovod.torch")
        hvd.local_size.return_value = size
        hvd.size.return_value = size
        hvd.rank.return_value = 0
        hvd.local_rank.return_value = 0
        fakes["hvd"] = hvd
        vendor_modules.update({"horovod": _fake_module("horovod", torch=hvd), "horovod.torch": hvd})
    if deepspeed:
        ds = _fake_module("deepspeed")
        fakes.update(deepspeed=ds, DeepSpeedEngine=type("DeepSpeedEngine", (), {}))
        vendor_modules.update({"deepspeed": ds, "deepspeed.utils": ds.utils})
    if ipu:
        poptorch = _fake_module("poptorch")
        poptorch.ipuHardwareIsAvailable.return_value = True
        fakes["poptorch"] = poptorch
        vendor_modules["poptorch"] = poptorch
    if apex:
        amp = _fake_module("apex.amp")
        fakes["amp"] = amp
        vendor_modules.update({"apex": _fake_module("apex", amp=amp), "apex.amp": amp})
    if hpu:
        fakes.update(hmp=_fake_module("habana_frameworks.torch.hpex.hmp"), load_habana_module=lambda: None)
    sys.modules.update(vendor_modules)
    for name, fake in fakes.items():
        for modname in sites.get(name, []):
            module = sys.modules.get(modname)
            if module is not None:
                setattr(module, name, fake)


_WITH_TRACEBACK = False  # --traceback: debugging aid, never used for the committed data


def _error(exc: BaseException, tmp: str) -> dict[str, str]:
    out = {"type": type(exc).__name__, "message": _scrub(str(exc), tmp)}
    if _WITH_TRACEBACK:
        out["traceback"] = traceback.format_exc()
    return out


def _warnings(caught: list[warnings.WarningMessage], tmp: str) -> list[dict[str, str]]:
    return _dedup([{"category": w.category.__name__, "message": _scrub(str(w.message), tmp)} for w in caught])


def _split_ignored(items: list[dict[str, str]]) -> tuple[list[dict[str, str]], int]:
    kept = [w for w in items if not _IGNORED.search(w["message"])]
    return kept, len(items) - len(kept)


def _dedup(items: list[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for item in items:
        key = json.dumps(item, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


# --------------------------------------------------------------------------------------------
# describing the selection
# --------------------------------------------------------------------------------------------

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record real Lightning's Trainer selections (run inside a venv).")
    parser.add_argument("version", help="expected pytorch_lightning.__version__")
    parser.add_argument("--out", required=True, help="where to write the raw results (JSON)")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (one forked child each)")
    parser.add_argument("--only", default=None, help="regex; record only matching case ids")
    parser.add_argument("--cases-json", default=None, help="record the cases of this file (extra_cases.py format)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is killed")
    parser.add_argument("--traceback", action="store_true", help="add tracebacks to errors (debugging)")
    args = parser.parse_args(argv)
    global _WITH_TRACEBACK
    _WITH_TRACEBACK = args.traceback

    removed = _scrub_environment()
    pl = _import_lightning()
    if pl.__version__ != args.version:
        print(f"expected pytorch_lightning {args.version}, found {pl.__version__}", file=sys.stderr)
        return 2
    import torch

    not_recorded: dict[str, str] = {}
    if args.cases_json:
        selected, not_recorded = extra_cases.load(args.cases_json)
    else:
        selected = case_table.all_cases()
    if args.only:
        selected = [c for c in selected if re.search(args.only, c.id)]
    started = time.monotonic()
    results = run_all(selected, max(1, args.jobs), args.timeout)
    elapsed = time.monotonic() - started
    meta = {
        "lightning_version": pl.__version__,
        "torch_version": torch.__version__,
        "python_version": ".".join(map(str, sys.version_info[:3])),
        "patches": record_2x.PATCHES if _is_2x(pl.__version__) else PATCHES,
        "ignored_warning_patterns": list(IGNORED_WARNINGS),
        "scrubbed_env": {"prefixes": list(SCRUBBED_ENV_PREFIXES), "vars": list(SCRUBBED_ENV_VARS)},
        "registries": _registries(),
        "elapsed_s": round(elapsed, 1),
        "removed_env_vars": sorted(removed),
    }
    if args.cases_json:
        meta["not_recorded"] = not_recorded
    Path(args.out).write_text(json.dumps({"meta": meta, "results": results}, sort_keys=True, indent=1) + "\n")
    counts: dict[str, int] = {}
    for r in results.values():
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    print(f"{pl.__version__}: {len(results)} cases in {elapsed:.1f}s {counts}", file=sys.stderr)
    return 0


def _registries() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    try:
        from pytorch_lightning.strategies import StrategyRegistry

        out["StrategyRegistry"] = sorted(StrategyRegistry.available_strategies())
    except ImportError:
        from pytorch_lightning.plugins import TrainingTypePluginsRegistry

        out["TrainingTypePluginsRegistry"] = sorted(TrainingTypePluginsRegistry.available_plugins())
    try:
        from pytorch_lightning.accelerators import AcceleratorRegistry

        out["AcceleratorRegistry"] = sorted(AcceleratorRegistry.available_accelerators())
    except ImportError:
        pass
    try:
        from pytorch_lightning.utilities.enums import DistributedType

        out["DistributedType"] = [t.value for t in DistributedType]
    except ImportError:
        pass
    return out


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        # Some messages list the members of a set (2.x: the accelerator names); a fixed hash seed keeps
        # their order, and so the recorded bytes, the same from run to run.
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    raise SystemExit(main())
