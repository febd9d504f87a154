"""The connector's selection, as a table: flags + machine -> accelerator, strategy, precision, environment, devices.

One row a case. ``hw`` describes the faked machine (see the ``machine`` fixture in tests/conftest.py).
Expected tuple: (accelerator class, strategy class, registry name, precision plugin class,
environment class, devices, num_nodes).
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from newcore import AcceleratorConnector
from newcore.accelerators import CPUAccelerator, CUDAAccelerator
from newcore.plugins.environments import LightningEnvironment, SLURMEnvironment, TorchElasticEnvironment
from newcore.plugins.io import TorchCheckpointIO
from newcore.plugins.layer_sync import NativeSyncBatchNorm
from newcore.plugins.precision import DoublePrecisionPlugin, MixedPrecisionPlugin
from newcore.strategies import (
    DataParallelStrategy,
    DDPShardedStrategy,
    DDPSpawnStrategy,
    DDPStrategy,
    DeepSpeedStrategy,
    SingleDeviceStrategy,
)
from newcore.warnings import FallbackWarning

CPU, CUDA, TPU, IPU, MPS = "CPUAccelerator", "CUDAAccelerator", "TPUAccelerator", "IPUAccelerator", "MPSAccelerator"
P32, AMP, P64 = "PrecisionPlugin", "MixedPrecisionPlugin", "DoublePrecisionPlugin"
LE, SLURM, TE, KF, LSF = (
    "LightningEnvironment",
    "SLURMEnvironment",
    "TorchElasticEnvironment",
    "KubeflowEnvironment",
    "LSFEnvironment",
)


def cpus(n: int) -> list[str]:
    return ["cpu"] * n


def gpus(*indices: int) -> list[str]:
    return [f"cuda:{i}" for i in indices]


def xla(*indices: int) -> list[str]:
    return [f"xla:{i}" for i in indices]


def row(id: str, flags: dict[str, Any], expect: tuple[Any, ...], warns: str | None = None, **hw: Any) -> Any:
    """One case; ``warns`` is a regex the expected FallbackWarning must match (a fallback is never silent)."""
    return pytest.param(flags, hw, expect, warns, id=id)


ALL_DS = {"deepspeed"}

# fmt: off
ROWS = [
    # -- defaults: Lightning 1.x keeps one CPU process ---------------------------------------------------
    row("no flags -> one CPU", {}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("no flags on a 4-GPU box still CPU", {}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1), cuda=4),
    row("devices=1 -> one CPU", {"devices": 1}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("devices=2 -> cpu ddp_spawn", {"devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(2), 1)),
    row("devices='3' string count", {"devices": "3"}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(3), 1)),
    row("accelerator=cpu", {"accelerator": "cpu"}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("accelerator=CPU is case-insensitive", {"accelerator": "CPU"}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("cpu devices=4", {"accelerator": "cpu", "devices": 4}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(4), 1)),
    row("cpu devices=auto is one process", {"accelerator": "cpu", "devices": "auto"}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    # -- auto detection: TPU > IPU > CUDA > MPS > CPU ------------------------------------------------------
    row("auto on CPU box", {"accelerator": "auto"}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("auto takes every gpu (1.6)", {"accelerator": "auto"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1), 1), cuda=2),
    row("auto picks mps without cuda", {"accelerator": "auto"}, (MPS, "SingleDeviceStrategy", "single_device", P32, LE, ["mps:0"], 1), mps=True),
    row("auto prefers cuda over mps", {"accelerator": "auto"}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(0), 1), cuda=1, mps=True),
    row("auto picks tpu first, all cores", {"accelerator": "auto"}, (TPU, "TPUSpawnStrategy", "tpu_spawn", "TPUPrecisionPlugin", LE, xla(*range(8)), 1), cuda=2, tpu=8, packages={"torch_xla"}),
    row("auto picks ipu over cuda", {"accelerator": "auto"}, (IPU, "IPUStrategy", "ipu_strategy", "IPUPrecisionPlugin", LE, [f"ipu:{i}" for i in range(4)], 1), cuda=2, ipu=4, packages={"poptorch"}),
    row("auto + devices=auto uses all gpus", {"accelerator": "auto", "devices": "auto"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1, 2), 1), cuda=3),
    row("auto + devices=auto on cpu", {"accelerator": "auto", "devices": "auto"}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    # -- GPU device forms ----------------------------------------------------------------------------------
    row("gpu devices=1", {"accelerator": "gpu", "devices": 1}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(0), 1), cuda=4),
    row("gpu without devices takes all (1.6)", {"accelerator": "gpu"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1, 2, 3), 1), cuda=4),
    row("cuda alias", {"accelerator": "cuda", "devices": 1}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(0), 1), cuda=1),
    row("gpu devices=2 -> ddp_spawn", {"accelerator": "gpu", "devices": 2}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1), 1), cuda=4),
    row("gpu devices=-1 -> all", {"accelerator": "gpu", "devices": -1}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1, 2, 3), 1), cuda=4),
    row("gpu devices='-1' -> all", {"accelerator": "gpu", "devices": "-1"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1), 1), cuda=2),
    row("gpu devices='0,1'", {"accelerator": "gpu", "devices": "0,1"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1), 1), cuda=4),
    row("gpu devices='1,' is index 1", {"accelerator": "gpu", "devices": "1,"}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(1), 1), cuda=4),
    row("gpu devices=[0, 2]", {"accelerator": "gpu", "devices": [0, 2]}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 2), 1), cuda=4),
    row("gpu devices=[3] single index", {"accelerator": "gpu", "devices": [3]}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(3), 1), cuda=4),
    row("gpu devices='2' count", {"accelerator": "gpu", "devices": "2"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1), 1), cuda=2),
    row("gpu devices=auto", {"accelerator": "gpu", "devices": "auto"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1), 1), cuda=2),
    row("gpu devices=(1, 0) tuple keeps order", {"accelerator": "gpu", "devices": (1, 0)}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(1, 0), 1), cuda=2),
    row("mps devices=1", {"accelerator": "mps", "devices": 1}, (MPS, "SingleDeviceStrategy", "single_device", P32, LE, ["mps:0"], 1), mps=True),
    # -- explicit strategies by name -------------------------------------------------------------------------
    row("strategy=ddp on cpu", {"strategy": "ddp", "devices": 2}, (CPU, "DDPStrategy", "ddp", P32, LE, cpus(2), 1)),
    row("strategy=ddp single cpu", {"strategy": "ddp"}, (CPU, "DDPStrategy", "ddp", P32, LE, cpus(1), 1)),
    row("strategy=DDP case-insensitive", {"strategy": "DDP", "devices": 2}, (CPU, "DDPStrategy", "ddp", P32, LE, cpus(2), 1)),
    row("strategy=ddp on gpus", {"strategy": "ddp", "accelerator": "gpu", "devices": 2}, (CUDA, "DDPStrategy", "ddp", P32, LE, gpus(0, 1), 1), cuda=2),
    row("ddp_find_unused_parameters_false", {"strategy": "ddp_find_unused_parameters_false", "devices": 2}, (CPU, "DDPStrategy", "ddp_find_unused_parameters_false", P32, LE, cpus(2), 1)),
    row("ddp_spawn on cpu", {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 3}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(3), 1)),
    row("ddp_spawn fuf false", {"strategy": "ddp_spawn_find_unused_parameters_false", "devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_spawn_find_unused_parameters_false", P32, LE, cpus(2), 1)),
    row("ddp_fork on cpu", {"strategy": "ddp_fork", "devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_fork", P32, LE, cpus(2), 1)),
    row("ddp_notebook on cpu", {"strategy": "ddp_notebook", "devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_notebook", P32, LE, cpus(2), 1)),
    row("ddp_fork fuf false", {"strategy": "ddp_fork_find_unused_parameters_false", "devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_fork_find_unused_parameters_false", P32, LE, cpus(2), 1)),
    row("dp on gpus", {"strategy": "dp", "accelerator": "gpu", "devices": 2}, (CUDA, "DataParallelStrategy", "dp", P32, LE, gpus(0, 1), 1), cuda=2),
    row("ddp2 on gpus", {"strategy": "ddp2", "accelerator": "gpu", "devices": 2}, (CUDA, "DDP2Strategy", "ddp2", P32, LE, gpus(0, 1), 1), cuda=2),
    row("ddp_sharded on gpus", {"strategy": "ddp_sharded", "accelerator": "gpu", "devices": 2}, (CUDA, "DDPShardedStrategy", "ddp_sharded", P32, LE, gpus(0, 1), 1), cuda=2),
    row("ddp_sharded on cpu", {"strategy": "ddp_sharded", "devices": 2}, (CPU, "DDPShardedStrategy", "ddp_sharded", P32, LE, cpus(2), 1)),
    row("ddp_sharded fuf false", {"strategy": "ddp_sharded_find_unused_parameters_false", "devices": 2}, (CPU, "DDPShardedStrategy", "ddp_sharded_find_unused_parameters_false", P32, LE, cpus(2), 1)),
    row("ddp_sharded_spawn", {"strategy": "ddp_sharded_spawn", "devices": 2}, (CPU, "DDPSpawnShardedStrategy", "ddp_sharded_spawn", P32, LE, cpus(2), 1)),
    row("ddp_sharded_spawn fuf false", {"strategy": "ddp_sharded_spawn_find_unused_parameters_false", "devices": 2}, (CPU, "DDPSpawnShardedStrategy", "ddp_sharded_spawn_find_unused_parameters_false", P32, LE, cpus(2), 1)),
    row("fsdp on gpus", {"strategy": "fsdp", "accelerator": "gpu", "devices": 2}, (CUDA, "DDPFullyShardedStrategy", "fsdp", P32, LE, gpus(0, 1), 1), cuda=2),
    row("ddp_fully_sharded alias", {"strategy": "ddp_fully_sharded", "accelerator": "gpu", "devices": 2}, (CUDA, "DDPFullyShardedStrategy", "ddp_fully_sharded", P32, LE, gpus(0, 1), 1), cuda=2),
    row("fsdp on cpu", {"strategy": "fsdp", "devices": 2}, (CPU, "DDPFullyShardedStrategy", "fsdp", P32, LE, cpus(2), 1)),
    row("horovod with package", {"strategy": "horovod"}, (CPU, "HorovodStrategy", "horovod", P32, LE, cpus(1), 1), packages={"horovod"}),
    row("horovod on gpu", {"strategy": "horovod", "accelerator": "gpu"}, (CUDA, "HorovodStrategy", "horovod", P32, LE, gpus(0), 1), cuda=1, packages={"horovod"}),
    row("single_device explicit on gpu uses the gpu", {"strategy": "single_device", "accelerator": "gpu", "devices": [1]}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(1), 1), cuda=2),
    row("single_device explicit on cpu", {"strategy": "single_device"}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    # -- deepspeed family (the package is faked present) ---------------------------------------------------
    *[
        row(f"{name} on gpus", {"strategy": name, "accelerator": "gpu", "devices": 2}, (CUDA, "DeepSpeedStrategy", name, "DeepSpeedPrecisionPlugin", LE, gpus(0, 1), 1), cuda=2, packages=ALL_DS)
        for name in (
            "deepspeed", "deepspeed_stage_1", "deepspeed_stage_2", "deepspeed_stage_2_offload",
            "deepspeed_stage_3", "deepspeed_stage_3_offload", "deepspeed_stage_3_offload_nvme",
        )
    ],
    row("deepspeed precision 16", {"strategy": "deepspeed", "accelerator": "gpu", "devices": 1, "precision": 16}, (CUDA, "DeepSpeedStrategy", "deepspeed", "DeepSpeedPrecisionPlugin", LE, gpus(0), 1), cuda=1, packages=ALL_DS),
    # -- TPU -----------------------------------------------------------------------------------------------
    row("tpu devices=8 -> tpu_spawn", {"accelerator": "tpu", "devices": 8}, (TPU, "TPUSpawnStrategy", "tpu_spawn", "TPUPrecisionPlugin", LE, xla(*range(8)), 1), tpu=8, packages={"torch_xla"}),
    row("tpu devices=1 -> single_tpu", {"accelerator": "tpu", "devices": 1}, (TPU, "SingleTPUStrategy", "single_tpu", "TPUPrecisionPlugin", LE, xla(0), 1), tpu=8, packages={"torch_xla"}),
    row("tpu devices=[5] -> single core 5", {"accelerator": "tpu", "devices": [5]}, (TPU, "SingleTPUStrategy", "single_tpu", "TPUPrecisionPlugin", LE, xla(5), 1), tpu=8, packages={"torch_xla"}),
    row("tpu without devices takes 8 cores (1.6)", {"accelerator": "tpu"}, (TPU, "TPUSpawnStrategy", "tpu_spawn", "TPUPrecisionPlugin", LE, xla(*range(8)), 1), tpu=8, packages={"torch_xla"}),
    row("tpu devices='2' is core 2 (1.x string rule)", {"accelerator": "tpu", "devices": "2"}, (TPU, "SingleTPUStrategy", "single_tpu", "TPUPrecisionPlugin", LE, xla(2), 1), tpu=8, packages={"torch_xla"}),
    row("gpu without devices on a 1-gpu box", {"accelerator": "gpu"}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(0), 1), cuda=1),
    row("tpu devices=auto -> 8", {"accelerator": "tpu", "devices": "auto"}, (TPU, "TPUSpawnStrategy", "tpu_spawn", "TPUPrecisionPlugin", LE, xla(*range(8)), 1), tpu=8, packages={"torch_xla"}),
    row("tpu bf16", {"accelerator": "tpu", "devices": 8, "precision": "bf16"}, (TPU, "TPUSpawnStrategy", "tpu_spawn", "TPUBf16PrecisionPlugin", LE, xla(*range(8)), 1), tpu=8, packages={"torch_xla"}),
    row("tpu_spawn_debug implies tpu", {"strategy": "tpu_spawn_debug", "devices": 8}, (TPU, "TPUSpawnStrategy", "tpu_spawn_debug", "TPUPrecisionPlugin", LE, xla(*range(8)), 1), tpu=8, packages={"torch_xla"}),
    row("single_tpu by name", {"strategy": "single_tpu", "accelerator": "tpu"}, (TPU, "SingleTPUStrategy", "single_tpu", "TPUPrecisionPlugin", LE, xla(0), 1), tpu=8, packages={"torch_xla"}),
    # -- IPU -----------------------------------------------------------------------------------------------
    row("ipu devices=4", {"accelerator": "ipu", "devices": 4}, (IPU, "IPUStrategy", "ipu_strategy", "IPUPrecisionPlugin", LE, [f"ipu:{i}" for i in range(4)], 1), ipu=4, packages={"poptorch"}),
    row("ipu precision 16", {"accelerator": "ipu", "devices": 1, "precision": 16}, (IPU, "IPUStrategy", "ipu_strategy", "IPUPrecisionPlugin", LE, ["ipu:0"], 1), ipu=4, packages={"poptorch"}),
    row("ipu_strategy implies ipu", {"strategy": "ipu_strategy", "devices": 2}, (IPU, "IPUStrategy", "ipu_strategy", "IPUPrecisionPlugin", LE, ["ipu:0", "ipu:1"], 1), ipu=4, packages={"poptorch"}),
    # -- precision --------------------------------------------------------------------------------------------
    row("precision 32 int", {"precision": 32}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("precision '32' string", {"precision": "32"}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("precision '32-true' (2.0 spelling)", {"precision": "32-true"}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("precision 64", {"precision": 64}, (CPU, "SingleDeviceStrategy", "single_device", P64, LE, cpus(1), 1)),
    row("precision '64-true'", {"precision": "64-true"}, (CPU, "SingleDeviceStrategy", "single_device", P64, LE, cpus(1), 1)),
    row("precision bf16 on cpu", {"precision": "bf16"}, (CPU, "SingleDeviceStrategy", "single_device", AMP, LE, cpus(1), 1)),
    row("precision 'bf16-mixed' on cpu", {"precision": "bf16-mixed"}, (CPU, "SingleDeviceStrategy", "single_device", AMP, LE, cpus(1), 1)),
    row("precision 16 on gpu", {"accelerator": "gpu", "devices": 1, "precision": 16}, (CUDA, "SingleDeviceStrategy", "single_device", AMP, LE, gpus(0), 1), cuda=1),
    row("precision '16' string on gpu", {"accelerator": "gpu", "devices": 1, "precision": "16"}, (CUDA, "SingleDeviceStrategy", "single_device", AMP, LE, gpus(0), 1), cuda=1),
    row("precision '16-mixed' on gpu", {"accelerator": "gpu", "devices": 1, "precision": "16-mixed"}, (CUDA, "SingleDeviceStrategy", "single_device", AMP, LE, gpus(0), 1), cuda=1),
    row("precision bf16 on gpu ddp", {"accelerator": "gpu", "devices": 2, "precision": "bf16"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", AMP, LE, gpus(0, 1), 1), cuda=2),
    row("precision 64 on gpu", {"accelerator": "gpu", "devices": 1, "precision": 64}, (CUDA, "SingleDeviceStrategy", "single_device", P64, LE, gpus(0), 1), cuda=1),
    row("sharded + 16 -> sharded amp", {"strategy": "ddp_sharded", "accelerator": "gpu", "devices": 2, "precision": 16}, (CUDA, "DDPShardedStrategy", "ddp_sharded", "ShardedMixedPrecisionPlugin", LE, gpus(0, 1), 1), cuda=2),
    row("sharded_spawn + bf16", {"strategy": "ddp_sharded_spawn", "accelerator": "gpu", "devices": 2, "precision": "bf16"}, (CUDA, "DDPSpawnShardedStrategy", "ddp_sharded_spawn", "ShardedMixedPrecisionPlugin", LE, gpus(0, 1), 1), cuda=2),
    row("fsdp + 16 -> fully sharded amp", {"strategy": "fsdp", "accelerator": "gpu", "devices": 2, "precision": 16}, (CUDA, "DDPFullyShardedStrategy", "fsdp", "FullyShardedMixedPrecisionPlugin", LE, gpus(0, 1), 1), cuda=2),
    row("sharded + 32 stays plain", {"strategy": "ddp_sharded", "accelerator": "gpu", "devices": 2, "precision": 32}, (CUDA, "DDPShardedStrategy", "ddp_sharded", P32, LE, gpus(0, 1), 1), cuda=2),
    row("ddp + 64 on cpu", {"strategy": "ddp", "devices": 2, "precision": 64}, (CPU, "DDPStrategy", "ddp", P64, LE, cpus(2), 1)),
    # -- num_nodes ------------------------------------------------------------------------------------------
    row("num_nodes=2 cpu -> ddp", {"num_nodes": 2}, (CPU, "DDPStrategy", "ddp", P32, LE, cpus(1), 2)),
    row("num_nodes=2 cpu devices=2 -> ddp", {"num_nodes": 2, "devices": 2}, (CPU, "DDPStrategy", "ddp", P32, LE, cpus(2), 2)),
    row("one gpu, two nodes -> ddp", {"accelerator": "gpu", "devices": 1, "num_nodes": 2}, (CUDA, "DDPStrategy", "ddp", P32, LE, gpus(0), 2), cuda=1),
    row("four gpus, three nodes -> ddp", {"accelerator": "gpu", "devices": 4, "num_nodes": 3}, (CUDA, "DDPStrategy", "ddp", P32, LE, gpus(0, 1, 2, 3), 3), cuda=4),
    row("ddp_spawn with num_nodes=2 kept", {"strategy": "ddp_spawn", "devices": 2, "num_nodes": 2}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(2), 2)),
    row("ddp_sharded with num_nodes=2", {"strategy": "ddp_sharded", "accelerator": "gpu", "devices": 2, "num_nodes": 2}, (CUDA, "DDPShardedStrategy", "ddp_sharded", P32, LE, gpus(0, 1), 2), cuda=2),
    # -- clusters --------------------------------------------------------------------------------------------
    row("slurm managing 2x2 gpus -> ddp", {"accelerator": "gpu", "devices": 2, "num_nodes": 2}, (CUDA, "DDPStrategy", "ddp", P32, SLURM, gpus(0, 1), 2), cuda=2, cluster="slurm"),
    row("slurm ntasks mismatch -> our launcher", {"accelerator": "gpu", "devices": 2}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1), 1), cuda=2, cluster="slurm"),
    row("slurm interactive bash job ignored", {"accelerator": "gpu", "devices": 2, "num_nodes": 2}, (CUDA, "DDPStrategy", "ddp", P32, LE, gpus(0, 1), 2), cuda=2, cluster="slurm", env={"SLURM_JOB_NAME": "bash"}),
    row("slurm 4 tasks cpu devices=4", {"devices": 4}, (CPU, "DDPStrategy", "ddp", P32, SLURM, cpus(4), 1), cluster="slurm", env={"SLURM_NTASKS_PER_NODE": "4"}),
    row("torchelastic -> ddp", {"accelerator": "gpu", "devices": 2}, (CUDA, "DDPStrategy", "ddp", P32, TE, gpus(0, 1), 1), cuda=2, cluster="torchelastic"),
    row("torchelastic cpu devices=2", {"devices": 2}, (CPU, "DDPStrategy", "ddp", P32, TE, cpus(2), 1), cluster="torchelastic"),
    row("torchelastic single device", {}, (CPU, "SingleDeviceStrategy", "single_device", P32, TE, cpus(1), 1), cluster="torchelastic"),
    row("kubeflow -> ddp", {"devices": 2}, (CPU, "DDPStrategy", "ddp", P32, KF, cpus(2), 1), cluster="kubeflow"),
    row("lsf -> ddp", {"accelerator": "gpu", "devices": 2}, (CUDA, "DDPStrategy", "ddp", P32, LSF, gpus(0, 1), 1), cuda=2, cluster="lsf"),
    row("explicit ddp under torchelastic", {"strategy": "ddp", "devices": 2}, (CPU, "DDPStrategy", "ddp", P32, TE, cpus(2), 1), cluster="torchelastic"),
    row("dp under torchelastic untouched", {"strategy": "dp", "accelerator": "gpu", "devices": 2}, (CUDA, "DataParallelStrategy", "dp", P32, TE, gpus(0, 1), 1), cuda=2, cluster="torchelastic"),
    # -- interactive sessions ----------------------------------------------------------------------------------
    row("notebook: no flags fine", {}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1), interactive=True),
    row("notebook: cpu devices=2 -> ddp_fork", {"devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_fork", P32, LE, cpus(2), 1), interactive=True),
    row("notebook: ddp_notebook", {"strategy": "ddp_notebook", "devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_notebook", P32, LE, cpus(2), 1), interactive=True),
    row("notebook: dp on gpus", {"strategy": "dp", "accelerator": "gpu", "devices": 2}, (CUDA, "DataParallelStrategy", "dp", P32, LE, gpus(0, 1), 1), cuda=2, interactive=True),
    row("notebook: single gpu", {"accelerator": "gpu", "devices": 1}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(0), 1), cuda=2, interactive=True),
    row("notebook: tpu_spawn", {"accelerator": "tpu", "devices": 8}, (TPU, "TPUSpawnStrategy", "tpu_spawn", "TPUPrecisionPlugin", LE, xla(*range(8)), 1), tpu=8, packages={"torch_xla"}, interactive=True),
    row("notebook under torchelastic: ddp without launcher", {"devices": 2}, (CPU, "DDPStrategy", "ddp", P32, TE, cpus(2), 1), cluster="torchelastic", interactive=True),
    # -- horovod job detection -----------------------------------------------------------------------------
    row("horovodrun job -> horovod", {}, (CPU, "HorovodStrategy", "horovod", P32, LE, cpus(1), 1), packages={"horovod"}, env={"HOROVOD_RANK": "0"}),
    row("mpirun job -> horovod", {"accelerator": "gpu"}, (CUDA, "HorovodStrategy", "horovod", P32, LE, gpus(0), 1), cuda=1, packages={"horovod"}, env={"OMPI_COMM_WORLD_RANK": "0"}),
    row("horovod env without package ignored", {}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1), env={"HOROVOD_RANK": "0"}),
    # -- instances: accelerators, strategies and plugins passed as objects ------------------------------------
    row("CPUAccelerator instance", {"accelerator": CPUAccelerator(), "devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(2), 1)),
    row("CUDAAccelerator instance", {"accelerator": CUDAAccelerator(), "devices": 2}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(0, 1), 1), cuda=2),
    row("DDPStrategy instance on cpu", {"strategy": DDPStrategy(), "devices": 2}, (CPU, "DDPStrategy", None, P32, LE, cpus(2), 1)),
    row("DDPStrategy instance on gpu", {"strategy": DDPStrategy(), "accelerator": "gpu", "devices": [1, 3]}, (CUDA, "DDPStrategy", None, P32, LE, gpus(1, 3), 1), cuda=4),
    row("DDPStrategy with its own accelerator", {"strategy": DDPStrategy(accelerator=CPUAccelerator()), "devices": 2}, (CPU, "DDPStrategy", None, P32, LE, cpus(2), 1)),
    row("DDPStrategy with cuda devices implies gpu", {"strategy": DDPStrategy(parallel_devices=[torch.device("cuda", 0), torch.device("cuda", 1)])}, (CUDA, "DDPStrategy", None, P32, LE, gpus(0, 1), 1), cuda=2),
    row("DDPStrategy with cuda devices and accelerator=gpu", {"strategy": DDPStrategy(parallel_devices=[torch.device("cuda", 1)]), "accelerator": "gpu"}, (CUDA, "DDPStrategy", None, P32, LE, gpus(1), 1), cuda=2),
    row("DDPStrategy with cpu devices", {"strategy": DDPStrategy(parallel_devices=[torch.device("cpu")] * 3)}, (CPU, "DDPStrategy", None, P32, LE, cpus(3), 1)),
    row("DDPStrategy with its own precision plugin", {"strategy": DDPStrategy(precision_plugin=DoublePrecisionPlugin()), "devices": 2}, (CPU, "DDPStrategy", None, P64, LE, cpus(2), 1)),
    row("DDPSpawnStrategy instance", {"strategy": DDPSpawnStrategy(), "devices": 2}, (CPU, "DDPSpawnStrategy", None, P32, LE, cpus(2), 1)),
    row("DDPSpawnStrategy fork instance", {"strategy": DDPSpawnStrategy(start_method="fork"), "devices": 2}, (CPU, "DDPSpawnStrategy", None, P32, LE, cpus(2), 1), interactive=True),
    row("DDPSpawnStrategy instance untouched under torchelastic", {"strategy": DDPSpawnStrategy(), "devices": 2}, (CPU, "DDPSpawnStrategy", None, P32, TE, cpus(2), 1), cluster="torchelastic"),
    row("SingleDeviceStrategy instance on cuda:1", {"strategy": SingleDeviceStrategy(device=torch.device("cuda", 1)), "accelerator": "gpu"}, (CUDA, "SingleDeviceStrategy", None, P32, LE, gpus(1), 1), cuda=2),
    row("SingleDeviceStrategy instance default cpu", {"strategy": SingleDeviceStrategy()}, (CPU, "SingleDeviceStrategy", None, P32, LE, cpus(1), 1)),
    row("DataParallelStrategy instance on gpus", {"strategy": DataParallelStrategy(), "accelerator": "gpu", "devices": 2}, (CUDA, "DataParallelStrategy", None, P32, LE, gpus(0, 1), 1), cuda=2),
    row("DeepSpeedStrategy stage 3 instance", {"strategy": DeepSpeedStrategy(stage=3), "accelerator": "gpu", "devices": 2, "precision": 16}, (CUDA, "DeepSpeedStrategy", None, "DeepSpeedPrecisionPlugin", LE, gpus(0, 1), 1), cuda=2, packages=ALL_DS),
    row("DDPShardedStrategy instance + 16", {"strategy": DDPShardedStrategy(), "accelerator": "gpu", "devices": 2, "precision": 16}, (CUDA, "DDPShardedStrategy", None, "ShardedMixedPrecisionPlugin", LE, gpus(0, 1), 1), cuda=2),
    row("precision plugin instance", {"plugins": [DoublePrecisionPlugin()]}, (CPU, "SingleDeviceStrategy", "single_device", P64, LE, cpus(1), 1)),
    row("precision plugin agreeing with the flag", {"precision": "bf16", "plugins": [MixedPrecisionPlugin("bf16", "cpu")]}, (CPU, "SingleDeviceStrategy", "single_device", AMP, LE, cpus(1), 1)),
    row("a single plugin, not in a list", {"plugins": DoublePrecisionPlugin()}, (CPU, "SingleDeviceStrategy", "single_device", P64, LE, cpus(1), 1)),
    row("checkpoint io plugin", {"plugins": [TorchCheckpointIO()]}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
    row("explicit LightningEnvironment beats detection", {"devices": 2, "plugins": [LightningEnvironment()]}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(2), 1), cluster="kubeflow"),
    row("explicit SLURMEnvironment", {"devices": 2, "num_nodes": 2, "plugins": [SLURMEnvironment()]}, (CPU, "DDPStrategy", "ddp", P32, SLURM, cpus(2), 2), cluster="slurm"),
    row("explicit TorchElasticEnvironment", {"accelerator": "gpu", "devices": 2, "plugins": [TorchElasticEnvironment()]}, (CUDA, "DDPStrategy", "ddp", P32, TE, gpus(0, 1), 1), cuda=2, cluster="torchelastic"),
    row("env, io and precision plugins together", {"devices": 2, "plugins": [LightningEnvironment(), TorchCheckpointIO(), DoublePrecisionPlugin()]}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P64, LE, cpus(2), 1)),
    row("NativeSyncBatchNorm plugin with sync_batchnorm", {"strategy": "ddp", "devices": 2, "sync_batchnorm": True, "plugins": [NativeSyncBatchNorm()]}, (CPU, "DDPStrategy", "ddp", P32, LE, cpus(2), 1)),
    row("NativeSyncBatchNorm plugin alone", {"strategy": "ddp", "devices": 2, "plugins": [NativeSyncBatchNorm()]}, (CPU, "DDPStrategy", "ddp", P32, LE, cpus(2), 1)),
    # -- spellings ----------------------------------------------------------------------------------------------
    row("strategy with spaces", {"strategy": " ddp_spawn ", "devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(2), 1)),
    row("strategy mixed case", {"strategy": "DDP_Sharded", "devices": 2}, (CPU, "DDPShardedStrategy", "ddp_sharded", P32, LE, cpus(2), 1)),
    row("accelerator GPU upper case", {"accelerator": "GPU", "devices": 1}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(0), 1), cuda=1),
    row("accelerator AUTO", {"accelerator": "AUTO"}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(0), 1), cuda=1),
    row("precision ' BF16 '", {"precision": " BF16 "}, (CPU, "SingleDeviceStrategy", "single_device", AMP, LE, cpus(1), 1)),
    row("devices ' 2 '", {"devices": " 2 "}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(2), 1)),
    # -- more machine shapes ---------------------------------------------------------------------------------------
    row("8 gpus, devices=8", {"accelerator": "gpu", "devices": 8}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(*range(8)), 1), cuda=8),
    row("8 gpus, devices='4,5,6,7'", {"accelerator": "gpu", "devices": "4,5,6,7"}, (CUDA, "DDPSpawnStrategy", "ddp_spawn", P32, LE, gpus(4, 5, 6, 7), 1), cuda=8),
    row("gpu box with mps too, gpu chooses cuda", {"accelerator": "gpu", "devices": 1}, (CUDA, "SingleDeviceStrategy", "single_device", P32, LE, gpus(0), 1), cuda=1, mps=True),
    row("cpu flag on a tpu box", {"accelerator": "cpu", "devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(2), 1), tpu=8, packages={"torch_xla"}),
    row("auto with strategy single_tpu takes one core", {"accelerator": "auto", "strategy": "single_tpu"}, (TPU, "SingleTPUStrategy", "single_tpu", "TPUPrecisionPlugin", LE, xla(0), 1), tpu=8, packages={"torch_xla"}),
    row("no fork available: default ddp_spawn", {"devices": 2}, (CPU, "DDPSpawnStrategy", "ddp_spawn", P32, LE, cpus(2), 1), fork=False),
    row("kubeflow with gpus", {"accelerator": "gpu", "devices": 4}, (CUDA, "DDPStrategy", "ddp", P32, KF, gpus(0, 1, 2, 3), 1), cuda=4, cluster="kubeflow"),
    row("lsf num_nodes=2", {"devices": 2, "num_nodes": 2}, (CPU, "DDPStrategy", "ddp", P32, LSF, cpus(2), 2), cluster="lsf"),
    row("slurm ddp_sharded_spawn -> ddp_sharded", {"strategy": "ddp_sharded_spawn", "devices": 2, "num_nodes": 2}, (CPU, "DDPShardedStrategy", "ddp_sharded", P32, SLURM, cpus(2), 2), cluster="slurm", warns="ddp_sharded_spawn"),
    # -- misc flags ------------------------------------------------------------------------------------------
    row("sync_batchnorm with ddp", {"strategy": "ddp", "devices": 2, "sync_batchnorm": True}, (CPU, "DDPStrategy", "ddp", P32, LE, cpus(2), 1)),
    row("benchmark False", {"benchmark": False}, (CPU, "SingleDeviceStrategy", "single_device", P32, LE, cpus(1), 1)),
]
# fmt: on


def _names(connector: AcceleratorConnector) -> tuple[Any, ...]:
    strategy = connector.strategy
    return (
        type(connector.accelerator).__name__,
        type(strategy).__name__,
        strategy.registered_name,
        type(connector.precision_plugin).__name__,
        type(connector.cluster_environment).__name__,
        [str(d) for d in connector.parallel_devices],
        connector.num_nodes,
    )


@pytest.mark.parametrize(("flags", "hw", "expected", "warns"), ROWS)
def test_selection(
    machine: Any, flags: dict[str, Any], hw: dict[str, Any], expected: tuple[Any, ...], warns: str | None
) -> None:
    machine(**hw)
    if warns is None:
        connector = AcceleratorConnector(**flags)
    else:
        with pytest.warns(FallbackWarning, match=warns):
            connector = AcceleratorConnector(**flags)
    assert _names(connector) == expected
