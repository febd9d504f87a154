"""The Lightning 2.x side of ``record.py``: where 2.x reads the hardware, and the names it knows.

Lightning 2.x splits into ``pytorch_lightning`` and the bundled ``lightning_fabric``; its availability flags are
``RequirementCache`` objects defined in ``lightning_fabric.*`` and imported by value into both packages, and it
imports vendor modules (``torch_xla``, ``deepspeed``) inside functions, so fakes go into ``sys.modules`` with
their submodules linked as attributes. IPU, HPU, Horovod, apex and fairscale support left the core in 2.0:
those hardware keys have nothing to patch (a case naming them records what 2.x says about it).

Runs inside the 2.x reference venv only; the 1.x code paths of ``record.py`` never call it.
"""

from __future__ import annotations

import sys
from typing import Any
from unittest import mock

PACKAGES = ("pytorch_lightning", "lightning_fabric")

PATCHES: dict[str, str] = {
    "cuda": "torch.cuda.is_available -> cuda>0, torch.cuda.device_count -> cuda (what"
    " lightning_fabric.accelerators.cuda.num_cuda_devices/is_cuda_available return); when cuda>0 also"
    " torch.cuda.get_device_capability -> (8, 0), torch.cuda.is_bf16_supported -> True,"
    " torch.cuda.get_device_name -> 'Faked GPU', torch.cuda.current_device -> 0, torch.cuda.set_device -> no-op,"
    " torch.cuda.get_device_properties -> a stub with 80 GiB. No CUDA kernel or context is ever created.",
    "mps": "torch.backends.mps.is_available -> False (MPSAccelerator.is_available reads it).",
    "availability_flags": "Where the case's hardware has it, _XLA_AVAILABLE, _XLA_GREATER_EQUAL_2_1 and"
    " _XLA_GREATER_EQUAL_2_5 (tpu), _DEEPSPEED_AVAILABLE and _DEEPSPEED_GREATER_EQUAL_0_16 (deepspeed) are set to"
    " True in every loaded pytorch_lightning.* and lightning_fabric.* module holding them (imported by value);"
    " otherwise the real RequirementCache (false here: neither package is installed) and its message stay."
    " _IS_INTERACTIVE is set to the case's interactive flag in the same modules."
    " The lru_caches of XLAAccelerator.auto_device_count/is_available are cleared.",
    "vendor_modules": "tpu: a MagicMock-based torch_xla package in sys.modules (core.xla_model, core.xla_env_vars,"
    " core.functions, runtime, _internal.tpu, distributed.*, utils.utils, experimental.*), submodules linked as"
    " attributes. Behaviour: _internal.tpu.num_available_devices() -> 8 (an 8-core host),"
    " runtime.device_type() -> 'TPU' (PJRT), runtime.world_size() -> 1, global/local_ordinal() -> 0,"
    " xla_model.xla_device(n) -> torch.device('xla', n or 0), get_xla_supported_devices() -> 8 devices."
    " deepspeed: a stand-in deepspeed package (__version__ 0.16.0).",
    "removed_in_2x": "hardware.ipu/hpu/horovod/apex/fairscale are not faked: 2.x core has no code reading them.",
    "cluster_env": "A case's cluster is only environment variables (as for 1.x: cases.py slurm, torchelastic,"
    " kubeflow, lsf, horovodrun, lightning_env; LSF gets a rank file in the case's temp dir)."
    " Inherited cluster/launcher variables are removed first (SCRUBBED_ENV_*).",
    "cwd": "Each case runs in a fresh temporary working directory, removed afterwards.",
}

# Where a class named by a case is looked up, first hit wins (1.x keeps its own list in record.py).
LOOKUP_MODULES = (
    "pytorch_lightning.strategies",
    "pytorch_lightning.plugins",
    "pytorch_lightning.plugins.precision",
    "pytorch_lightning.plugins.environments",
    "pytorch_lightning.plugins.io",
    "pytorch_lightning.accelerators",
    "lightning_fabric.plugins.environments",
)

FIELD_NOTES = {
    "selected.find_unused_parameters": "strategy._ddp_kwargs at construction; '<unset>' means the key is absent"
    " (2.x fills nothing in at setup: torch's DDP default False applies)",
    "selected.launcher*": "launcher class, its _start_method (multiprocessing launchers) and is_interactive_compatible",
    "selected.strategy_process_group_backend": "strategy._process_group_backend as given (None: chosen at setup)",
}


def lightning_modules() -> list[Any]:
    """Every loaded module of both 2.x packages."""
    return [
        module for name, module in sorted(sys.modules.items()) if module is not None and name.split(".")[0] in PACKAGES
    ]


def _fake_package(names: list[str], **behaviour: dict[str, Any]) -> dict[str, mock.MagicMock]:
    """MagicMock modules for ``names`` (dotted), each child also an attribute of its parent."""
    modules: dict[str, mock.MagicMock] = {}
    for name in names:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            dotted = ".".join(parts[:i])
            if dotted not in modules:
                modules[dotted] = mock.MagicMock(name=dotted)
                if i > 1:
                    setattr(modules[".".join(parts[: i - 1])], parts[i - 1], modules[dotted])
    for name, attrs in behaviour.items():
        for key, value in attrs.items():
            setattr(modules[name], key, value)
    return modules


def _fake_torch_xla() -> dict[str, mock.MagicMock]:
    import torch

    modules = _fake_package(
        [
            "torch_xla.core.xla_model",
            "torch_xla.core.xla_env_vars",
            "torch_xla.core.functions",
            "torch_xla.runtime",
            "torch_xla._internal.tpu",
            "torch_xla.distributed.xla_multiprocessing",
            "torch_xla.distributed.parallel_loader",
            "torch_xla.distributed.fsdp.wrap",
            "torch_xla.utils.utils",
            "torch_xla.experimental.pjrt",
            "torch_xla.experimental.tpu",
            "torch_xla.debug.profiler",
        ],
        **{
            "torch_xla.core.xla_env_vars": {"HOST_ORDINAL": "XRT_HOST_ORDINAL"},
        },
    )
    xm = modules["torch_xla.core.xla_model"]
    xm.xla_device.side_effect = lambda n=None, *a, **k: torch.device("xla", n if isinstance(n, int) else 0)
    xm.get_xla_supported_devices.return_value = [f"xla:{i}" for i in range(8)]
    xm.xrt_world_size.return_value = 1
    xm.get_ordinal.return_value = 0
    xm.get_local_ordinal.return_value = 0
    xr = modules["torch_xla.runtime"]
    xr.device_type.return_value = "TPU"
    xr.using_pjrt.return_value = True
    xr.world_size.return_value = 1
    xr.global_ordinal.return_value = 0
    xr.local_ordinal.return_value = 0
    xr.host_index.return_value = 0
    modules["torch_xla._internal.tpu"].num_available_devices.return_value = 8
    modules["torch_xla.utils.utils"].getenv_as.side_effect = lambda name, kind, default=None: default
    return modules


def apply_hardware(hw: dict[str, Any], interactive: bool, fake_cuda: Any) -> None:
    """Fake ``hw`` (``cases.hw()``) at the edges 2.x reads; ``fake_cuda(n)`` is record.py's torch.cuda patch."""
    import torch

    fake_cuda(int(hw.get("cuda", 0)))
    torch.backends.mps.is_available = lambda: False

    tpu, deepspeed = bool(hw.get("tpu")), bool(hw.get("deepspeed"))
    flags: dict[str, Any] = {"_IS_INTERACTIVE": interactive}
    vendor: dict[str, Any] = {}
    if tpu:
        flags.update(_XLA_AVAILABLE=True, _XLA_GREATER_EQUAL_2_1=True, _XLA_GREATER_EQUAL_2_5=True)
        vendor.update(_fake_torch_xla())
    if deepspeed:
        flags.update(_DEEPSPEED_AVAILABLE=True, _DEEPSPEED_GREATER_EQUAL_0_16=True)
        modules = _fake_package(["deepspeed.utils.logging", "deepspeed.runtime.base_optimizer"])
        modules["deepspeed"].__version__ = "0.16.0"
        vendor.update(modules)
    sys.modules.update(vendor)
    for module in lightning_modules():
        namespace = vars(module)
        for flag, value in flags.items():
            if flag in namespace:
                setattr(module, flag, value)
    # Computed once per process and cached; a forked child may inherit a cache filled by the parent.
    from lightning_fabric.accelerators.xla import XLAAccelerator

    for fn in (XLAAccelerator.auto_device_count, XLAAccelerator.is_available):
        fn.cache_clear()


def describe_extra(strategy: Any, put: Any, get: Any) -> None:
    """2.x-only selection fields (absent from the 1.x files, so their bytes stay as they were)."""
    put("strategy_process_group_backend", get(strategy, "_process_group_backend"))
