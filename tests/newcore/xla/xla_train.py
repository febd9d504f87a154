"""Real torch-xla runs on the XLA CPU device (``PJRT_DEVICE=CPU``); run with the XLA venv's python.

Two runs through the strategy API (the connector would refuse them: an XLA CPU device is not a TPU,
and faking one would hide what this checks): ``SingleTPUStrategy`` in this process, then
``TPUSpawnStrategy(debug=True)`` launched through ``_XLASpawnLauncher`` with one process, which is
all torch-xla's spawn supports on the CPU. Writes ``report.json`` into the folder given as argument.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import torch

STEPS = 4
LR = 0.1
SEED = 0


def make_model() -> torch.nn.Module:
    torch.manual_seed(SEED)
    return torch.nn.Linear(4, 1)


def batch() -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(8, 4, generator=generator)
    return x, x.sum(dim=1, keepdim=True)


def weights(model: torch.nn.Module) -> list[float]:
    return [float(v) for p in model.parameters() for v in p.detach().cpu().flatten()]


def train(strategy: Any, checkpoint: Path) -> dict[str, Any]:
    """What a Runner does in each process: set up, train, save, use the collectives, tear down."""
    strategy.setup_environment()
    try:
        debug_during = os.environ.get("PT_XLA_DEBUG")
        model = strategy.setup_module(make_model())
        optimizer = strategy.setup_optimizer(torch.optim.SGD(model.parameters(), lr=LR))
        x, y = (t.to(strategy.root_device) for t in batch())
        losses = []
        for _ in range(STEPS):
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            strategy.backward(loss, model)
            strategy.optimizer_step(optimizer)
            losses.append(loss.item())
        strategy.save_checkpoint({"model": strategy.module_state(model)}, checkpoint)
        loaded = strategy.load_checkpoint(checkpoint)["model"]
        report: dict[str, Any] = {
            "root_device": str(strategy.root_device),
            "param_device": str(next(model.parameters()).device),
            "ranks": [strategy.global_rank, strategy.local_rank, strategy.world_size],
            "losses": losses,
            "final": weights(model),
            "loaded": [float(v) for t in loaded.values() for v in t.flatten()],
            "loaded_devices": sorted({str(t.device) for t in loaded.values()}),
            "sum": strategy.all_reduce(torch.tensor([2.0], device=strategy.root_device)).tolist(),
            "mean": strategy.all_reduce(torch.tensor([2.0]), "mean").tolist(),
            "gather": strategy.all_gather(torch.tensor([1.0, 2.0])).tolist(),
            "broadcast": strategy.broadcast({"a": [1, 2]}, src=0),
            "decision": strategy.reduce_boolean_decision(True),
            "debug_during": debug_during,
            # An XLA tensor in the result: the launcher must bring it back on the CPU.
            "weight": model.weight.detach(),
        }
        strategy.barrier("report")
    finally:
        strategy.teardown()
    report["param_device_after_teardown"] = str(next(model.parameters()).device)
    report["debug_after_teardown"] = os.environ.get("PT_XLA_DEBUG")
    return report


def main(out: Path) -> None:
    from newcore.accelerators import TPUAccelerator
    from newcore.plugins.environments import LightningEnvironment
    from newcore.plugins.io import XLACheckpointIO
    from newcore.plugins.precision import TPUPrecisionPlugin
    from newcore.strategies import SingleTPUStrategy, TPUSpawnStrategy

    single = SingleTPUStrategy(0, accelerator=TPUAccelerator(), precision_plugin=TPUPrecisionPlugin(), debug=True)
    single.check_setup()
    assert isinstance(single.checkpoint_io, XLACheckpointIO)
    report_single = train(single, out / "single.ckpt")
    report_single["weight"] = report_single["weight"].cpu().tolist()

    spawn = TPUSpawnStrategy(
        accelerator=TPUAccelerator(),
        parallel_devices=[torch.device("xla", 0)],
        precision_plugin=TPUPrecisionPlugin(),
        debug=True,
    )
    spawn.cluster_environment = LightningEnvironment()
    spawn.set_world_ranks()
    spawn._configure_launcher()
    spawn.check_setup()
    assert spawn.launcher is not None
    report_spawn = spawn.launcher.launch(train, spawn, out / "spawn.ckpt")
    report_spawn["weight_device"] = str(report_spawn["weight"].device)
    report_spawn["weight"] = report_spawn["weight"].tolist()
    report_spawn["debug_in_parent_after_launch"] = os.environ.get("PT_XLA_DEBUG")
    report_spawn["launcher"] = type(spawn.launcher).__name__

    import torch_xla

    versions = {"torch": torch.__version__, "torch_xla": torch_xla.__version__}
    (out / "report.json").write_text(json.dumps({"single": report_single, "spawn": report_spawn, **versions}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
