"""The case matrix, sections 10-13: several processes: ``num_nodes=``, ``sync_batchnorm=``, clusters, notebooks.

Standard library only. Importing this module adds its cases (``case_model.add``) after those of the sections before
it, which it imports first; ``cases.all_cases()`` returns them in that order, the recording order.
"""

from __future__ import annotations

import cases_precision  # noqa: F401  (the sections before these: importing it adds their cases first)
from case_machines import CPU, CUDA4, IPU, TPU, horovodrun, hw, kubeflow, lightning_env, lsf, slurm, torchelastic
from case_model import add, obj

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
