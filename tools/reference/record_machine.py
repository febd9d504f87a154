"""The machine a 1.x case sees: a scrubbed environment, faked CUDA, availability flags and vendor stand-ins.

``PATCHES`` documents every patch and goes into the JSON header; ``apply_hardware`` applies them in the child
(2.x: ``record_2x.apply_hardware``, which reuses ``_fake_cuda``). Lightning is imported only when a function runs.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any
from unittest import mock

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


def _scrub_environment() -> list[str]:
    removed = []
    for key in list(os.environ):
        if key.startswith(SCRUBBED_ENV_PREFIXES) or key in SCRUBBED_ENV_VARS:
            removed.append(key)
            del os.environ[key]
    return removed


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
