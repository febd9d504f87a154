"""Launchers: which one each strategy configures, and whether it can run in a notebook (#12008)."""

from __future__ import annotations

import pytest
import torch

from newcore.launchers import Launcher, _SpawnLauncher, _SubprocessScriptLauncher, _XLASpawnLauncher
from newcore.plugins.environments import LightningEnvironment, SLURMEnvironment
from newcore.strategies import DDPStrategy, ParallelStrategy, StrategyRegistry
from tests.conftest import Machine

CPU2 = [torch.device("cpu", 0), torch.device("cpu", 1)]
CUDA2 = [torch.device("cuda", 0), torch.device("cuda", 1)]
XLA8 = [torch.device("xla", i) for i in range(8)]


@pytest.mark.parametrize(
    ("name", "devices", "launcher", "interactive"),
    [
        pytest.param("single_device", None, None, None, id="single_device: no launcher"),
        pytest.param("dp", CUDA2, None, None, id="dp: no launcher"),
        pytest.param("horovod", CPU2, None, None, id="horovod: horovodrun launches"),
        pytest.param("ipu_strategy", None, None, None, id="ipu: no launcher"),
        pytest.param("ddp", CPU2, _SubprocessScriptLauncher, False, id="ddp re-runs the script"),
        pytest.param("ddp2", CUDA2, _SubprocessScriptLauncher, False, id="ddp2 re-runs the script"),
        pytest.param("ddp_sharded", CUDA2, _SubprocessScriptLauncher, False, id="ddp_sharded re-runs the script"),
        pytest.param("fsdp", CUDA2, _SubprocessScriptLauncher, False, id="fsdp re-runs the script"),
        pytest.param("deepspeed", CUDA2, _SubprocessScriptLauncher, False, id="deepspeed re-runs the script"),
        pytest.param("ddp_spawn", CPU2, _SpawnLauncher, False, id="ddp_spawn on cpu: spawn needs __main__"),
        pytest.param("ddp_sharded_spawn", CUDA2, _SpawnLauncher, False, id="ddp_sharded_spawn: spawn needs __main__"),
        pytest.param("ddp_fork", CPU2, _SpawnLauncher, True, id="ddp_fork on cpu works in notebooks"),
        pytest.param("ddp_notebook", CPU2, _SpawnLauncher, True, id="ddp_notebook on cpu works in notebooks"),
        pytest.param("ddp_fork", CUDA2, _SpawnLauncher, False, id="ddp_fork on cuda: forked CUDA breaks"),
        pytest.param("tpu_spawn", XLA8, _XLASpawnLauncher, True, id="tpu_spawn forks through XLA"),
    ],
)
def test_launcher_and_interactive_compatibility(
    name: str, devices: list[torch.device] | None, launcher: type[Launcher] | None, interactive: bool | None
) -> None:
    strategy = StrategyRegistry.get(name, parallel_devices=devices) if devices else StrategyRegistry.get(name)
    if isinstance(strategy, ParallelStrategy) and strategy.cluster_environment is None:
        strategy.cluster_environment = LightningEnvironment()
    strategy._configure_launcher()
    if launcher is None:
        assert strategy.launcher is None
        return
    assert isinstance(strategy.launcher, launcher)
    assert type(strategy.launcher) is launcher
    assert strategy.launcher.is_interactive_compatible is interactive


def test_ddp_does_not_launch_under_a_scheduler(machine: Machine) -> None:
    machine(cluster="slurm")
    strategy = DDPStrategy(parallel_devices=CPU2, cluster_environment=SLURMEnvironment())
    strategy._configure_launcher()
    assert strategy.launcher is None
