"""The case matrix, sections 4-8: choosing the strategy (by name, instance, ``plugins=``, twice).

Standard library only. Importing this module adds its cases (``case_model.add``) after those of the sections before
it, which it imports first; ``cases.all_cases()`` returns them in that order, the recording order.
"""

from __future__ import annotations

import cases_devices  # noqa: F401  (the sections before these: importing it adds their cases first)
from case_machines import CPU, CUDA4, HPU, IPU, TPU, hw
from case_model import add, dev, obj

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
