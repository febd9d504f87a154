"""The flag matrix recorded against real Lightning releases, as plain data.

Standard library only: ``record.py`` imports it inside the reference venvs, and project tests
may import it to read the case descriptions next to ``tests/data/lightning-*.json``.

A case is: Trainer keyword arguments (JSON values; instances are written as
``{"__class__": "DDPPlugin", "kwargs": {...}}`` and built inside the recording child; devices as
``{"__device__": "cuda:1"}``), the faked hardware, the cluster environment variables, and the
interactive flag. Case ids are derived from those fields, read like a spec
(``"strategy: gpus=2, strategy='ddp' | cuda=4"``) and are unique; the order of ``all_cases()`` is
the order below, so regenerating gives a clean diff.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# Passed to every Trainer; only quiet the parts that are not about device selection.
BASE_KWARGS: dict[str, Any] = {
    "logger": False,
    "enable_checkpointing": False,
    "enable_progress_bar": False,
    "enable_model_summary": False,
    "max_epochs": 1,  # 1.6 warns when it is unset
}


# --------------------------------------------------------------------------------------------
# hardware
# --------------------------------------------------------------------------------------------


def hw(
    cuda: int = 0,
    *,
    tpu: bool = False,
    ipu: bool = False,
    hpu: bool = False,
    horovod: bool = False,
    horovod_local_size: int = 1,
    deepspeed: bool = False,
    apex: bool = False,
    fairscale: bool = True,
) -> dict[str, Any]:
    """Faked hardware/software availability. ``cuda`` is the visible CUDA device count; TPU means
    an 8-core TPU host (Lightning's own auto count), IPU a 4-IPU POD (likewise)."""
    out: dict[str, Any] = {"cuda": cuda, "tpu": tpu, "ipu": ipu, "hpu": hpu, "horovod": horovod}
    if horovod:
        out["horovod_local_size"] = horovod_local_size
    out.update(deepspeed=deepspeed, apex=apex, fairscale=fairscale)
    return out


def hw_label(h: dict[str, Any]) -> str:
    parts = [f"cuda={h['cuda']}" if h["cuda"] else "cpu"]
    for key in ("tpu", "ipu", "hpu", "deepspeed", "apex"):
        if h[key]:
            parts.append(key)
    if h["horovod"]:
        parts.append(f"horovod(local_size={h['horovod_local_size']})")
    if not h["fairscale"]:
        parts.append("no-fairscale")
    return "+".join(parts)


CPU = hw()
CUDA1 = hw(1)
CUDA2 = hw(2)
CUDA4 = hw(4)
TPU = hw(tpu=True)
IPU = hw(ipu=True)
HPU = hw(hpu=True)
DS4 = hw(4, deepspeed=True)
APEX4 = hw(4, apex=True)

# --------------------------------------------------------------------------------------------
# clusters: environment variables only
# --------------------------------------------------------------------------------------------


def slurm(ntasks: int, job_name: str = "train") -> dict[str, str]:
    return {
        "SLURM_NTASKS": str(ntasks),
        "SLURM_JOB_NAME": job_name,
        "SLURM_JOB_ID": "4242",
        "SLURM_NODELIST": "node[1-2]",
        "SLURM_PROCID": "0",
        "SLURM_LOCALID": "0",
        "SLURM_NODEID": "0",
    }


def torchelastic(world_size: int) -> dict[str, str]:
    return {
        "RANK": "0",
        "GROUP_RANK": "0",
        "LOCAL_RANK": "0",
        "LOCAL_WORLD_SIZE": str(world_size),
        "WORLD_SIZE": str(world_size),
        "MASTER_ADDR": "10.0.0.1",
        "MASTER_PORT": "29500",
        "TORCHELASTIC_RUN_ID": "run-1",  # torch>=1.9.1 detects torchrun through this
    }


def kubeflow(world_size: int) -> dict[str, str]:
    return {
        "KUBERNETES_PORT": "tcp://10.96.0.1:443",
        "MASTER_ADDR": "10.0.0.1",
        "MASTER_PORT": "29500",
        "WORLD_SIZE": str(world_size),
        "RANK": "0",
    }


def lsf(world_size: int) -> dict[str, str]:
    return {
        "LSB_JOBID": "4242",
        "LSB_DJOB_RANKFILE": "<written by record.py>",
        "LSB_MCPU_HOSTS": "launch-node 1 compute-node 4",
        "JSM_NAMESPACE_LOCAL_RANK": "0",
        "JSM_NAMESPACE_SIZE": str(world_size),
        "JSM_NAMESPACE_RANK": "0",
    }


def horovodrun() -> dict[str, str]:
    return {"OMPI_COMM_WORLD_RANK": "0", "OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_LOCAL_RANK": "0"}


def lightning_env() -> dict[str, str]:
    """Processes launched by the user (``LOCAL_RANK`` set), e.g. a second DDP script process."""
    return {"LOCAL_RANK": "0", "NODE_RANK": "0", "WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500"}


# --------------------------------------------------------------------------------------------
# instances and devices, as JSON
# --------------------------------------------------------------------------------------------


def obj(cls: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"__class__": cls}
    if args:
        out["args"] = list(args)
    if kwargs:
        out["kwargs"] = kwargs
    return out


def dev(spec: str) -> dict[str, str]:
    return {"__device__": spec}


def fmt(value: Any) -> str:
    """Python-like rendering used in case ids."""
    if isinstance(value, dict) and "__class__" in value:
        inner = [fmt(a) for a in value.get("args", [])]
        inner += [f"{k}={fmt(v)}" for k, v in value.get("kwargs", {}).items()]
        return f"{value['__class__']}({', '.join(inner)})"
    if isinstance(value, dict) and "__device__" in value:
        return f"device({value['__device__']!r})"
    if isinstance(value, list):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    return repr(value)


# --------------------------------------------------------------------------------------------
# cases
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    group: str
    kwargs: dict[str, Any]
    hardware: dict[str, Any] = field(default_factory=lambda: dict(CPU))
    cluster: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    interactive: bool = False
    note: str | None = None

    @property
    def id(self) -> str:
        flags = ", ".join(f"{k}={fmt(v)}" for k, v in self.kwargs.items()) or "(no flags)"
        parts = [f"{self.group}: {flags}", hw_label(self.hardware)]
        if self.cluster:
            parts.append(self.cluster)
        if self.interactive:
            parts.append("interactive")
        return " | ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "group": self.group,
            "kwargs": self.kwargs,
            "hardware": self.hardware,
            "interactive": self.interactive,
        }
        if self.cluster:
            out["cluster"] = self.cluster
            out["env"] = {k: v for k, v in sorted(self.env.items())}
        if "distributed_backend" in self.kwargs:
            out["legacy_mapping"] = (
                "distributed_backend was removed in 1.5 (#10017); recorded with 1.4 semantics:"
                " passed to the Trainer as accelerator=<value>"
            )
        if self.note:
            out["note"] = self.note
        return out


_CASES: list[Case] = []


def add(
    group: str,
    hardware: dict[str, Any] = CPU,
    cluster: str | None = None,
    env: dict[str, str] | None = None,
    interactive: bool = False,
    note: str | None = None,
    **kwargs: Any,
) -> None:
    _CASES.append(Case(group, kwargs, dict(hardware), cluster, dict(env or {}), interactive, note))


# -- 1. device flags, one at a time ----------------------------------------------------------
add("defaults")
add("defaults", CUDA4)
add("defaults", TPU)
add("defaults", IPU)
add("defaults", HPU)

for g in (0, None, 1, 2, 4, -1, "0", "1", "2", "-1", "0,", "0,1", "1,3", "3", [0], [1], [0, 1], [1, 3], [0, 1, 2, 3]):
    add("gpus", CUDA4, gpus=g)
for g in (1, 2, "0,1", [0, 1], -1, "-1"):
    add("gpus", CUDA2, gpus=g)
for g in (0, None, 1, -1, "0", "-1", [0]):
    add("gpus", CPU, gpus=g)
for g in (5, [4], "4", [0, 0], "abc", "", [], 1.5):
    add("gpus", CUDA4, gpus=g)

for t in (1, 8, [5], "8", "1", "[5]", [1], "5,", 2, [1, 2], 0, None, "0"):
    add("tpu_cores", TPU, tpu_cores=t)
for t in (1, 8, [5]):
    add("tpu_cores", CPU, tpu_cores=t)

for n in (1, 4, 8, 0, None):
    add("ipus", IPU, ipus=n)
add("ipus", CPU, ipus=1)

for n in (1, 2, 4, 0, None):
    add("num_processes", CPU, num_processes=n)
add("num_processes", CUDA4, num_processes=2)

# -- 2. devices= together with accelerator= --------------------------------------------------
for acc, hws in (
    ("cpu", (CPU, CUDA4)),
    ("gpu", (CUDA4, CPU)),
    ("tpu", (TPU, CPU)),
    ("ipu", (IPU, CPU)),
    ("hpu", (HPU, CPU)),
    ("auto", (CPU, CUDA4, TPU, IPU)),
):
    for h in hws:
        add("accelerator", h, accelerator=acc)
        for d in (1, 2, "auto", "2", None):
            add("devices", h, accelerator=acc, devices=d)
for d in ([0, 1], [1, 3], "1,3", -1, "-1", 8, [0]):
    add("devices", CUDA4, accelerator="gpu", devices=d)
for d in (8, [5], "8", [1]):
    add("devices", TPU, accelerator="tpu", devices=d)
for d in (4, 8):
    add("devices", IPU, accelerator="ipu", devices=d)
for d in (-1, [0, 1], "1,2", 4):
    add("devices", CPU, accelerator="cpu", devices=d)
for h in (CPU, CUDA4):
    add("devices", h, devices=2)
    add("devices", h, devices="auto")
add("devices", CUDA4, accelerator=None, devices=2)
# Configs that write out 1.5's defaults (pyannote-audio's trainer group): num_processes=1 is the signature's
# default, and auto_select_gpus read no devices= (it picked only for an int gpus=).
add("devices", CPU, accelerator="auto", devices="auto", num_processes=1)
add("devices", CUDA4, accelerator="auto", devices="auto", num_processes=1)
add("devices", CUDA4, accelerator="gpu", num_processes=1)
add("devices", CUDA4, accelerator="auto", devices="auto", auto_select_gpus=True)
add("devices", CUDA4, accelerator="gpu", devices=[0, 1], auto_select_gpus=True)
# gpus= from an idiom (torch.cuda.device_count(), min(1, ...), ...) next to a DDP strategy: 1.5 ran one CPU
# process without it and any number of GPUs with it (tests/codemods/test_non_literal_devices.py).
for _strategy in ("ddp", "ddp_spawn"):
    for _machine, _count in ((CPU, 0), (CUDA2, 1), (CUDA2, 2), (CUDA2, -1), (CUDA4, 1), (CUDA4, 4), (CUDA4, -1)):
        add("strategy_gpus", _machine, strategy=_strategy, gpus=_count)
for acc in ("GPU", "Cpu", "cuda", "mps", "xla"):
    add("accelerator", CUDA4, accelerator=acc, devices=1)

# -- 3. several device flags at once (precedence) -------------------------------------------
add("precedence", CUDA4, gpus=2, devices=3, accelerator="gpu")
add("precedence", CUDA4, gpus=2, devices=3)
add("precedence", CUDA4, gpus=2, devices=3, accelerator="auto")
add("precedence", CUDA4, gpus=2, num_processes=3)
add("precedence", CUDA4, gpus=2, num_processes=3, accelerator="gpu")
add("precedence", CUDA4, gpus=2, num_processes=3, accelerator="cpu")
add("precedence", CUDA4, gpus=2, accelerator="cpu")
add("precedence", CUDA4, gpus=2, accelerator="cpu", devices=3)
add("precedence", CUDA4, num_processes=2, accelerator="gpu")
add("precedence", CUDA4, num_processes=2, devices=3, accelerator="cpu")
add("precedence", CPU, num_processes=2, devices=3, accelerator="cpu")
add("precedence", CPU, num_processes=2, devices=3)
add("precedence", CUDA4, gpus=0, devices=2, accelerator="gpu")
add("precedence", CUDA4, gpus=[], devices=2, accelerator="gpu")
add("precedence", CUDA4, gpus=1, devices=2, accelerator="auto")
add("precedence", hw(4, tpu=True), gpus=2, tpu_cores=8)
add("precedence", hw(4, tpu=True), tpu_cores=8, accelerator="gpu")
add("precedence", hw(4, tpu=True), gpus=2, accelerator="tpu")
add("precedence", hw(4, tpu=True), accelerator="auto")
add("precedence", hw(4, tpu=True), accelerator="auto", devices=2)
add("precedence", hw(4, ipu=True), gpus=2, ipus=4)
add("precedence", hw(4, ipu=True), accelerator="auto")
add("precedence", hw(tpu=True, ipu=True), tpu_cores=8, ipus=4)
add("precedence", TPU, tpu_cores=8, devices=1, accelerator="tpu")
add("precedence", IPU, ipus=4, devices=1, accelerator="ipu")
add("precedence", CPU, num_processes=1, devices=2, accelerator="cpu")
add("precedence", CUDA4, gpus=2, num_processes=1)
add("precedence", CUDA4, gpus=2, tpu_cores=8)

# -- 4. accelerator=<strategy name> (deprecated in 1.5) and distributed_backend (1.4) -----
ACCEL_STRATEGY_NAMES = (
    "ddp",
    "dp",
    "ddp2",
    "ddp_spawn",
    "ddp_cpu",
    "horovod",
    "deepspeed",
    "ddp_sharded",
    "ddp_sharded_spawn",
    "ddp_fully_sharded",
    "fsdp",
    "tpu_spawn",
    "ddp_find_unused_parameters_false",
    "ddp_spawn_find_unused_parameters_false",
)
for name in ACCEL_STRATEGY_NAMES:
    extra = hw(4, horovod=True, deepspeed=True)
    add("accelerator_as_strategy", CUDA4 if name not in ("horovod", "deepspeed") else extra, gpus=2, accelerator=name)
    add("accelerator_as_strategy", CPU, accelerator=name)
    add("accelerator_as_strategy", CPU, num_processes=2, accelerator=name)
add("accelerator_as_strategy", CUDA4, gpus=1, accelerator="dp")
add("accelerator_as_strategy", CUDA4, gpus=1, accelerator="ddp")
add("accelerator_as_strategy", CPU, num_processes=1, num_nodes=2, accelerator="ddp_cpu")
add("accelerator_as_strategy", CPU, num_processes=2, num_nodes=2, accelerator="ddp_cpu")
add("accelerator_as_strategy", TPU, tpu_cores=8, accelerator="tpu_spawn")
add("accelerator_as_strategy", TPU, tpu_cores=8, accelerator="ddp_cpu")
add("accelerator_as_strategy", TPU, accelerator="ddp_cpu", num_processes=2)
add("accelerator_as_strategy", CUDA4, accelerator=obj("DDPPlugin"), gpus=2)
add("accelerator_as_strategy", CUDA4, accelerator=obj("DDPStrategy"), gpus=2)
add("accelerator_as_strategy", CUDA4, accelerator=obj("GPUAccelerator"), gpus=2)
add("accelerator_as_strategy", CPU, accelerator=obj("CPUAccelerator"))
add("accelerator_as_strategy", CUDA4, accelerator="DDP", gpus=2)

for name in ("ddp", "dp", "ddp2", "ddp_spawn", "ddp_cpu", "horovod", "ddp_sharded"):
    h = hw(4, horovod=True) if name == "horovod" else CUDA4
    add("distributed_backend", h, gpus=2, distributed_backend=name)
    add("distributed_backend", CPU, num_processes=2, distributed_backend=name)
add("distributed_backend", CUDA4, gpus=2, distributed_backend="ddp", strategy="ddp_spawn")

# -- 5. strategy=<name>: every registered variant, plus invalid ones -------------------------
STRATEGY_NAMES = (
    "ddp",
    "ddp_spawn",
    "dp",
    "ddp2",
    "horovod",
    "ddp_sharded",
    "ddp_sharded_spawn",
    "ddp_fully_sharded",
    "fsdp",
    "deepspeed",
    "deepspeed_stage_1",
    "deepspeed_stage_2",
    "deepspeed_stage_2_offload",
    "deepspeed_stage_3",
    "deepspeed_stage_3_offload",
    "deepspeed_stage_3_offload_nvme",
    "ddp_find_unused_parameters_false",
    "ddp_spawn_find_unused_parameters_false",
    "ddp_sharded_find_unused_parameters_false",
    "ddp_sharded_spawn_find_unused_parameters_false",
    "tpu_spawn_debug",
    "tpu_spawn",
    "ddp_cpu",
    "bagua",
    "hpu_parallel",
    "hpu_single",
    "single_tpu",
    "single_device",
    "ipu_strategy",
    "ddp_fork",
    "ddp_notebook",
    "fsdp_native",
    "DDP",
    "Ddp_Spawn",
    "unknown_strategy",
)
GPU_PLUS = hw(4, horovod=True, horovod_local_size=2, deepspeed=True)
for name in STRATEGY_NAMES:
    add("strategy", CPU, strategy=name)
    add("strategy", CPU, strategy=name, accelerator="cpu", devices=2)
    add("strategy", GPU_PLUS, strategy=name, gpus=2)
    add("strategy", GPU_PLUS, strategy=name, gpus=1)
for name in ("tpu_spawn_debug", "tpu_spawn", "single_tpu", "ddp_spawn", "ddp"):
    add("strategy", TPU, strategy=name, accelerator="tpu", devices=8)
    add("strategy", TPU, strategy=name, tpu_cores=[5])
for name in ("ipu_strategy", "ddp"):
    add("strategy", IPU, strategy=name, accelerator="ipu", devices=4)
for name in ("hpu_parallel", "hpu_single", "ddp"):
    add("strategy", HPU, strategy=name, accelerator="hpu", devices=8)
for name in ("deepspeed", "deepspeed_stage_3"):
    add("strategy", hw(4), strategy=name, gpus=2, note="deepspeed not installed (flag off)")
for name in ("ddp_sharded", "ddp_sharded_spawn", "ddp_fully_sharded"):
    add("strategy", hw(4, fairscale=False), strategy=name, gpus=2)
add("strategy", hw(4), strategy="horovod", gpus=2, note="horovod not installed (flag off)")
add("strategy", CPU, strategy=None)
add("strategy", CUDA4, strategy=None, gpus=2)

# -- 5b. the usual spellings of a strategy together with device flags ----------------------------
for name in (
    None,
    "ddp",
    "ddp_spawn",
    "dp",
    "ddp2",
    "ddp_sharded",
    "ddp_sharded_spawn",
    "fsdp",
    "deepspeed",
    "horovod",
):
    h = hw(4, deepspeed=True, horovod=True, horovod_local_size=2)
    add("strategy_devices", h, strategy=name, accelerator="gpu", devices=2)
    add("strategy_devices", h, strategy=name, accelerator="gpu", devices=1)
    add("strategy_devices", h, strategy=name, accelerator="gpu", devices="0,1")
    add("strategy_devices", hw(deepspeed=True, horovod=True, horovod_local_size=2), strategy=name, num_processes=2)
    add("strategy_devices", CPU, strategy=name, accelerator="cpu", devices=1, num_nodes=2)

# -- 6. strategy instances ------------------------------------------------------------------
INSTANCES = [
    obj("DDPPlugin"),
    obj("DDPPlugin", find_unused_parameters=False),
    obj("DDPSpawnPlugin"),
    obj("DDPSpawnPlugin", find_unused_parameters=False),
    obj("DataParallelPlugin"),
    obj("DDP2Plugin"),
    obj("DDPShardedPlugin"),
    obj("DDPSpawnShardedPlugin"),
    obj("DDPFullyShardedPlugin"),
    obj("HorovodPlugin"),
    obj("DeepSpeedPlugin", stage=2),
    obj("SingleDevicePlugin", dev("cpu")),
    obj("SingleDevicePlugin", dev("cuda:1")),
    obj("DDPStrategy"),
    obj("DDPStrategy", find_unused_parameters=False),
    obj("DDPSpawnStrategy"),
    obj("DataParallelStrategy"),
    obj("DDP2Strategy"),
    obj("DDPShardedStrategy"),
    obj("DDPSpawnShardedStrategy"),
    obj("DDPFullyShardedStrategy"),
    obj("HorovodStrategy"),
    obj("DeepSpeedStrategy", stage=3),
    obj("SingleDeviceStrategy", dev("cpu")),
    obj("SingleDeviceStrategy", dev("cuda:1")),
]
for inst in INSTANCES:
    add("strategy_instance", GPU_PLUS, strategy=inst, gpus=2)
    add("strategy_instance", CPU, strategy=inst)
    add("strategy_instance", CPU, strategy=inst, num_processes=2)
for inst in (obj("TPUSpawnPlugin"), obj("SingleTPUPlugin", 1), obj("TPUSpawnStrategy"), obj("SingleTPUStrategy", 1)):
    add("strategy_instance", TPU, strategy=inst)
    add("strategy_instance", TPU, strategy=inst, tpu_cores=8)
for inst in (obj("IPUPlugin"), obj("IPUStrategy")):
    add("strategy_instance", IPU, strategy=inst)
    add("strategy_instance", IPU, strategy=inst, ipus=4)
add("strategy_instance", CUDA4, strategy=obj("DDPPlugin", parallel_devices=[dev("cuda:0"), dev("cuda:2")]))
add("strategy_instance", CUDA4, strategy=obj("DDPStrategy", parallel_devices=[dev("cuda:0"), dev("cuda:2")]))
add("strategy_instance", CUDA4, strategy=obj("DDPStrategy", parallel_devices=[dev("cpu"), dev("cpu")]))
add(
    "strategy_instance",
    CUDA4,
    strategy=obj("DDPStrategy", parallel_devices=[dev("cpu"), dev("cpu")]),
    accelerator="gpu",
)
add(
    "strategy_instance",
    CUDA4,
    strategy=obj("DDPStrategy", parallel_devices=[dev("cuda:0"), dev("cuda:1")]),
    accelerator="cpu",
)
add("strategy_instance", CUDA4, strategy=obj("DDPStrategy", accelerator=obj("GPUAccelerator")), gpus=2)
add("strategy_instance", CUDA4, strategy=obj("DDPStrategy", accelerator=obj("GPUAccelerator")), accelerator="cpu")
add(
    "strategy_instance",
    CUDA4,
    strategy=obj("DDPStrategy", precision_plugin=obj("PrecisionPlugin")),
    gpus=2,
    plugins=[obj("DoublePrecisionPlugin")],
)
add(
    "strategy_instance",
    CUDA4,
    strategy=obj("DDPStrategy", cluster_environment=obj("LightningEnvironment")),
    gpus=2,
    plugins=[obj("LightningEnvironment")],
)
add("strategy_instance", CUDA4, strategy=obj("DDPPlugin", cluster_environment=obj("LightningEnvironment")), gpus=2)
add(
    "strategy_instance",
    CUDA4,
    strategy=obj("DDPStrategy", checkpoint_io=obj("TorchCheckpointIO")),
    gpus=2,
    plugins=[obj("TorchCheckpointIO")],
)
add("strategy_instance", CUDA4, strategy=obj("DDPStrategy", process_group_backend="gloo"), gpus=2)
add("strategy_instance", CUDA4, strategy=obj("DDPPlugin"), gpus=2, num_nodes=2, sync_batchnorm=True)

# -- 7. plugins= (strategy strings and instances, other plugin types) ------------------------
for plug in (
    "ddp_sharded",
    "ddp_sharded_spawn",
    "ddp_find_unused_parameters_false",
    "ddp_spawn_find_unused_parameters_false",
    "deepspeed",
    "fsdp",
    "ddp",
    "ddp_spawn",
    "dp",
    "horovod",
    ["ddp_sharded"],
    ["ddp"],
    obj("DDPPlugin"),
    [obj("DDPPlugin", find_unused_parameters=False)],
    [obj("DDPSpawnPlugin")],
    [obj("DDPStrategy")],
    [obj("DDPShardedStrategy")],
    [obj("DataParallelPlugin")],
):
    add("plugins", GPU_PLUS, plugins=plug, gpus=2)
    add("plugins", CPU, plugins=plug, num_processes=2)
for plug in (
    [obj("PrecisionPlugin")],
    [obj("DoublePrecisionPlugin")],
    [obj("NativeMixedPrecisionPlugin", 16, "cuda")],
    [obj("NativeMixedPrecisionPlugin", "bf16", "cpu")],
    [obj("ApexMixedPrecisionPlugin", "O2")],
    [obj("TorchCheckpointIO")],
    [obj("SLURMEnvironment")],
    [obj("LightningEnvironment")],
    [obj("TorchElasticEnvironment")],
    [obj("KubeflowEnvironment")],
    [obj("NativeSyncBatchNorm")],
    [obj("PrecisionPlugin"), obj("DoublePrecisionPlugin")],
    [obj("TorchCheckpointIO"), obj("TorchCheckpointIO")],
    [obj("SLURMEnvironment"), obj("LightningEnvironment")],
    [obj("DDPPlugin"), obj("DDPSpawnPlugin")],
    [obj("DDPStrategy"), obj("DDPSpawnStrategy")],
    ["ddp_sharded", "ddp_find_unused_parameters_false"],
    ["ddp_sharded", obj("NativeMixedPrecisionPlugin", 16, "cuda")],
    ["unknown_plugin"],
    "unknown_plugin",
    [3],
):
    add("plugins", hw(4, apex=True), plugins=plug, gpus=2)
add("plugins", CPU, plugins=[obj("NativeMixedPrecisionPlugin", "bf16", "cpu")], precision=16)
add("plugins", CPU, plugins=[obj("DoublePrecisionPlugin")], precision=16)
add("plugins", CUDA4, plugins=[obj("NativeSyncBatchNorm")], sync_batchnorm=True, gpus=2, strategy="ddp")
add("plugins", CUDA4, plugins=[obj("LayerSync")], sync_batchnorm=True, gpus=2, strategy="ddp")
add("plugins", TPU, plugins=[obj("PrecisionPlugin")], tpu_cores=8)
add("plugins", TPU, plugins=[obj("TPUBf16PrecisionPlugin")], tpu_cores=8)

# -- 8. strategy given twice -----------------------------------------------------------------
add("conflict", CUDA4, gpus=2, strategy="ddp", accelerator="ddp_spawn")
add("conflict", CUDA4, gpus=2, strategy="ddp", accelerator="ddp")
add("conflict", CUDA4, gpus=2, strategy="ddp", accelerator="gpu")
add("conflict", CUDA4, gpus=2, strategy="ddp", plugins="ddp_sharded")
add("conflict", CUDA4, gpus=2, strategy="ddp", plugins=["ddp_spawn"])
add("conflict", CUDA4, gpus=2, strategy="ddp", plugins=[obj("DDPPlugin")])
add("conflict", CUDA4, gpus=2, strategy="ddp", plugins=[obj("DDPStrategy")])
add("conflict", CUDA4, gpus=2, strategy=obj("DDPPlugin"), accelerator="dp")
add("conflict", CUDA4, gpus=2, strategy=obj("DDPStrategy"), accelerator="dp")
add("conflict", CUDA4, gpus=2, strategy=obj("DDPStrategy"), accelerator=obj("DDPSpawnStrategy"))
add("conflict", CUDA4, gpus=2, strategy=obj("DDPPlugin"), plugins=[obj("DDPSpawnPlugin")])
add("conflict", CUDA4, gpus=2, strategy=obj("DDPPlugin"), plugins=["ddp_sharded"])
add("conflict", CUDA4, gpus=2, plugins=["ddp", "ddp_sharded"])
add("conflict", CUDA4, gpus=2, plugins=["ddp_sharded", "ddp_spawn"])
add("conflict", CUDA4, gpus=2, plugins=["ddp_find_unused_parameters_false", "ddp_sharded_find_unused_parameters_false"])
add("conflict", CUDA4, gpus=2, accelerator="ddp", plugins=["ddp_sharded"])
add("conflict", CUDA4, gpus=2, accelerator="ddp_spawn", plugins=[obj("DDPPlugin")])
add("conflict", CUDA4, gpus=2, strategy="ddp_spawn", distributed_backend="ddp")

# -- 9. precision and AMP --------------------------------------------------------------------
PRECISIONS = (16, 32, 64, "bf16", "16", "32", "64", "mixed", 8, "half", "16-mixed")
for p in PRECISIONS:
    add("precision", CPU, precision=p)
    add("precision", CUDA4, precision=p, gpus=1)
for p in (16, 32, 64, "bf16", "16", "mixed"):
    add("precision", CUDA4, precision=p, gpus=2, strategy="ddp")
    add("precision", CUDA4, precision=p, gpus=2, strategy="dp")
    add("precision", CPU, precision=p, num_processes=2, strategy="ddp")
    add("precision", TPU, precision=p, tpu_cores=8)
    add("precision", TPU, precision=p, tpu_cores=[1])
    add("precision", IPU, precision=p, ipus=4)
    add("precision", HPU, precision=p, accelerator="hpu", devices=1)
    add("precision", DS4, precision=p, gpus=2, strategy="deepspeed")
    add("precision", CUDA4, precision=p, gpus=2, strategy="ddp_sharded")
    add("precision", CUDA4, precision=p, gpus=2, strategy="ddp_sharded_spawn")
    add("precision", CUDA4, precision=p, gpus=2, strategy="fsdp")
for backend in ("native", "apex", "APEX", "Native", "bogus", None):
    for level in (None, "O1", "O2"):
        add("amp", APEX4, precision=16, gpus=1, amp_backend=backend, amp_level=level)
for backend, level in (("apex", None), ("apex", "O1"), ("native", "O2"), ("native", None)):
    add("amp", APEX4, precision=32, gpus=1, amp_backend=backend, amp_level=level)
    add("amp", hw(apex=True), precision=16, amp_backend=backend, amp_level=level)
    add("amp", hw(apex=True), precision="bf16", amp_backend=backend, amp_level=level)
    add("amp", APEX4, precision="bf16", gpus=1, amp_backend=backend, amp_level=level)
    add("amp", CUDA4, precision=16, gpus=1, amp_backend=backend, amp_level=level, note="apex not installed")
for strategy in ("ddp_sharded", "ddp_sharded_spawn", "fsdp", "deepspeed"):
    add("amp", hw(4, apex=True, deepspeed=True), precision=16, gpus=2, strategy=strategy, amp_backend="apex")
add("amp", TPU, precision=16, tpu_cores=8, amp_backend="apex")
add("amp", IPU, precision=16, ipus=4, amp_backend="apex")

# -- 10. num_nodes -----------------------------------------------------------------------------
for strategy in (None, "ddp", "ddp_spawn", "dp", "ddp2", "ddp_sharded", "horovod", "ddp_cpu"):
    h = hw(4, horovod=True) if strategy == "horovod" else CUDA4
    add("num_nodes", CPU, num_nodes=2, strategy=strategy)
    add("num_nodes", CPU, num_nodes=2, strategy=strategy, num_processes=2)
    add("num_nodes", h, num_nodes=2, strategy=strategy, gpus=1)
    add("num_nodes", h, num_nodes=2, strategy=strategy, gpus=2)
for acc in ("ddp", "ddp_spawn", "dp", "ddp2"):
    add("num_nodes", CUDA4, num_nodes=2, accelerator=acc, gpus=1)
add("num_nodes", CUDA4, num_nodes=4, gpus=4)
add("num_nodes", CUDA4, num_nodes=2, accelerator="gpu", devices=2)
add("num_nodes", CUDA4, num_nodes=2, accelerator="gpu", devices=1)
add("num_nodes", CPU, num_nodes=2, accelerator="cpu", devices=1)
add("num_nodes", TPU, num_nodes=2, tpu_cores=8)
add("num_nodes", CPU, num_nodes=0)

# -- 11. sync_batchnorm ------------------------------------------------------------------------
for strategy in (None, "ddp", "ddp_spawn", "dp", "ddp2", "ddp_sharded"):
    add("sync_batchnorm", CUDA4, sync_batchnorm=True, strategy=strategy, gpus=2)
add("sync_batchnorm", CPU, sync_batchnorm=True)
add("sync_batchnorm", CPU, sync_batchnorm=True, num_processes=2, strategy="ddp")
add("sync_batchnorm", CUDA4, sync_batchnorm=True, strategy=obj("DDPPlugin"), gpus=2)
add("sync_batchnorm", CUDA4, sync_batchnorm=True, strategy=obj("DDPStrategy"), gpus=2)

# -- 12. cluster environments -------------------------------------------------------------------
CLUSTER_STRATEGIES = (None, "ddp", "ddp_spawn", "ddp_spawn_find_unused_parameters_false", "dp", "ddp_sharded_spawn")
for strategy in CLUSTER_STRATEGIES:
    for name, env in (
        ("slurm(ntasks=2)", slurm(2)),
        ("slurm(ntasks=4)", slurm(4)),
        ("slurm(ntasks=2, job_name=bash)", slurm(2, "bash")),
        ("torchelastic(world_size=2)", torchelastic(2)),
        ("kubeflow(world_size=2)", kubeflow(2)),
        ("lsf(world_size=2)", lsf(2)),
        ("lightning(LOCAL_RANK set)", lightning_env()),
    ):
        add("cluster", CUDA4, cluster=name, env=env, gpus=2, strategy=strategy)
        add("cluster", CPU, cluster=name, env=env, num_processes=2, strategy=strategy)
for name, env in (("slurm(ntasks=4)", slurm(4)), ("torchelastic(world_size=4)", torchelastic(4))):
    add("cluster", CUDA4, cluster=name, env=env, gpus=2, num_nodes=2, strategy="ddp_spawn")
    add("cluster", CUDA4, cluster=name, env=env, gpus=2, num_nodes=2)
    add("cluster", CUDA4, cluster=name, env=env, gpus=2, num_nodes=2, accelerator="ddp_spawn")
for name, env in (("slurm(ntasks=1)", slurm(1)), ("torchelastic(world_size=1)", torchelastic(1))):
    add("cluster", CUDA4, cluster=name, env=env, gpus=1)
    add("cluster", CPU, cluster=name, env=env)
add("cluster", CPU, cluster="slurm(ntasks=2)", env=slurm(2), num_processes=2, accelerator="ddp_cpu")
add("cluster", CPU, cluster="torchelastic(world_size=2)", env=torchelastic(2), num_processes=2, accelerator="ddp_cpu")
add("cluster", CUDA4, cluster="slurm(ntasks=2)", env=slurm(2), gpus=2, strategy=obj("DDPSpawnPlugin"))
add("cluster", CUDA4, cluster="slurm(ntasks=2)", env=slurm(2), gpus=2, strategy=obj("DDPSpawnStrategy"))
add(
    "cluster",
    CUDA4,
    cluster="slurm(ntasks=2)",
    env=slurm(2),
    gpus=2,
    strategy="ddp",
    plugins=[obj("LightningEnvironment")],
)
for strategy in (None, "horovod", "ddp"):
    add(
        "cluster",
        hw(4, horovod=True, horovod_local_size=2),
        cluster="horovodrun",
        env=horovodrun(),
        gpus=1,
        strategy=strategy,
    )
    add("cluster", hw(horovod=True, horovod_local_size=2), cluster="horovodrun", env=horovodrun(), strategy=strategy)
add("cluster", CUDA4, cluster="horovodrun", env=horovodrun(), gpus=1, note="horovod not installed")

# -- 13. interactive (notebook) mode -------------------------------------------------------------
for strategy in (
    None,
    "dp",
    "ddp",
    "ddp_spawn",
    "ddp_sharded",
    "ddp_sharded_spawn",
    "ddp2",
    "deepspeed",
    "ddp_find_unused_parameters_false",
    "ddp_spawn_find_unused_parameters_false",
):
    add("interactive", hw(4, deepspeed=True), interactive=True, strategy=strategy, gpus=2)
    add("interactive", CPU, interactive=True, strategy=strategy)
    add("interactive", CPU, interactive=True, strategy=strategy, num_processes=2)
add("interactive", CUDA4, interactive=True, gpus=1)
add("interactive", CUDA4, interactive=True, strategy="dp", accelerator="gpu")
add("interactive", CUDA4, interactive=True, strategy="dp", accelerator="gpu", devices=2)
add("interactive", TPU, interactive=True, accelerator="tpu")
add("interactive", TPU, interactive=True, tpu_cores=8)
add("interactive", TPU, interactive=True, tpu_cores=[1])
add("interactive", IPU, interactive=True, ipus=4)
add("interactive", CUDA4, interactive=True, accelerator="ddp_spawn", gpus=2)
add("interactive", CUDA4, interactive=True, strategy=obj("DDPSpawnPlugin"), gpus=2)
add("interactive", CUDA4, interactive=True, strategy=obj("DDPSpawnStrategy"), gpus=2)
add("interactive", CUDA4, interactive=True, strategy=obj("DataParallelStrategy"), gpus=2)
add("interactive", CUDA4, interactive=True, cluster="slurm(ntasks=2)", env=slurm(2), gpus=2, strategy="ddp_spawn")

# -- 14. invalid input -------------------------------------------------------------------------
for acc, h in (("cpu", CPU), ("gpu", CUDA4), ("tpu", TPU), ("ipu", IPU), ("auto", CUDA4), (None, CUDA4)):
    for d in (0, [], "0", -2, "x"):
        add("invalid", h, accelerator=acc, devices=d)
add("invalid", CPU, accelerator="foo")
add("invalid", CPU, accelerator="")
add("invalid", CPU, strategy="")
add("invalid", CPU, strategy="foo")
add("invalid", CPU, plugins="foo")
add("invalid", CPU, precision=128)
add("invalid", CPU, precision=None)
add("invalid", CPU, gpus="x")
add("invalid", CPU, gpus=2)
add("invalid", CPU, gpus=[0, 1])
add("invalid", CUDA4, gpus=-2)
add("invalid", TPU, tpu_cores=3)
add("invalid", TPU, tpu_cores=[1, 2, 3])
add("invalid", TPU, tpu_cores=9)
add("invalid", CPU, amp_backend="foo")
add("invalid", CPU, num_processes=-1)
add("invalid", CPU, num_nodes=-1)
add("invalid", CPU, strategy=3)
add("invalid", CPU, accelerator=3)
add("invalid", CUDA4, auto_select_gpus=True, gpus=2)
add("invalid", CUDA4, auto_select_gpus=True, gpus=-1)
add("invalid", CPU, auto_select_gpus=True)


def all_cases() -> list[Case]:
    """Every case, in recording order; ids are checked unique."""
    seen: dict[str, Case] = {}
    for case in _CASES:
        if case.id in seen:
            raise ValueError(f"duplicate case id: {case.id}")
        json.dumps(case.as_dict())  # JSON-able by construction
        seen[case.id] = case
    return list(seen.values())


if __name__ == "__main__":
    cases = all_cases()
    groups: dict[str, int] = {}
    for c in cases:
        groups[c.group] = groups.get(c.group, 0) + 1
    print(f"{len(cases)} cases: " + ", ".join(f"{g}={n}" for g, n in groups.items()))
