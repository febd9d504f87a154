"""Runtime overhead of ``newcore.Runner``: one training loop by hand in torch, through the Runner, and under Fabric.

    python benchmarks/bench_runner.py [--rounds 24] [--ddp-rounds 12] [--launches 4] [--start-method fork] [--no-fabric]

Every subject runs the same epochs of the same loop (fixed seeds, synthetic data, SGD with momentum);
the first epoch of each is untimed and its last loss must agree between the subjects, bit for bit.

(a) one process on the CPU: a hand-written torch loop vs ``Runner(strategy="single_device")``;
(b) two processes, DDP on Gloo: hand-written ``torch.multiprocessing`` + ``init_process_group`` +
    ``DistributedDataParallel`` vs ``Runner(strategy="ddp_fork"/"ddp_spawn", devices=2)``, each
    launched on its own; epochs are timed inside the workers, after setup, and process start +
    setup and teardown + exit are reported apart. Launches of different subjects never share a
    moment of the machine, and on a shared machine their epochs vary by +-8% from launch to launch,
    so the loops also run in the *same* worker processes, epoch for epoch: the Runner's loop and a
    hand-written DDP loop on the Runner's process group. The 3% target is judged on those;
(c) Lightning Fabric 2.x on the same loops (single device, ``ddp_fork``/``ddp_spawn``), run by
    ``_fabric_child.py`` in the venv that ``benchmarks/make_fabric_venv.sh`` makes (the same torch);
(d) on a CUDA machine only: ``torch.cuda.memory_reserved()`` before setup, after training and after
    ``runner.teardown()``.

Subjects alternate epoch by epoch (launch by launch in (b)), in A B, B A order, and each ratio is
also given *paired*: the median over rounds of subject / baseline within a round, which cancels the
load that other processes put on a shared machine. Each process uses ``--threads`` intra-op threads (default 1:
two DDP workers on a 2-core machine must not oversubscribe it).
Targets: the Runner within 3% of hand-written torch, and faster than Fabric.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import torch
import torch.distributed as dist
import torch.multiprocessing as torch_mp
import torch.nn.functional as F
from _table import Result, interleaved, print_table
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FABRIC_CHILD = Path(__file__).with_name("_fabric_child.py")
FABRIC_PYTHON = Path.home() / ".cache" / "lightning-migrate" / "fabric-venv" / "bin" / "python"
OVERHEAD = "the Runner within 3% of hand-written torch"
FASTER = "the Runner faster than Fabric"
CPU = torch.device("cpu")

if TYPE_CHECKING:
    from newcore import Runner


# -- the work: models, data, and the loop spelled for each subject ---------------------------------


@dataclass(frozen=True)
class Workload:
    """A model, its synthetic data set and batch size; one epoch is ``steps`` steps on every process."""

    name: str
    input_shape: tuple[int, ...]
    batch_size: int
    steps: int

    def model(self) -> nn.Module:
        torch.manual_seed(0)
        if self.name == "mlp":
            width = self.input_shape[0]
            return nn.Sequential(
                nn.Linear(width, 2 * width),
                nn.ReLU(),
                nn.Linear(2 * width, 2 * width),
                nn.ReLU(),
                nn.Linear(2 * width, 10),
            )
        channels, height, _ = self.input_shape
        return nn.Sequential(
            nn.Conv2d(channels, 16, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(32 * (height // 4) ** 2, 10),
        )

    def optimizer(self, model: nn.Module) -> torch.optim.Optimizer:
        return torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def dataset(self, world_size: int = 1) -> TensorDataset:
        generator = torch.Generator().manual_seed(1)
        size = self.steps * self.batch_size * world_size
        inputs = torch.randn(size, *self.input_shape, generator=generator)
        return TensorDataset(inputs, torch.randint(0, 10, (size,), generator=generator))

    def loader(self, world_size: int = 1) -> DataLoader[Any]:
        """A shuffling loader, as users write it (the Runner and Fabric give it a ``DistributedSampler``)."""
        generator = torch.Generator().manual_seed(2)
        return DataLoader(self.dataset(world_size), batch_size=self.batch_size, shuffle=True, generator=generator)

    def describe(self) -> str:
        shape = "x".join(map(str, self.input_shape))
        return f"{self.name} (input {shape}, batch {self.batch_size}, {self.steps} steps/epoch)"


WORKLOADS = (
    Workload("mlp", (128,), batch_size=32, steps=200),
    Workload("conv", (3, 32, 32), batch_size=32, steps=60),
)


class Epoch(NamedTuple):
    """One epoch: its wall time and its last loss."""

    seconds: float
    loss: float


def epoch_torch(
    model: nn.Module, optimizer: torch.optim.Optimizer, loader: DataLoader[Any], device: torch.device
) -> Epoch:
    """One epoch of the hand-written loop."""
    start = time.perf_counter()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return Epoch(time.perf_counter() - start, loss.item())


def epoch_runner(runner: Runner, model: nn.Module, optimizer: Any, loader: DataLoader[Any]) -> Epoch:
    """The same epoch written for the Runner, as its docstring shows."""
    start = time.perf_counter()
    for batch in loader:
        x, y = runner.to_device(batch)
        with runner.autocast():
            loss = F.cross_entropy(model(x), y)
        runner.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    return Epoch(time.perf_counter() - start, loss.item())


def torch_ddp_setup(
    work: Workload, rank: int, world_size: int, find_unused_parameters: bool = False
) -> tuple[nn.Module, torch.optim.Optimizer, DataLoader[Any]]:
    """Model, optimizer and loader for hand-written DDP (the default process group must exist)."""
    model = DistributedDataParallel(work.model(), find_unused_parameters=find_unused_parameters)
    dataset = work.dataset(world_size)
    sampler: DistributedSampler[Any] = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)
    return model, work.optimizer(model), DataLoader(dataset, batch_size=work.batch_size, sampler=sampler)


def abba(subjects: dict[str, Callable[[], tuple[float, ...]]], rounds: int) -> dict[str, list[float]]:
    """``interleaved``, one round at a time, in reverse order every other round: A B, B A, A B, ...

    Whoever goes second in a round runs on caches and a clock the first one left; reversing the
    order spreads that over both, and the samples of round ``i`` still sit at index ``i``.
    """
    samples: dict[str, list[float]] = {name: [] for name in subjects}
    for i in range(rounds):
        order = list(subjects) if i % 2 == 0 else list(reversed(subjects))
        for result in interleaved({name: subjects[name] for name in order}, 1):
            samples[result.name].extend(result.samples)
    return samples


def alternate(epochs: dict[str, Callable[[], Epoch]], rounds: int) -> dict[str, Any]:
    """One untimed epoch of each subject (its loss is kept), then ``rounds`` rounds of one epoch each."""
    losses = {name: run().loss for name, run in epochs.items()}
    samples = abba({name: (lambda run=run: (run().seconds,)) for name, run in epochs.items()}, rounds)
    return {"samples": samples, "loss": losses}


# -- reporting ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ratio:
    """A ratio of timings, and the target it is held to, if any."""

    what: str
    value: float
    target: str | None = None

    def __str__(self) -> str:
        if self.target is None:
            return f"{self.what} = {self.value:.3f}"
        met = self.value <= 1.03 if self.target is OVERHEAD else self.value < 1.0
        return f"{self.what} = {self.value:.3f}: {'meets' if met else 'MISSES'} {self.target}"


def paired(subject: Sequence[float], baseline: Sequence[float]) -> float:
    """Median over rounds of subject / baseline measured in the same round."""
    return statistics.median(s / b for s, b in zip(subject, baseline, strict=True))


def print_paired(rows: list[tuple[str, Sequence[float], Sequence[float]]]) -> None:
    print()
    for what, subject, baseline in rows:
        print(f"- paired, {what}: {paired(subject, baseline):.3f} (median over {len(subject)} rounds)")


def check_same_work(name: str, losses: dict[str, float], baseline: str, runner: str) -> None:
    """The subjects must train alike: the same loss at the end of the first epoch, bit for bit."""
    text = ", ".join(f"{subject} {loss:.6f}" for subject, loss in losses.items())
    same = len(set(losses.values())) == 1
    print(f"- last loss of the first epoch: {text} ({'identical' if same else 'DIFFERENT'})")
    if losses[runner] != losses[baseline]:
        raise SystemExit(f"{name}: the Runner trained differently from the hand-written loop")


def fabric_child(fabric_python: Path, request: dict[str, Any]) -> dict[str, Any]:
    """Run ``_fabric_child.py`` in the Fabric venv; it prints its results as JSON on its last line."""
    done = subprocess.run(
        [str(fabric_python), str(FABRIC_CHILD), json.dumps(request)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": ""},
    )
    if done.returncode != 0:
        raise SystemExit(f"Fabric child failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# -- (a) one process ---------------------------------------------------------------------------------


def setup_torch(work: Workload) -> float:
    start = time.perf_counter()
    model = work.model().to(CPU)
    work.optimizer(model)
    work.loader()
    return time.perf_counter() - start


def setup_runner(work: Workload) -> float:
    from newcore import Runner

    start = time.perf_counter()
    runner = Runner(accelerator="cpu", strategy="single_device")
    model = work.model()
    runner.setup(model, work.optimizer(model))
    runner.setup_dataloaders(work.loader())
    elapsed = time.perf_counter() - start
    runner.teardown()
    return elapsed


def section_single(args: argparse.Namespace, fabric_python: Path | None) -> list[Ratio]:
    print("\n## (a) one process, CPU")
    return [ratio for work in WORKLOADS for ratio in single_workload(work, args, fabric_python)]


def single_workload(work: Workload, args: argparse.Namespace, fabric_python: Path | None) -> list[Ratio]:
    from newcore import Runner

    model = work.model().to(CPU)
    optimizer, loader = work.optimizer(model), work.loader()
    with Runner(accelerator="cpu", strategy="single_device") as runner:
        runner_model = work.model()
        runner_model, runner_optimizer = runner.setup(runner_model, work.optimizer(runner_model))
        runner_loader = runner.setup_dataloaders(work.loader())
        out = alternate(
            {
                "torch": lambda: epoch_torch(model, optimizer, loader, CPU),
                "runner": lambda: epoch_runner(runner, runner_model, runner_optimizer, runner_loader),
            },
            args.rounds,
        )
    setup_samples = abba(
        {"torch": lambda: (setup_torch(work),), "runner single_device": lambda: (setup_runner(work),)}, args.rounds
    )
    setups = [Result(name, tuple(values)) for name, values in setup_samples.items()]
    samples, losses = out["samples"], out["loss"]
    rows = [
        Result("torch (by hand)", tuple(samples["torch"])),
        Result("runner single_device", tuple(samples["runner"])),
    ]
    pairs = [("runner / torch", samples["runner"], samples["torch"])]
    if fabric_python is not None:
        child = fabric_child(fabric_python, {"section": "single", "workload": asdict(work), **_child_args(args)})
        rows.append(Result("torch (by hand), Fabric venv", tuple(child["samples"]["torch"])))
        rows.append(Result("fabric single device", tuple(child["samples"]["fabric"])))
        pairs.append(("fabric / torch in the Fabric venv", child["samples"]["fabric"], child["samples"]["torch"]))
        setups.append(Result("fabric single device", tuple(child["setup"])))
        losses["fabric"] = child["loss"]["fabric"]
    print_table(f"{work.describe()}: one epoch", rows, "torch (by hand)")
    print_paired(pairs)
    check_same_work(work.name, losses, "torch", "runner")
    print_table(f"{work.name}: setup (model, optimizer, loader; Runner or Fabric made)", setups, "torch", "µs", 1e6)
    overhead = paired(*pairs[0][1:])
    ratios = [Ratio(f"one process, {work.name}: runner / torch (paired)", overhead, OVERHEAD)]
    if len(pairs) > 1:
        versus = overhead / paired(*pairs[1][1:])
        ratios.append(Ratio(f"one process, {work.name}: runner / fabric (each paired with its torch)", versus, FASTER))
    return ratios


def _child_args(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "rounds": args.rounds,
        "ddp_rounds": args.ddp_rounds,
        "repeat": args.repeat,
        "threads": args.threads,
        "start_method": args.start_method,
    }


# -- (b) two processes, DDP on Gloo -----------------------------------------------------------------


def _report(ready: float, epochs: list[Epoch]) -> dict[str, Any]:
    """What a DDP worker sends home for one workload; its first epoch is a warm-up that only gives the loss."""
    return {"ready": ready, "seconds": [e.seconds for e in epochs[1:]], "loss": epochs[0].loss}


def ddp_runner_worker(runner: Runner, workloads: Sequence[Workload], repeat: int, threads: int) -> dict[str, Any]:
    """In each worker: per workload, set up through the Runner, then a warm-up and ``repeat`` timed epochs."""
    torch.set_num_threads(threads)
    out: dict[str, Any] = {}
    for work in workloads:
        model = work.model()
        model, optimizer = runner.setup(model, work.optimizer(model))
        loader = runner.setup_dataloaders(work.loader(runner.world_size))
        ready = time.perf_counter()
        runner.barrier()
        out[work.name] = _report(ready, [epoch_runner(runner, model, optimizer, loader) for _ in range(repeat + 1)])
    out["done"] = time.perf_counter()
    return out


def ddp_torch_worker(
    rank: int,
    world_size: int,
    port: int,
    workloads: Sequence[Workload],
    repeat: int,
    threads: int,
    find_unused_parameters: bool,
    results: Any,
) -> None:
    """The hand-written DDP worker: the same loop, with process group, wrapper and sampler set up by hand."""
    torch.set_num_threads(threads)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world_size)
    out = {work.name: _torch_ddp_epochs(work, rank, world_size, repeat, find_unused_parameters) for work in workloads}
    out["done"] = time.perf_counter()
    # DistributedDataParallel sits in reference cycles: collect it while its group still exists. Freed
    # after destroy_process_group, its reducer drops the last reference to the Gloo group, whose
    # destructor joins Gloo's threads while holding the GIL; this benchmark hung there once.
    gc.collect()
    dist.destroy_process_group()
    if rank == 0:
        results.put(out)


def _torch_ddp_epochs(work: Workload, rank: int, world_size: int, repeat: int, find_unused: bool) -> dict[str, Any]:
    model, optimizer, loader = torch_ddp_setup(work, rank, world_size, find_unused)
    ready = time.perf_counter()
    dist.barrier()
    return _report(ready, [epoch_torch(model, optimizer, loader, CPU) for _ in range(repeat + 1)])


def ddp_paired_worker(runner: Runner, workloads: Sequence[Workload], rounds: int, threads: int) -> dict[str, Any]:
    """In each worker: the Runner's loop and a hand-written DDP loop on the same process group, epoch for epoch."""
    torch.set_num_threads(threads)
    out: dict[str, Any] = {}
    for work in workloads:
        model = work.model()
        model, optimizer = runner.setup(model, work.optimizer(model))
        loader = runner.setup_dataloaders(work.loader(runner.world_size))
        by_hand = torch_ddp_setup(work, runner.global_rank, runner.world_size)
        epochs = {
            "torch": lambda by_hand=by_hand: epoch_torch(*by_hand, CPU),
            "runner": lambda model=model, optimizer=optimizer, loader=loader: epoch_runner(
                runner, model, optimizer, loader
            ),
        }
        out[work.name] = alternate(epochs, rounds)
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Launches:
    """What one DDP subject's launches measured on rank 0, launch after launch."""

    seconds: dict[str, list[list[float]]] = field(default_factory=dict)  # workload -> per launch
    start: list[float] = field(default_factory=list)  # launch called -> first model set up
    finish: list[float] = field(default_factory=list)  # last epoch done -> launch returned
    loss: dict[str, float] = field(default_factory=dict)

    def add(self, t0: float, out: dict[str, Any], returned: float) -> tuple[float, ...]:
        self.start.append(out[WORKLOADS[0].name]["ready"] - t0)
        self.finish.append(returned - out["done"])
        for work in WORKLOADS:
            self.seconds.setdefault(work.name, []).append(out[work.name]["seconds"])
            self.loss.setdefault(work.name, out[work.name]["loss"])
        return ()

    def epochs(self, workload: str) -> tuple[float, ...]:
        return tuple(s for launch in self.seconds[workload] for s in launch)

    def per_launch(self, workload: str) -> list[float]:
        return [statistics.median(launch) for launch in self.seconds[workload]]


def section_ddp(args: argparse.Namespace, fabric_python: Path | None) -> list[Ratio]:
    from newcore import Runner

    method = args.start_method
    spawn = "ddp_fork" if method == "fork" else "ddp_spawn"
    print(f"\n## (b) two processes, DDP on Gloo, {method}ed workers (rank 0's timings)")
    torch_name, torch_unused = "torch DDP (by hand)", "torch DDP (by hand), find_unused_parameters=True"
    runner_name, runner_default = f"runner {spawn}_find_unused_parameters_false", f"runner {spawn}"
    fabric_name = f"fabric ddp_{method}"
    measured = {name: Launches() for name in (torch_name, runner_name, fabric_name, torch_unused, runner_default)}
    if fabric_python is None:
        del measured[fabric_name]
    workloads = list(WORKLOADS)

    def launch_torch(name: str, find_unused: bool) -> tuple[float, ...]:
        results = torch_mp.get_context(method).SimpleQueue()
        t0 = time.perf_counter()
        worker_args = (2, _free_port(), workloads, args.repeat, args.threads, find_unused, results)
        torch_mp.start_processes(ddp_torch_worker, args=worker_args, nprocs=2, start_method=method)
        return measured[name].add(t0, results.get(), time.perf_counter())

    def launch_runner(name: str, strategy: str) -> tuple[float, ...]:
        t0 = time.perf_counter()
        runner = Runner(accelerator="cpu", strategy=strategy, devices=2)
        out = runner.launch(ddp_runner_worker, workloads, args.repeat, args.threads)
        return measured[name].add(t0, out, time.perf_counter())

    def launch_fabric() -> tuple[float, ...]:
        request = {"section": "ddp", "workloads": [asdict(w) for w in workloads], **_child_args(args)}
        out = fabric_child(fabric_python, request)  # type: ignore[arg-type]
        return measured[fabric_name].add(out["t0"], out["result"], out["returned"])

    subjects: dict[str, Callable[[], tuple[float, ...]]] = {
        torch_name: lambda: launch_torch(torch_name, False),
        runner_name: lambda: launch_runner(runner_name, f"{spawn}_find_unused_parameters_false"),
        fabric_name: launch_fabric,
        torch_unused: lambda: launch_torch(torch_unused, True),
        runner_default: lambda: launch_runner(runner_default, spawn),
    }
    abba({name: subjects[name] for name in measured}, args.launches)

    ratios: list[Ratio] = []
    for work in workloads:
        rows = [Result(name, launches.epochs(work.name)) for name, launches in measured.items()]
        print_table(f"each subject launched on its own, {work.describe()}: one epoch", rows, torch_name)
        pairs = [
            (f"{name} / {torch_unused if name == runner_default else torch_name}", name, base)
            for name, base in ((runner_name, torch_name), (fabric_name, torch_name), (runner_default, torch_unused))
            if name in measured
        ]
        print_paired(
            [(what, measured[a].per_launch(work.name), measured[b].per_launch(work.name)) for what, a, b in pairs]
        )
        check_same_work(
            f"DDP {work.name}", {n: m.loss[work.name] for n, m in measured.items()}, torch_name, runner_name
        )
        print(f"- {args.launches} launches per subject; epochs vary by several % from launch to launch here")
        overhead = paired(measured[runner_name].per_launch(work.name), measured[torch_name].per_launch(work.name))
        ratios.append(
            Ratio(
                f"DDP x2, separate launches, {work.name}: runner / torch (paired; not held to the target)",
                overhead,
            )
        )
    starts = [Result(name, tuple(launches.start)) for name, launches in measured.items()]
    print_table("launch called -> first model set up on rank 0 (processes, process group, setup)", starts, torch_name)
    finishes = [Result(name, tuple(launches.finish)) for name, launches in measured.items()]
    print_table("last epoch done on rank 0 -> launch returned (teardown, process exit)", finishes, torch_name)

    print(f"\n### Same worker processes, epoch for epoch ({spawn}_find_unused_parameters_false; Fabric: {fabric_name})")
    runner = Runner(accelerator="cpu", strategy=f"{spawn}_find_unused_parameters_false", devices=2)
    ours = runner.launch(ddp_paired_worker, workloads, args.ddp_rounds, args.threads)
    theirs: dict[str, Any] = {}
    if fabric_python is not None:
        request = {"section": "ddp_paired", "workloads": [asdict(w) for w in workloads], **_child_args(args)}
        theirs = fabric_child(fabric_python, request)
    for work in workloads:
        samples = ours[work.name]["samples"]
        rows = [Result("torch DDP (by hand)", tuple(samples["torch"])), Result(runner_name, tuple(samples["runner"]))]
        pairs = [("runner / torch", samples["runner"], samples["torch"])]
        losses = dict(ours[work.name]["loss"])
        if theirs:
            fabric = theirs[work.name]["samples"]
            rows.append(Result("torch DDP (by hand), Fabric's processes", tuple(fabric["torch"])))
            rows.append(Result(fabric_name, tuple(fabric["fabric"])))
            pairs.append(("fabric / torch in Fabric's processes", fabric["fabric"], fabric["torch"]))
            losses["fabric"] = theirs[work.name]["loss"]["fabric"]
        print_table(f"{work.describe()}: one epoch", rows, "torch DDP (by hand)")
        print_paired(pairs)
        check_same_work(f"DDP {work.name}", losses, "torch", "runner")
        overhead = paired(*pairs[0][1:])
        ratios.append(Ratio(f"DDP x2, same processes, {work.name}: runner / torch (paired)", overhead, OVERHEAD))
        if theirs:
            versus = overhead / paired(*pairs[1][1:])
            ratios.append(Ratio(f"DDP x2, {work.name}: runner / fabric (each paired with its torch)", versus, FASTER))
    return ratios


# -- (d) GPU memory --------------------------------------------------------------------------------


def section_gpu() -> None:
    print("\n## (d) GPU memory around the Runner")
    if not torch.cuda.is_available():
        print(f"\nSkipped: torch.cuda.is_available() is False (torch {torch.__version__}, no CUDA device here).")
        return
    from newcore import Runner

    mib = 2**20
    rows: list[tuple[str, int, int]] = []

    def snapshot(when: str) -> None:
        torch.cuda.synchronize()
        rows.append((when, torch.cuda.memory_reserved(), torch.cuda.memory_allocated()))

    work = WORKLOADS[1]
    snapshot("before setup")
    runner = Runner(accelerator="cuda", devices=1)
    model = work.model()
    model, optimizer = runner.setup(model, work.optimizer(model))
    loader = runner.setup_dataloaders(work.loader())
    epoch_runner(runner, model, optimizer, loader)
    snapshot("after one epoch (model, gradients, momentum on the GPU)")
    runner.teardown()
    snapshot("after runner.teardown(), the model and optimizer still held")
    print(f"\n{work.describe()} on {torch.cuda.get_device_name()}\n")
    print("| when | memory_reserved (MiB) | memory_allocated (MiB) |")
    print("|---|---:|---:|")
    for when, reserved, allocated in rows:
        print(f"| {when} | {reserved / mib:.1f} | {allocated / mib:.1f} |")
    back = "yes" if rows[-1][1:] == rows[0][1:] else "NO"
    print(f"\nBack to the baseline after teardown: {back}; the model is now on {next(model.parameters()).device}")


# -- main ------------------------------------------------------------------------------------------


def describe_machine(fabric_python: Path | None) -> None:
    cpuinfo = Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []
    cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo if "model name" in line), platform.processor())
    lightning = "no Fabric venv"
    if fabric_python is not None:
        probe = "import lightning, torch; print(lightning.__version__, torch.__version__)"
        versions = subprocess.run([str(fabric_python), "-c", probe], capture_output=True, text=True).stdout.split()
        lightning = "lightning {} on torch {} in the Fabric venv".format(*versions)
    load = ", load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
    print(
        f"Machine: {os.cpu_count()} CPUs ({cpu}){load}; Python {platform.python_version()}, torch {torch.__version__},"
        f" {lightning}; {torch.get_num_threads()} intra-op thread(s) per process"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=24, help="alternating epochs per subject in (a)")
    parser.add_argument(
        "--ddp-rounds", type=int, default=12, help="alternating epochs per subject in (b), same processes"
    )
    parser.add_argument("--launches", type=int, default=4, help="launches per subject in (b, separate launches)")
    parser.add_argument("--repeat", type=int, default=2, help="timed epochs per workload in each launch")
    parser.add_argument("--threads", type=int, default=1, help="torch intra-op threads in every process")
    parser.add_argument("--start-method", choices=("fork", "spawn"), default="fork", help="of the DDP workers")
    parser.add_argument("--sections", default="single,ddp,gpu", help="comma-separated: single, ddp, gpu")
    parser.add_argument("--fabric-python", type=Path, default=FABRIC_PYTHON, help="python of the Fabric venv")
    parser.add_argument("--no-fabric", action="store_true", help="leave Fabric out")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    fabric_python: Path | None = None if args.no_fabric else args.fabric_python
    if fabric_python is not None and not fabric_python.exists():
        print(f"Fabric left out: {fabric_python} is missing; run benchmarks/make_fabric_venv.sh first.")
        fabric_python = None
    describe_machine(fabric_python)
    sections = set(args.sections.split(","))
    ratios: list[Ratio] = []
    started = time.perf_counter()
    if "single" in sections:
        ratios += section_single(args, fabric_python)
    if "ddp" in sections:
        ratios += section_ddp(args, fabric_python)
    if "gpu" in sections:
        section_gpu()
    print("\n## Verdict\n")
    for ratio in ratios:
        print(f"- {ratio}")
    print(f"\n(total {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
