"""Per-rule rows: noop rows first, then before -> after rows."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, run

NOOP = [
    pytest.param("def train(gpus=2):\n    return gpus\n", id="a function's own gpus= parameter"),
    pytest.param("class Box:\n    def size(self):\n        return self.gpus\n", id="self.gpus on a user's class"),
    pytest.param(
        "from dataclasses import dataclass\n\n@dataclass\nclass DDPPlugin:\n    n: int = 1\n\nx = DDPPlugin()\n",
        id="a user's own DDPPlugin dataclass",
    ),
    pytest.param("import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs')\n", id="argparse"),
    pytest.param("from pytorch_lightning import Trainer\nTrainer(accelerator='gpu', devices=2)\n", id="already new"),
    pytest.param("from pytorch_lightning import Trainer\nTrainer(gpus=2)\n", id="gpus= is fine on 1.6"),
    pytest.param("def f(x):\n    return x.training_type_plugin\n", id="property on a non-trainer"),
    pytest.param("print('DDPPlugin gpus accelerator')\n", id="legacy words in a string"),
]


@pytest.mark.parametrize("source", NOOP)
def test_noop(source: str) -> None:
    check_noop(source)


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin\nDDPPlugin()\n",
        "from pytorch_lightning.strategies import DDPStrategy\nDDPStrategy()\n",
        "1.6",
        id="from-import of a strategy plugin",
    ),
    pytest.param(
        "import pytorch_lightning as pl\nx = pl.plugins.DDPPlugin()\n",
        "import pytorch_lightning as pl\nx = pl.strategies.DDPStrategy()\n",
        "1.6",
        id="attribute chain through a module alias",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin as P\nP()\n",
        "from pytorch_lightning.strategies import DDPStrategy as P\nP()\n",
        "1.6",
        id="aliased import keeps the alias",
    ),
    pytest.param(
        "from pytorch_lightning.plugins.training_type.ddp import DDPPlugin\n\n\n"
        "def f(p: DDPPlugin) -> bool:\n    return isinstance(p, DDPPlugin)\n",
        "from pytorch_lightning.strategies.ddp import DDPStrategy\n\n\n"
        "def f(p: DDPStrategy) -> bool:\n    return isinstance(p, DDPStrategy)\n",
        "1.6",
        id="module path, type hint and isinstance",
    ),
    pytest.param(
        "from pytorch_lightning.accelerators import GPUAccelerator\nGPUAccelerator()\n",
        "from pytorch_lightning.accelerators import CUDAAccelerator\nCUDAAccelerator()\n",
        "1.7",
        id="GPUAccelerator on 1.7",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp', gpus=2)\n",
        "from pytorch_lightning import Trainer\nTrainer(strategy='ddp', gpus=2)\n",
        "1.6",
        id="strategy name in accelerator=",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(distributed_backend='ddp', gpus=2)\n",
        "from pytorch_lightning import Trainer\nTrainer(strategy='ddp', accelerator='gpu', devices=2)\n",
        "1.7",
        id="distributed_backend keeps its 1.4 meaning",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=0, max_epochs=1)\n",
        "from pytorch_lightning import Trainer\nTrainer(max_epochs=1)\n",
        "1.7",
        id="gpus=0 meant CPU",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp_cpu', num_processes=3)\n",
        "from pytorch_lightning import Trainer\nTrainer(accelerator='cpu', devices=3)\n",
        "1.6",
        id="ddp_cpu (the launcher is the target's)",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=1 if cuda else 0)\n",
        'from pytorch_lightning import Trainer\nTrainer(accelerator="gpu" if cuda else "cpu", devices=1)\n',
        "1.7",
        id="conditional literal gpus",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp_spawn', plugins=['ddp_find_unused_parameters_false'])\n",
        "from pytorch_lightning import Trainer\nTrainer(strategy='ddp_find_unused_parameters_false')\n",
        "1.6",
        id="plugins strategy wins over accelerator strategy",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=2, precision=16)\n",
        'from pytorch_lightning import Trainer\nTrainer(accelerator="gpu", devices=2, precision="16-mixed")\n',
        "2.0",
        id="2.0 leaves the launcher to 2.0 (reported) and spells precision",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(amp_backend='native', precision=16)\n",
        "from pytorch_lightning import Trainer\nTrainer(precision=16)\n",
        "1.9",
        id="native amp_backend dropped",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(amp_backend='apex', amp_level='O2', precision=16)\n",
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.plugins import ApexMixedPrecisionPlugin\n\n"
        "Trainer(plugins=[ApexMixedPrecisionPlugin(amp_level='O2')], precision=16)\n",
        "1.8",
        id="apex becomes a plugin",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.enums import DistributedType\nx = DistributedType.DDP\n",
        'x = "ddp"\n',
        "1.6",
        id="enum member becomes its string",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer.training_type_plugin, trainer.accelerator.training_type_plugin\n",
        "def f(trainer):\n    return trainer.strategy, trainer.strategy\n",
        "1.6",
        id="trainer properties",
    ),
    pytest.param(
        "from compat import Runner\nfrom compat.plugins import DDPPlugin\nRunner(gpus=2, plugins=[DDPPlugin()])\n",
        "from newcore import Runner\nfrom newcore.strategies import DDPStrategy\n"
        'Runner(accelerator="gpu", devices=2, strategy=DDPStrategy())\n',
        "1.6",
        id="compat code migrates to newcore",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


TODO = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=args.gpus)\n", "1.7", "device_flags", id="gpus=args.gpus"
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(strategy='dp', accelerator='gpu', devices=2)\n",
        "2.0",
        "strategy_names",
        id="dp on 2.0",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(num_nodes=2)\n", "2.0", "trainer_defaults", id="2.0 defaults"
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(amp_backend='apex', precision='16-mixed')\n",
        "2.0",
        "amp_flags",
        id="apex on 2.0",
    ),
    pytest.param("def f(trainer):\n    return trainer.num_gpus\n", "2.0", "trainer_properties", id="num_gpus"),
    pytest.param(
        "def f(trainer):\n    if trainer.tpu_cores:\n        return 8\n",
        "2.0",
        "trainer_properties",
        id="tpu_cores test",
    ),
]


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_todo_leaves_code_and_says_why(source: str, target: str, rule: str) -> None:
    outcome = run(source, target)
    assert "# TODO(migrate-trainer): " in outcome.source and f"[{rule}]" in outcome.source
    assert any(f.rule == rule and f.kind == "todo" for f in outcome.findings)
    assert outcome.source.endswith(source.splitlines()[-1] + "\n")
    assert run(outcome.source, target).source == outcome.source


# Trainer properties whose 1.6+ spelling reads another value on some machines stay, with one TODO per statement
# naming the expression that reads the 1.5 value (values as the real 1.5.10 / 1.6.5 return them).
_NUM_DEVICES = "trainer.num_devices if isinstance(trainer.accelerator, "
PROPERTY_TODO = [
    pytest.param(
        "def f(trainer):\n    if trainer.num_gpus:\n        return trainer.num_gpus\n",
        "1.6",
        [_NUM_DEVICES + "GPUAccelerator) else 0"],
        id="num_gpus (0 off the GPU) at 1.6: one TODO above the if, none above its body",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer.num_gpus\n",
        "1.7",
        [_NUM_DEVICES + "CUDAAccelerator) else 0"],
        id="num_gpus at 1.7 names CUDAAccelerator",
    ),
    pytest.param(
        "def f(self):\n    if self.trainer.tpu_cores:\n        self.n = self.trainer.tpu_cores\n",
        "2.0",
        ["self.trainer.num_devices if isinstance(self.trainer.accelerator, TPUAccelerator) else None"],
        id="tpu_cores (None off the TPU) is never num_devices (always >= 1)",
    ),
    pytest.param(
        "def f(trainer):\n    return max(1, trainer.num_gpus, trainer.num_processes)\n",
        "2.0",
        [_NUM_DEVICES + "CUDAAccelerator) else 0", "Trainer.num_processes is deprecated"],
        id="max(1, num_gpus, num_processes) is not max(1, num_devices, num_devices)",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer.root_gpu\n",
        "1.8",
        ["trainer.strategy.root_device.index if isinstance(trainer.accelerator, CUDAAccelerator) else None"],
        id="root_gpu (None on TPUs, where root_device.index is not)",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer.ipus, trainer.data_parallel_device_ids\n",
        "1.6",
        [_NUM_DEVICES + "IPUAccelerator) else 0", "trainer.device_ids if isinstance(trainer.accelerator, GPUAcc"],
        id="ipus and data_parallel_device_ids",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer.devices\n",
        "2.0",
        ["devices returned the device flag as given"],
        id="devices (the raw flag) has no exact replacement",
    ),
]


@pytest.mark.parametrize(("source", "target", "says"), PROPERTY_TODO)
def test_property_left_with_one_todo_naming_the_same_value(source: str, target: str, says: list[str]) -> None:
    outcome = run(source, target)
    todos = [line.strip() for line in outcome.source.splitlines() if "TODO(migrate-trainer)" in line]
    assert outcome.source.endswith(source.split("\n", 1)[1]), "the code stays as it was"
    assert len(todos) == len(says), todos
    for todo, words in zip(todos, says, strict=True):
        assert words in todo and todo.endswith("[trainer_properties]")
    assert run(outcome.source, target).source == outcome.source, "a second run changes nothing"


def test_dropped_duplicate_is_reported() -> None:
    outcome = run("from pytorch_lightning import Trainer\nTrainer(accelerator='ddp_spawn', plugins=['ddp'])\n")
    assert any("dropped accelerator='ddp_spawn'" in f.message for f in outcome.findings)


def test_only_rules_restricts() -> None:
    source = "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp', gpus=2)\n"
    outcome = run(source, "1.7", rules=frozenset({"accelerator_strategy"}))
    assert outcome.source == "from pytorch_lightning import Trainer\nTrainer(strategy='ddp', gpus=2)\n"


# --- Lightning 1.5's silent choices (legacy_fallbacks, device_flags, amp_flags), checked at target 1.9 --------
_T = "from pytorch_lightning import Trainer\n"
_DOUBLE = "from pytorch_lightning.plugins import DoublePrecisionPlugin\n"
_APEX = "from pytorch_lightning.plugins import ApexMixedPrecisionPlugin\n"

FALLBACK_NOOP = [
    pytest.param(_T + "Trainer(strategy='ddp', accelerator='cpu')\n", id="ddp with the user's own CPU accelerator ran"),
    pytest.param(_T + "Trainer(accelerator='auto', devices=2)\n", id="auto with a count detected devices in 1.5"),
    pytest.param(_T + "Trainer(strategy='ddp', **kwargs)\n", id="flags we cannot see may name devices"),
    pytest.param(_T + "Trainer(accelerator='gpu', devices=2, strategy='ddp', num_nodes=2)\n", id="ddp across nodes"),
    pytest.param(_T + "Trainer(accelerator='auto', devices=1)\n", id="auto, 1 device: a TPU host spawned (reported)"),
    pytest.param(
        _T + _DOUBLE + "Trainer(plugins=[DoublePrecisionPlugin()], precision=64)\n", id="plugin and precision agree"
    ),
    pytest.param(
        _T + _APEX + "Trainer(plugins=[ApexMixedPrecisionPlugin('O2')], accelerator='gpu', devices=2)\n",
        id="ApexMixedPrecisionPlugin still works on 1.9",
    ),
]


@pytest.mark.parametrize("source", FALLBACK_NOOP)
def test_fallback_noop(source: str) -> None:
    check_noop(source, "1.9")


FALLBACKS = [
    pytest.param("Trainer(accelerator='auto')\n", "Trainer(accelerator='cpu')\n", id="auto without devices ran on CPU"),
    pytest.param(
        "Trainer(accelerator='auto', devices=None)\n", "Trainer(accelerator='cpu')\n", id="auto with devices=None"
    ),
    pytest.param("Trainer(strategy='ddp')\n", "Trainer()\n", id="ddp for one CPU process had no effect: dropped"),
    pytest.param(
        "Trainer(strategy='dp', num_processes=2)\n",
        "Trainer(strategy='ddp', accelerator='cpu', devices=2)\n",
        id="dp on several CPU processes ran as ddp",
    ),
    pytest.param(
        "Trainer(strategy='ddp', tpu_cores=8)\n",
        "Trainer(accelerator='tpu', devices=8)\n",
        id="ddp next to TPU cores was ignored",
    ),
    pytest.param(
        "Trainer(tpu_cores=1)\n",
        'Trainer(accelerator="tpu", devices=1)\n',
        id="tpu_cores=1 spawned one process: the launcher is the target's (reported)",
    ),
    pytest.param(
        "Trainer(gpus=2, num_nodes=2)\n",
        'Trainer(accelerator="gpu", devices=2, num_nodes=2)\n',
        id="several GPUs on several nodes ran ddp_spawn: the launcher is the target's (reported)",
    ),
    pytest.param(
        "Trainer(num_processes=1, devices=2, accelerator='cpu')\n",
        "Trainer(devices=2, accelerator='cpu')\n",
        id="num_processes=1 was the default and left devices alone",
    ),
    pytest.param(
        "Trainer(tpu_cores=8, ipus=4)\n", 'Trainer(accelerator="tpu", devices=8)\n', id="tpu_cores counts its own cores"
    ),
    pytest.param(
        _DOUBLE + "Trainer(plugins=[DoublePrecisionPlugin()], precision=16)\n",
        _DOUBLE + "Trainer(plugins=[DoublePrecisionPlugin()])\n",
        id="the precision plugin won over precision=",
    ),
    pytest.param(
        "Trainer(precision='mixed', gpus=2, strategy='deepspeed')\n",
        "Trainer(precision=16, accelerator='gpu', devices=2, strategy='deepspeed')\n",
        id="mixed was float16 for DeepSpeed",
    ),
    pytest.param(
        "from pytorch_lightning.accelerators import GPUAccelerator\nTrainer(accelerator=GPUAccelerator(), gpus=2)\n",
        "from pytorch_lightning.accelerators import CUDAAccelerator\nTrainer(accelerator=CUDAAccelerator(), devices=2)\n",
        id="an accelerator object is an accelerator",
    ),
    pytest.param(
        "Trainer(amp_backend='APEX', precision=16, gpus=1)\n",
        _APEX + "\nTrainer(plugins=[ApexMixedPrecisionPlugin()], precision=16, accelerator='gpu', devices=1)\n",
        id="amp_backend is read case-insensitively and amp_level=None is not written",
    ),
    pytest.param(
        "Trainer(amp_backend='apex', amp_level='O1', precision=32)\n",
        "Trainer(precision=32)\n",
        id="apex only ran for precision 16",
    ),
    pytest.param(
        "Trainer(amp_backend='apex', precision=16, tpu_cores=8)\n",
        "Trainer(precision=16, accelerator='tpu', devices=8)\n",
        id="TPUs never used apex",
    ),
]


@pytest.mark.parametrize(("before", "after"), FALLBACKS)
def test_fallback_transformed(before: str, after: str) -> None:
    check_transformed(_T + before, _T + after, "1.9")


FALLBACK_TODO = [
    pytest.param("Trainer(accelerator='gpu', devices=1, num_nodes=2)\n", "legacy_fallbacks", id="1 GPU, 2 nodes"),
    pytest.param("Trainer(accelerator='gpu', devices=2, strategy='dp', num_nodes=2)\n", "legacy_fallbacks", id="dp"),
    pytest.param(
        "Trainer(strategy='deepspeed', amp_backend='apex', precision=16, accelerator='gpu', devices=2)\n",
        "amp_flags",
        id="DeepSpeed took apex in its own config",
    ),
]


@pytest.mark.parametrize(("source", "rule"), FALLBACK_TODO)
def test_fallback_todo(source: str, rule: str) -> None:
    outcome = run(_T + source, "1.9")
    assert f"[{rule}]" in outcome.source and outcome.source.endswith(source)
    assert run(outcome.source, "1.9").source == outcome.source


# Below target 1.7 the old device flags stay; where Lightning 1.6 selects differently for them, a TODO says so.
OLD_DEVICE_FLAGS_AT_16_NOOP = [
    pytest.param("Trainer(gpus=2)\n", id="several GPUs, one node: ddp_spawn in 1.5 and 1.6"),
    pytest.param("Trainer(tpu_cores=8)\n", id="8 TPU cores spawn in both"),
    pytest.param("Trainer(num_processes=2, strategy='dp')\n", id="dp on CPU ran as ddp in 1.5 and 1.6 alike"),
    pytest.param("Trainer(gpus=args.gpus, num_nodes=2)\n", id="non-literal: device_flags' business at 1.7"),
    pytest.param("Trainer(tpu_cores=1)\n", id="tpu_cores=1: spawn in 1.5, in place in 1.6 (reported)"),
    pytest.param("Trainer(gpus=2, num_nodes=2)\n", id="GPUs x nodes: ddp_spawn in 1.5, ddp in 1.6 (reported)"),
]

OLD_DEVICE_FLAGS_AT_16_TODO = [
    pytest.param("Trainer(gpus=1, num_nodes=2)\n", "refused", id="1 GPU x 2 nodes: error in 1.5, ddp in 1.6"),
]


@pytest.mark.parametrize("source", OLD_DEVICE_FLAGS_AT_16_NOOP)
def test_old_device_flags_at_16_noop(source: str) -> None:
    check_noop(_T + source, "1.6")


@pytest.mark.parametrize(("source", "words"), OLD_DEVICE_FLAGS_AT_16_TODO)
def test_old_device_flags_at_16_todo(source: str, words: str) -> None:
    outcome = run(_T + source, "1.6")
    assert outcome.source.endswith(source), "the call itself stays"
    todo = next(line for line in outcome.source.splitlines() if "TODO(migrate-trainer)" in line)
    assert "Lightning 1.6 selects differently" in todo and words in todo and "[legacy_fallbacks]" in todo
    assert run(outcome.source, "1.6").source == outcome.source, "a second run changes nothing"
