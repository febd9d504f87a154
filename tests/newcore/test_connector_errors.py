"""Every user mistake the connector catches, as a table: flags + machine -> words the message must contain."""

from __future__ import annotations

import re
from typing import Any

import pytest
import torch

from newcore import AcceleratorConnector, MisconfigurationException
from newcore.accelerators import CPUAccelerator, CUDAAccelerator
from newcore.plugins.environments import LightningEnvironment, SLURMEnvironment
from newcore.plugins.io import TorchCheckpointIO
from newcore.plugins.layer_sync import LayerSync
from newcore.plugins.precision import ApexMixedPrecisionPlugin, MixedPrecisionPlugin, PrecisionPlugin
from newcore.strategies import DDPSpawnStrategy, DDPStrategy, SingleDeviceStrategy


class OtherSync(LayerSync):
    def apply(self, model: torch.nn.Module) -> torch.nn.Module:
        return model

    def revert(self, model: torch.nn.Module) -> torch.nn.Module:
        return model


class Later:
    """A flag value built inside the test, after the machine is faked (some constructors check the machine)."""

    def __init__(self, factory: Any) -> None:
        self.factory = factory


def resolve(value: Any) -> Any:
    if isinstance(value, Later):
        return value.factory()
    if isinstance(value, list):
        return [resolve(v) for v in value]
    return value


def err(id: str, flags: dict[str, Any], *words: str, **hw: Any) -> Any:
    return pytest.param(flags, hw, words, id=id)


ENV = LightningEnvironment()
IO = TorchCheckpointIO()

# fmt: off
ERRORS = [
    # -- names ---------------------------------------------------------------------------------------------
    err("unknown accelerator lists valid ones", {"accelerator": "npu"}, "accelerator='npu'", "cpu", "cuda", "tpu"),
    err("strategy name as accelerator", {"accelerator": "ddp"}, "accelerator='ddp'", "strategy='ddp'", "migrate-trainer"),
    err("ddp_spawn as accelerator", {"accelerator": "ddp_spawn"}, "strategy='ddp_spawn'"),
    err("ddp_cpu as accelerator", {"accelerator": "ddp_cpu"}, "accelerator='ddp_cpu'", "strategy="),
    err("unknown strategy lists valid ones", {"strategy": "ddp3"}, "strategy='ddp3'", "ddp_spawn", "deepspeed"),
    err("ddp_cpu as strategy", {"strategy": "ddp_cpu"}, "strategy='ddp_cpu'", "ddp_spawn", "accelerator='cpu'"),
    err("tpu_spawn as strategy", {"strategy": "tpu_spawn"}, "strategy='tpu_spawn'", "accelerator='tpu'"),
    err("accelerator name as strategy", {"strategy": "gpu"}, "strategy='gpu'", "accelerator='gpu'"),
    err("strategy class not instance", {"strategy": DDPStrategy}, "DDPStrategy()"),
    err("strategy of wrong type", {"strategy": 3}, "strategy=3", "int"),
    err("accelerator of wrong type", {"accelerator": 1.5}, "accelerator=1.5", "float"),
    err("strategy instance as accelerator", {"accelerator": DDPStrategy()}, "strategy="),
    # -- devices ----------------------------------------------------------------------------------------------
    err("devices=0 on cpu", {"devices": 0}, "devices=0"),
    err("devices='0' on gpu", {"accelerator": "gpu", "devices": "0"}, "devices='0'", "accelerator='cuda'", cuda=2),
    err("devices=0 on gpu", {"accelerator": "gpu", "devices": 0}, "devices=0", "accelerator='cpu'", cuda=2),
    err("devices=[] on gpu", {"accelerator": "gpu", "devices": []}, "devices=[]", cuda=2),
    err("devices=[] on cpu", {"devices": []}, "devices=[]"),
    err("too many gpus", {"accelerator": "gpu", "devices": 4}, "devices=4", "[0, 1]", cuda=2),
    err("gpu index out of range", {"accelerator": "gpu", "devices": [0, 5]}, "[0, 5]", cuda=2),
    err("repeated gpu index", {"accelerator": "gpu", "devices": [1, 1]}, "repeat", cuda=2),
    err("negative count", {"accelerator": "gpu", "devices": -2}, "devices=-2", cuda=2),
    err("negative cpu count", {"devices": -3}, "devices=-3"),
    err("cpu takes no indices", {"accelerator": "cpu", "devices": [0, 1]}, "devices=[0, 1]", "number"),
    err("devices=True", {"devices": True}, "devices=True"),
    err("devices=1.5", {"devices": 1.5}, "devices=1.5"),
    err("devices list of strings", {"accelerator": "gpu", "devices": ["0"]}, "devices=['0']", cuda=2),
    err("devices garbage string", {"devices": "two"}, "devices='two'"),
    err("devices=auto without accelerator", {"devices": "auto"}, "devices='auto'", "accelerator='auto'"),
    err("tpu 3 cores", {"accelerator": "tpu", "devices": 3}, "devices=3", "1 or 8", tpu=8, packages={"torch_xla"}),
    err("tpu core index 9", {"accelerator": "tpu", "devices": [9]}, "[9]", tpu=8, packages={"torch_xla"}),
    err("num_nodes=0", {"num_nodes": 0}, "num_nodes=0"),
    err("num_nodes='2'", {"num_nodes": "2"}, "num_nodes='2'"),
    err("num_nodes=True", {"num_nodes": True}, "num_nodes=True"),
    # -- availability -------------------------------------------------------------------------------------------
    err("gpu on a cpu box lists available", {"accelerator": "gpu"}, "accelerator='gpu'", "Available accelerators: cpu"),
    err("cuda on an mps box", {"accelerator": "cuda"}, "cpu, mps", mps=True),
    err("tpu without tpu", {"accelerator": "tpu"}, "accelerator='tpu'", "cpu"),
    err("ipu without ipu", {"accelerator": "ipu"}, "accelerator='ipu'"),
    err("mps without mps", {"accelerator": "mps"}, "accelerator='mps'"),
    # -- precision -------------------------------------------------------------------------------------------------
    err("precision garbage", {"precision": "half"}, "precision='half'", "'bf16'"),
    err("precision 8", {"precision": 8}, "precision=8"),
    err("precision mixed", {"precision": "mixed"}, "precision='mixed'"),
    err("precision True", {"precision": True}, "precision=True"),
    err("precision flag vs plugin", {"precision": 16, "plugins": [PrecisionPlugin()]}, "precision=16", "PrecisionPlugin"),
    err("tpu precision 64", {"accelerator": "tpu", "precision": 64}, "precision=64", "tpu", tpu=8, packages={"torch_xla"}),
    err("tpu with a gpu amp plugin", {"accelerator": "tpu", "plugins": [MixedPrecisionPlugin("bf16", "cpu")]}, "accelerator='tpu'", "TPU precision", tpu=8, packages={"torch_xla"}),
    err("ipu bf16", {"accelerator": "ipu", "precision": "bf16"}, "bf16", "ipu", ipu=4, packages={"poptorch"}),
    err("apex on cpu says bf16 works", {"plugins": [Later(ApexMixedPrecisionPlugin)]}, "apex", "bf16", packages={"apex"}),
    err("apex missing", {"accelerator": "gpu", "plugins": "apex"}, "plugins=", cuda=1),
    err("apex with sharded", {"strategy": "ddp_sharded", "accelerator": "gpu", "devices": 2, "plugins": [Later(ApexMixedPrecisionPlugin)]}, "apex", "precision=16", cuda=2, packages={"apex"}),
    err("apex with fsdp", {"strategy": "fsdp", "accelerator": "gpu", "devices": 2, "plugins": [Later(ApexMixedPrecisionPlugin)]}, "apex", cuda=2, packages={"apex"}),
    # -- plugins ---------------------------------------------------------------------------------------------------
    err("strategy string in plugins", {"plugins": ["ddp_sharded"]}, "plugins=", "strategy='ddp_sharded'"),
    err("strategy instance in plugins", {"plugins": [DDPStrategy()]}, "plugins=", "strategy="),
    err("unknown plugin object", {"plugins": [object()]}, "not a plugin"),
    err("unknown plugin string", {"plugins": ["fast"]}, "'fast'"),
    err("two precision plugins", {"plugins": [PrecisionPlugin(), PrecisionPlugin()]}, "two precision plugins"),
    err("two cluster environments", {"plugins": [LightningEnvironment(), SLURMEnvironment()]}, "two cluster environments"),
    err("two checkpoint io", {"plugins": [TorchCheckpointIO(), TorchCheckpointIO()]}, "two checkpoint ios"),
    err("sync_batchnorm and another layer sync", {"sync_batchnorm": True, "plugins": [OtherSync()]}, "sync_batchnorm=True", "OtherSync"),
    err("sync_batchnorm not bool", {"sync_batchnorm": "yes"}, "sync_batchnorm='yes'"),
    # -- a strategy instance vs flags -------------------------------------------------------------------------------
    err("accelerator on strategy and flag", {"strategy": DDPStrategy(accelerator=CPUAccelerator()), "accelerator": CUDAAccelerator()}, "accelerator is set twice", cuda=1),
    err("precision plugin on strategy and in plugins", {"strategy": DDPStrategy(precision_plugin=PrecisionPlugin()), "plugins": [PrecisionPlugin()]}, "precision plugin is set twice"),
    err("checkpoint io on strategy and in plugins", {"strategy": DDPStrategy(checkpoint_io=IO), "plugins": [TorchCheckpointIO()]}, "checkpoint io is set twice"),
    err("cluster env on strategy and in plugins", {"strategy": DDPStrategy(cluster_environment=ENV), "plugins": [SLURMEnvironment()]}, "cluster environment is set twice"),
    err("cpu devices on strategy, gpu flag", {"strategy": DDPStrategy(parallel_devices=[torch.device("cpu")] * 2), "accelerator": "gpu"}, "cpu devices", "accelerator='gpu'", cuda=2),
    err("gpu devices on strategy, cpu flag", {"strategy": DDPStrategy(parallel_devices=[torch.device("cuda", 0)]), "accelerator": "cpu"}, "cuda devices", "accelerator='cpu'", cuda=2),
    # -- strategy and machine ---------------------------------------------------------------------------------------
    err("dp on cpu says use ddp", {"strategy": "dp"}, "strategy='dp'", "strategy=\"ddp\"", "accelerator=\"cpu\""),
    err("dp on explicit cpu", {"strategy": "dp", "accelerator": "cpu", "devices": 2}, "strategy='dp'"),
    err("ddp2 on cpu", {"strategy": "ddp2", "devices": 2}, "strategy='ddp2'", "ddp"),
    err("deepspeed missing names the extra", {"strategy": "deepspeed", "accelerator": "gpu"}, "deepspeed", "pip install", cuda=1),
    err("horovod missing names the extra", {"strategy": "horovod"}, "horovod", "pip install"),
    err("tpu strategy without torch_xla", {"accelerator": "tpu", "devices": 8}, "torch_xla", tpu=8),
    err("ipu strategy without poptorch", {"accelerator": "ipu"}, "poptorch", ipu=4),
    err("tpu accelerator with ddp", {"accelerator": "tpu", "strategy": "ddp", "devices": 8}, "accelerator='tpu'", "'ddp'", tpu=8, packages={"torch_xla"}),
    err("tpu strategy on cpu", {"strategy": "tpu_spawn_debug", "accelerator": "cpu"}, "tpu_spawn_debug", "accelerator='tpu'", packages={"torch_xla"}),
    err("ipu strategy on gpu", {"strategy": "ipu_strategy", "accelerator": "gpu"}, "ipu", cuda=1, packages={"poptorch"}),
    err("fork unavailable", {"strategy": "ddp_fork", "devices": 2}, "ddp_fork", "ddp_spawn", fork=False),
    err("single_device with several gpus", {"strategy": "single_device", "accelerator": "gpu", "devices": 2}, "strategy='single_device'", "devices=2", "devices=1", cuda=2),
    err("single_tpu with 8 cores", {"strategy": "single_tpu", "accelerator": "tpu", "devices": 8}, "strategy='single_tpu'", "8 tpu devices", tpu=8, packages={"torch_xla"}),
    err("num_nodes with single device strategy", {"strategy": "single_device", "num_nodes": 2}, "num_nodes=2", "ddp"),
    err("num_nodes with a SingleDeviceStrategy instance", {"strategy": SingleDeviceStrategy(), "num_nodes": 2}, "num_nodes=2"),
    # -- interactive sessions ---------------------------------------------------------------------------------------
    err("notebook: ddp_spawn", {"strategy": "ddp_spawn", "devices": 2}, "strategy='ddp_spawn'", "interactive", "ddp_notebook", interactive=True),
    err("notebook: ddp", {"strategy": "ddp", "devices": 2}, "strategy='ddp'", "interactive", interactive=True),
    err("notebook: ddp_sharded_spawn", {"strategy": "ddp_sharded_spawn", "devices": 2}, "ddp_sharded_spawn", interactive=True),
    err("notebook: ddp_fork on cuda", {"strategy": "ddp_fork", "accelerator": "gpu", "devices": 2}, "ddp_fork", cuda=2, interactive=True),
    err("notebook: several gpus default", {"accelerator": "gpu", "devices": 2}, "ddp_spawn", "interactive", cuda=2, interactive=True),
    err("notebook: DDPSpawnStrategy instance", {"strategy": DDPSpawnStrategy(), "devices": 2}, "DDPSpawnStrategy", interactive=True),
    # -- torch flags -----------------------------------------------------------------------------------------------------
    err("deterministic garbage", {"deterministic": "yes"}, "deterministic='yes'", "'warn'"),
    err("benchmark garbage", {"benchmark": 1}, "benchmark=1"),
    # -- legacy flags --------------------------------------------------------------------------------------------------
    err("gpus is legacy", {"gpus": 2}, "gpus=2", "accelerator='gpu', devices=2", "migrate-trainer", "compat.AcceleratorConnector"),
    err("tpu_cores is legacy", {"tpu_cores": 8}, "accelerator='tpu', devices=8"),
    err("num_processes is legacy", {"num_processes": 2}, "accelerator='cpu', devices=2"),
    err("ipus is legacy", {"ipus": 4}, "accelerator='ipu', devices=4"),
    err("distributed_backend is legacy", {"distributed_backend": "ddp"}, "strategy='ddp'"),
    err("amp_backend apex is legacy", {"amp_backend": "apex", "amp_level": "O1"}, "ApexMixedPrecisionPlugin(amp_level='O1')"),
    err("unknown kwarg", {"gpu": 1}, "gpu", "unexpected"),
]
# fmt: on


@pytest.mark.parametrize(("flags", "hw", "words"), ERRORS)
def test_user_errors(machine: Any, flags: dict[str, Any], hw: dict[str, Any], words: tuple[str, ...]) -> None:
    machine(**hw)
    with pytest.raises(MisconfigurationException) as info:
        AcceleratorConnector(**{k: resolve(v) for k, v in flags.items()})
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert not re.search(r"\{\w*!r\}", message), "an unformatted placeholder leaked into the message"


def test_a_fallback_is_never_silent(machine: Any) -> None:
    from newcore.warnings import FallbackWarning

    machine(cluster="torchelastic")
    with pytest.warns(FallbackWarning, match=r"strategy='ddp_spawn'.*TorchElasticEnvironment.*strategy='ddp'"):
        connector = AcceleratorConnector(strategy="ddp_spawn", devices=2)
    assert type(connector.strategy).__name__ == "DDPStrategy"
    assert connector.strategy.registered_name == "ddp"


def test_fuf_variant_survives_the_spawn_fallback(machine: Any) -> None:
    from newcore.warnings import FallbackWarning

    machine(cluster="slurm", env={"SLURM_NTASKS": "2", "SLURM_NTASKS_PER_NODE": "2"})
    with pytest.warns(FallbackWarning):
        connector = AcceleratorConnector(strategy="ddp_spawn_find_unused_parameters_false", devices=2)
    assert connector.strategy.registered_name == "ddp_find_unused_parameters_false"


def test_precision_16_on_cpu_warns_and_uses_bf16(machine: Any) -> None:
    from newcore.warnings import FallbackWarning

    machine()
    with pytest.warns(FallbackWarning, match=r"precision=16.*bf16"):
        connector = AcceleratorConnector(precision=16)
    assert connector.precision_plugin.precision == "bf16"


def test_tpu_precision_16_warns_and_uses_bf16(machine: Any) -> None:
    from newcore.warnings import FallbackWarning

    machine(tpu=8, packages={"torch_xla"})
    with pytest.warns(FallbackWarning, match="bf16"):
        connector = AcceleratorConnector(accelerator="tpu", devices=8, precision=16)
    assert type(connector.precision_plugin).__name__ == "TPUBf16PrecisionPlugin"
