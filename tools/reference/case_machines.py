"""The machine and the job a case runs on: faked hardware availability and cluster environment variables.

Standard library only: ``extra_cases.py`` reads ``hw()``'s defaults from here, and the case matrix
(``cases_*.py``) names its machines (``CPU``, ``CUDA4``, ``TPU``, ...) and clusters (``slurm(2)``, ...) with it.
"""

from __future__ import annotations

from typing import Any

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
