"""Child of bench_runner.py, run by the Fabric venv (make_fabric_venv.sh): the same loops under Lightning Fabric.

Reads a JSON request from argv[1] and prints its results as JSON on the last line of stdout:

- ``single``: one workload, bench_runner's hand-written loop and the Fabric loop alternating epoch
  by epoch in this process; and Fabric's setup time;
- ``ddp``: one ``Fabric(devices=2, strategy="ddp_fork"/"ddp_spawn").launch``: rank 0's epoch times
  and timestamps (``time.perf_counter``, the same monotonic clock as the parent's);
- ``ddp_paired``: one such launch whose workers alternate the Fabric loop with a hand-written DDP
  loop on Fabric's process group, epoch by epoch.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from lightning.fabric import Fabric
from torch.utils.data import DataLoader

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_runner import CPU, Epoch, Workload, _report, alternate, epoch_torch, torch_ddp_setup


def epoch_fabric(fabric: Fabric, model: Any, optimizer: Any, loader: DataLoader[Any]) -> Epoch:
    """The loop as Fabric's docs write it (its loader moves batches, its module autocasts)."""
    start = time.perf_counter()
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        fabric.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    return Epoch(time.perf_counter() - start, loss.item())


def fabric_setup(fabric: Fabric, work: Workload) -> tuple[Any, Any, DataLoader[Any]]:
    model = work.model()
    model, optimizer = fabric.setup(model, work.optimizer(model))
    return model, optimizer, fabric.setup_dataloaders(work.loader(fabric.world_size))


def setup_fabric(work: Workload) -> float:
    start = time.perf_counter()
    fabric_setup(Fabric(accelerator="cpu", devices=1), work)
    return time.perf_counter() - start


def single(work: Workload, rounds: int) -> dict[str, Any]:
    model = work.model().to(CPU)
    optimizer, loader = work.optimizer(model), work.loader()
    fabric = Fabric(accelerator="cpu", devices=1)
    fabric_model, fabric_optimizer, fabric_loader = fabric_setup(fabric, work)
    out = alternate(
        {
            "torch": lambda: epoch_torch(model, optimizer, loader, CPU),
            "fabric": lambda: epoch_fabric(fabric, fabric_model, fabric_optimizer, fabric_loader),
        },
        rounds,
    )
    return {**out, "setup": [setup_fabric(work) for _ in range(rounds)]}


def workloads_from(raw: list[dict[str, Any]]) -> list[Workload]:
    # Plain dicts travel to Fabric's workers: its spawn launcher refuses frozen dataclasses in `args`.
    return [Workload(**{**w, "input_shape": tuple(w["input_shape"])}) for w in raw]


def ddp_worker(fabric: Fabric, raw: list[dict[str, Any]], repeat: int, threads: int) -> dict[str, Any]:
    torch.set_num_threads(threads)
    out: dict[str, Any] = {}
    for work in workloads_from(raw):
        model, optimizer, loader = fabric_setup(fabric, work)
        ready = time.perf_counter()
        fabric.barrier()
        out[work.name] = _report(ready, [epoch_fabric(fabric, model, optimizer, loader) for _ in range(repeat + 1)])
    out["done"] = time.perf_counter()
    return out


def ddp_paired_worker(fabric: Fabric, raw: list[dict[str, Any]], rounds: int, threads: int) -> dict[str, Any]:
    torch.set_num_threads(threads)
    out: dict[str, Any] = {}
    for work in workloads_from(raw):
        model, optimizer, loader = fabric_setup(fabric, work)
        by_hand = torch_ddp_setup(work, fabric.global_rank, fabric.world_size)
        epochs = {
            "torch": lambda by_hand=by_hand: epoch_torch(*by_hand, CPU),
            "fabric": lambda model=model, optimizer=optimizer, loader=loader: epoch_fabric(
                fabric, model, optimizer, loader
            ),
        }
        out[work.name] = alternate(epochs, rounds)
    return out


def main() -> None:
    request = json.loads(sys.argv[1])
    torch.set_num_threads(request["threads"])
    warnings.simplefilter("ignore")  # Fabric's hints (e.g. about num_workers) would only clutter stderr
    if request["section"] == "single":
        print(json.dumps(single(workloads_from([request["workload"]])[0], request["rounds"])))
        return
    workloads = request["workloads"]
    strategy = f"ddp_{request['start_method']}"
    t0 = time.perf_counter()
    fabric = Fabric(accelerator="cpu", devices=2, strategy=strategy)
    if request["section"] == "ddp":
        result = fabric.launch(ddp_worker, workloads, request["repeat"], request["threads"])
        print(json.dumps({"t0": t0, "result": result, "returned": time.perf_counter()}))
    else:
        print(json.dumps(fabric.launch(ddp_paired_worker, workloads, request["ddp_rounds"], request["threads"])))


if __name__ == "__main__":
    main()
