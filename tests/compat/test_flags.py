"""Lightning 1.5 flags on faked machines: the selection 1.5.10 made, and exactly the warnings expected.

Expected selection: (accelerator class, strategy name (or class for instances), devices, num_nodes, precision plugin).
Expected warnings: the start of each message (what is deprecated), in order, then a phrase of the advice.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import compat
from newcore.accelerators import CUDAAccelerator
from newcore.exceptions import MisconfigurationException
from newcore.plugins.precision import DoublePrecisionPlugin
from newcore.strategies import DDPStrategy

CPU, CUDA, TPU, IPU = "CPUAccelerator", "CUDAAccelerator", "TPUAccelerator", "IPUAccelerator"
P32, AMP, APEX = "PrecisionPlugin", "MixedPrecisionPlugin", "ApexMixedPrecisionPlugin"
MULTI_GPU = "Choosing a strategy for several GPUs implicitly"
XLA = {"packages": {"torch_xla"}, "tpu": 8}
POPTORCH = {"packages": {"poptorch"}, "ipu": 4}


def c(flag: str) -> str:
    return f"`AcceleratorConnector({flag})`"


def row(id: str, flags: dict[str, Any], expect: tuple[Any, ...], warns: list[str], advice: str = "", **hw: Any) -> Any:
    return pytest.param(flags, hw, expect, warns, advice, id=id)


def cpus(n: int) -> list[str]:
    return ["cpu"] * n


def gpus(*i: int) -> list[str]:
    return [f"cuda:{n}" for n in i]


# fmt: off
ROWS = [
    # -- device flags ---------------------------------------------------------------------------------------------
    row("gpus=2 -> ddp_spawn on 2 GPUs", {"gpus": 2}, (CUDA, "ddp_spawn", gpus(0, 1), 1, P32), [c("gpus=2"), MULTI_GPU], "Use `accelerator='gpu', devices=2` instead.", cuda=4),
    row("gpus=0 means the CPU", {"gpus": 0}, (CPU, "single_device", cpus(1), 1, P32), [c("gpus=0")], "Use `accelerator='cpu'` instead.", cuda=4),
    row("gpus='0' means the CPU", {"gpus": "0"}, (CPU, "single_device", cpus(1), 1, P32), [c("gpus='0'")], cuda=4),
    row("gpus=1 -> one GPU", {"gpus": 1}, (CUDA, "single_device", gpus(0), 1, P32), [c("gpus=1")], cuda=1),
    row("gpus='0,1' indices", {"gpus": "0,1"}, (CUDA, "ddp_spawn", gpus(0, 1), 1, P32), [c("gpus='0,1'"), MULTI_GPU], "devices='0,1'", cuda=4),
    row("gpus=[1] picks GPU 1", {"gpus": [1]}, (CUDA, "single_device", gpus(1), 1, P32), [c("gpus=[1]")], cuda=2),
    row("gpus=-1 takes all", {"gpus": -1}, (CUDA, "ddp_spawn", gpus(0, 1, 2), 1, P32), [c("gpus=-1"), MULTI_GPU], cuda=3),
    row("num_processes=2 -> cpu ddp_spawn", {"num_processes": 2}, (CPU, "ddp_spawn", cpus(2), 1, P32), [c("num_processes=2")], "accelerator='cpu', devices=2"),
    row("num_processes=1 is 1.5's default", {"num_processes": 1, "gpus": 2}, (CUDA, "ddp_spawn", gpus(0, 1), 1, P32), [c("gpus=2"), c("num_processes=1"), MULTI_GPU], cuda=2),
    # Recorded from 1.5.10 ("precedence: gpus=2, num_processes=3 | cuda=4"): gpus set the device type last in 1.5.
    row("gpus beats num_processes", {"gpus": 2, "num_processes": 2}, (CUDA, "ddp_spawn", gpus(0, 1), 1, P32), [c("gpus=2"), c("num_processes=2"), MULTI_GPU], cuda=2),
    row("num_processes=1 leaves devices to cpu", {"num_processes": 1, "devices": 2, "accelerator": "cpu"}, (CPU, "ddp_spawn", cpus(2), 1, P32), [c("num_processes=1")]),
    row("auto without a count is the cpu", {"accelerator": "auto"}, (CPU, "single_device", cpus(1), 1, P32), ["`AcceleratorConnector(accelerator='auto')` without `devices`"], "newcore would train on every device", cuda=2),
    row("accelerator instance takes gpus", {"accelerator": CUDAAccelerator, "gpus": 2}, (CUDA, "ddp_spawn", gpus(0, 1), 1, P32), [c("gpus=2"), MULTI_GPU], cuda=4),
    row("accelerator='cpu' beats gpus", {"accelerator": "cpu", "gpus": 2}, (CPU, "single_device", cpus(1), 1, P32), [c("gpus=2")], cuda=2),
    row("accelerator='auto' follows gpus", {"accelerator": "auto", "gpus": 2}, (CUDA, "ddp_spawn", gpus(0, 1), 1, P32), [c("gpus=2"), MULTI_GPU], cuda=2),
    row("gpus overrides devices", {"accelerator": "gpu", "devices": 3, "gpus": 2}, (CUDA, "ddp_spawn", gpus(0, 1), 1, P32), [c("gpus=2"), c("gpus=2"), MULTI_GPU], "`devices=3` is ignored", cuda=4),
    row("tpu_cores=8 -> tpu_spawn", {"tpu_cores": 8}, (TPU, "tpu_spawn", [f"xla:{i}" for i in range(8)], 1, "TPUPrecisionPlugin"), [c("tpu_cores=8")], "accelerator='tpu', devices=8", **XLA),
    row("tpu_cores=[5] -> one core", {"tpu_cores": [5]}, (TPU, "single_tpu", ["xla:5"], 1, "TPUPrecisionPlugin"), [c("tpu_cores=[5]")], **XLA),
    # Recorded from 1.5.10 ("tpu_cores: tpu_cores=1 | cpu+tpu"): an int count meant TPU spawn, even for one core.
    row("tpu_cores=1 -> tpu_spawn on one core", {"tpu_cores": 1}, (TPU, "tpu_spawn", ["xla:0"], 1, "TPUPrecisionPlugin"), [c("tpu_cores=1")], "strategy=TPUSpawnStrategy()", **XLA),
    row("tpu_cores overrides strategy='ddp'", {"tpu_cores": 8, "strategy": "ddp"}, (TPU, "tpu_spawn", [f"xla:{i}" for i in range(8)], 1, "TPUPrecisionPlugin"), [c("tpu_cores=8"), c("strategy='ddp'")], "ignored the strategy name", **XLA),
    row("ipus=4 -> ipu strategy", {"ipus": 4}, (IPU, "ipu_strategy", [f"ipu:{i}" for i in range(4)], 1, "IPUPrecisionPlugin"), [c("ipus=4")], "accelerator='ipu', devices=4", **POPTORCH),
    row("auto_select_gpus keeps the count", {"gpus": 2, "auto_select_gpus": True}, (CUDA, "ddp_spawn", gpus(0, 1), 1, P32), [c("gpus=2"), c("auto_select_gpus=True"), MULTI_GPU], "devices=2", cuda=4),
    # -- strategies in accelerator=, distributed_backend=, plugins= ---------------------------------------------
    row("accelerator='ddp' is a strategy", {"gpus": 2, "accelerator": "ddp"}, (CUDA, "ddp", gpus(0, 1), 1, P32), [c("accelerator='ddp'"), c("gpus=2")], "Use `strategy='ddp'` instead.", cuda=2),
    row("accelerator='dp' on GPUs", {"gpus": 2, "accelerator": "dp"}, (CUDA, "dp", gpus(0, 1), 1, P32), [c("accelerator='dp'"), c("gpus=2")], cuda=2),
    row("distributed_backend='ddp'", {"gpus": 2, "distributed_backend": "ddp"}, (CUDA, "ddp", gpus(0, 1), 1, P32), [c("distributed_backend='ddp'"), c("gpus=2")], "strategy='ddp'", cuda=2),
    row("plugins=['ddp_sharded']", {"gpus": 2, "plugins": ["ddp_sharded"]}, (CUDA, "ddp_sharded", gpus(0, 1), 1, P32), [c("plugins=['ddp_sharded']"), c("gpus=2")], "strategy='ddp_sharded'", cuda=2),
    row("plugins=[DDPStrategy()] instance", {"gpus": 2, "plugins": [DDPStrategy]}, (CUDA, "DDPStrategy", gpus(0, 1), 1, P32), [c("plugins=[DDPStrategy(...)]"), c("gpus=2")], "Use `strategy=DDPStrategy(...)` instead.", cuda=2),
    row("accelerator=DDPStrategy() instance", {"gpus": 2, "accelerator": DDPStrategy}, (CUDA, "DDPStrategy", gpus(0, 1), 1, P32), [c("accelerator=DDPStrategy(...)"), c("gpus=2")], cuda=2),
    row("two strategy names in plugins: the last wins", {"gpus": 2, "plugins": ["ddp", "ddp_sharded"]}, (CUDA, "ddp_sharded", gpus(0, 1), 1, P32), [c("plugins=['ddp']"), c("plugins=['ddp_sharded']"), c("plugins=['ddp_sharded']"), c("gpus=2")], "Lightning 1.5 used 'ddp_sharded'", cuda=2, packages={"fairscale"}),
    # -- 1.5 fallbacks -------------------------------------------------------------------------------------------
    row("ddp_cpu with num_processes", {"accelerator": "ddp_cpu", "num_processes": 3}, (CPU, "ddp_spawn", cpus(3), 1, P32), [c("num_processes=3"), c("accelerator='ddp_cpu'")], "accelerator='cpu', strategy='ddp_spawn', devices=3"),
    row("ddp_cpu alone is one process", {"accelerator": "ddp_cpu"}, (CPU, "ddp_spawn", cpus(1), 1, P32), [c("accelerator='ddp_cpu'")]),
    row("ddp_cpu on two nodes -> ddp", {"accelerator": "ddp_cpu", "num_nodes": 2}, (CPU, "ddp", cpus(1), 2, P32), [c("accelerator='ddp_cpu'")], "strategy='ddp'"),
    row("ddp_cpu ignores gpus", {"accelerator": "ddp_cpu", "gpus": 2}, (CPU, "ddp_spawn", cpus(1), 1, P32), [c("gpus=2"), c("gpus=2"), c("accelerator='ddp_cpu'")], "Training will not use GPUs", cuda=2),
    row("dp on 2 cpu processes -> ddp", {"strategy": "dp", "num_processes": 2}, (CPU, "ddp", cpus(2), 1, P32), [c("num_processes=2"), c("strategy='dp'")], "newcore raises"),
    row("ddp2 on 2 cpu nodes -> ddp", {"strategy": "ddp2", "num_nodes": 2}, (CPU, "ddp", cpus(1), 2, P32), [c("strategy='ddp2'")], "Use `strategy='ddp'` instead."),
    row("dp on explicit cpu -> ddp", {"strategy": "dp", "accelerator": "cpu", "devices": 2}, (CPU, "ddp", cpus(2), 1, P32), [c("strategy='dp'")]),
    row("dp on one cpu has no effect", {"strategy": "dp"}, (CPU, "single_device", cpus(1), 1, P32), [c("strategy='dp'")], "distributed has no effect"),
    row("ddp on one cpu has no effect", {"strategy": "ddp"}, (CPU, "single_device", cpus(1), 1, P32), [c("strategy='ddp'")], "distributed has no effect"),
    row("ddp on explicit single cpu kept", {"strategy": "ddp", "accelerator": "cpu"}, (CPU, "ddp", cpus(1), 1, P32), []),
    row("2 GPUs x 2 nodes -> ddp_spawn", {"gpus": 2, "num_nodes": 2}, (CUDA, "ddp_spawn", gpus(0, 1), 2, P32), [c("gpus=2"), MULTI_GPU], cuda=2),
    row("gpus=2 under torchelastic -> ddp", {"gpus": 2}, (CUDA, "ddp", gpus(0, 1), 1, P32), [c("gpus=2"), MULTI_GPU], cuda=2, cluster="torchelastic"),
    row("2 GPUs x 2 nodes under slurm -> ddp", {"gpus": 2, "num_nodes": 2}, (CUDA, "ddp", gpus(0, 1), 2, P32), [c("gpus=2"), MULTI_GPU], cuda=2, cluster="slurm"),
    # -- precision and AMP -----------------------------------------------------------------------------------------
    row("amp_backend='native' is the default", {"gpus": 1, "precision": 16, "amp_backend": "native"}, (CUDA, "single_device", gpus(0), 1, AMP), [c("gpus=1"), c("amp_backend='native'")], "Use `precision=16` instead.", cuda=1),
    row("apex with amp_level", {"gpus": 1, "precision": 16, "amp_backend": "apex", "amp_level": "O1"}, (CUDA, "single_device", gpus(0), 1, APEX), [c("gpus=1"), c("amp_backend='apex'"), c("amp_level='O1'")], "plugins=[ApexMixedPrecisionPlugin(amp_level='O1')]", cuda=1, packages={"apex"}),
    row("apex at precision 32 does nothing", {"gpus": 1, "amp_backend": "apex"}, (CUDA, "single_device", gpus(0), 1, P32), [c("gpus=1"), c("amp_backend='apex'")], cuda=1, packages={"apex"}),
    row("precision 16 on gpus", {"gpus": 2, "precision": 16}, (CUDA, "ddp_spawn", gpus(0, 1), 1, AMP), [c("gpus=2"), MULTI_GPU], cuda=2),
    row("bf16 on cpu", {"precision": "bf16", "num_processes": 1}, (CPU, "single_device", cpus(1), 1, AMP), [c("num_processes=1")]),
    row("a precision plugin beats precision=", {"plugins": [DoublePrecisionPlugin], "precision": 16}, (CPU, "single_device", cpus(1), 1, "DoublePrecisionPlugin"), [c("precision=16")], "trained in the plugin's precision"),
    row("replace_sampler_ddp", {"replace_sampler_ddp": False}, (CPU, "single_device", cpus(1), 1, P32), [c("replace_sampler_ddp=False")], "use_distributed_sampler=False"),
    row("new flags only: no warning", {"accelerator": "gpu", "devices": 2, "strategy": "ddp"}, (CUDA, "ddp", gpus(0, 1), 1, P32), [], cuda=2),
]
# fmt: on


def _selection(connector: compat.AcceleratorConnector) -> tuple[Any, ...]:
    strategy = connector.strategy
    return (
        type(connector.accelerator).__name__,
        strategy.registered_name or type(strategy).__name__,
        [str(d) for d in connector.parallel_devices],
        connector.num_nodes,
        type(connector.precision_plugin).__name__,
    )


def _build(flags: dict[str, Any]) -> dict[str, Any]:
    """Classes in a row stand for a fresh instance (rows stay data; instances are not shared between runs)."""
    out = {}
    for key, value in flags.items():
        if isinstance(value, type):
            value = value()
        elif isinstance(value, list):
            value = [v() if isinstance(v, type) else v for v in value]
        out[key] = value
    return out


@pytest.mark.parametrize(("flags", "hw", "expected", "warns", "advice"), ROWS)
def test_legacy_flags(
    machine: Any, flags: dict[str, Any], hw: dict[str, Any], expected: tuple[Any, ...], warns: list[str], advice: str
) -> None:
    machine(**hw)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        connector = compat.AcceleratorConnector(**_build(flags))
    compat_warnings = [w for w in record if issubclass(w.category, compat.CompatDeprecationWarning)]
    assert [w for w in record if w not in compat_warnings] == []
    heads = [str(w.message).split(" is deprecated")[0] for w in compat_warnings]
    assert heads == warns
    assert all(w.filename == __file__ for w in compat_warnings), "warnings must point at the user's line"
    if advice:
        assert any(advice in str(w.message) for w in compat_warnings), [str(w.message) for w in compat_warnings]
    assert _selection(connector) == expected


# fmt: off
ERRORS = [
    pytest.param({"gpus": 1, "num_nodes": 2}, {"cuda": 1}, "does not support `num_nodes > 1`", id="one GPU on two nodes raised in 1.5"),
    pytest.param({"amp_level": "O2", "gpus": 1, "precision": 16}, {"cuda": 1}, "only supported with `amp_backend='apex'`", id="amp_level without apex"),
    pytest.param({"amp_backend": "fast", "gpus": 1}, {"cuda": 1}, "is not an AMP backend", id="unknown amp_backend"),
    pytest.param({"accelerator": "ddp_cpu", "num_processes": 2}, {"tpu": 8, "packages": {"torch_xla"}}, "not supported on TPU machines", id="ddp_cpu on a TPU machine"),
    pytest.param({"accelerator": "dp", "strategy": "ddp"}, {}, "names a strategy too", id="strategy in both accelerator and strategy"),
    pytest.param({"plugins": ["ddp_sharded"], "strategy": "ddp"}, {}, "Pass one strategy", id="strategy in both plugins and strategy"),
    pytest.param({"gpus": 2}, {"cuda": 1}, "devices=2", id="more GPUs than the machine has (newcore's own error)"),
    pytest.param({"strategy": "dp", "num_nodes": 2, "gpus": 2}, {"cuda": 2}, "does not support `num_nodes > 1`", id="dp across nodes raised in 1.5"),
    pytest.param({"precision": "bf16", "amp_backend": "apex"}, {"packages": {"apex"}}, "apex has no bfloat16", id="bf16 with apex raised in 1.5"),
    pytest.param({"tpu_cores": 3}, XLA, "`tpu_cores=3` is not valid", id="tpu_cores other than 1, 8 or [i] raised in 1.5"),
    pytest.param({"tpu_cores": 8}, {}, "no TPU devices were found", id="tpu_cores without TPUs raised in 1.5"),
    pytest.param({"accelerator": "ddp", "strategy": "ddp"}, {}, "names a strategy too", id="the same strategy in accelerator= and strategy= raised in 1.5"),
]
# fmt: on


@pytest.mark.parametrize(("flags", "hw", "match"), ERRORS)
def test_legacy_flag_errors(machine: Any, flags: dict[str, Any], hw: dict[str, Any], match: str) -> None:
    machine(**hw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", compat.CompatDeprecationWarning)
        with pytest.raises(MisconfigurationException, match=match):
            compat.AcceleratorConnector(**flags)


def test_each_legacy_flag_warns_once_per_line(machine: Any) -> None:
    """With Python's default filters a legacy flag in a loop is reported once, at the user's line."""
    machine(cuda=2)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("default")
        for _ in range(3):
            compat.AcceleratorConnector(gpus=1)
    assert [str(w.message).split(" is ")[0] for w in record] == [c("gpus=1")]


def test_compat_warnings_are_shown_by_default() -> None:
    assert issubclass(compat.CompatDeprecationWarning, FutureWarning)
    assert not issubclass(compat.CompatDeprecationWarning, DeprecationWarning)


def test_precision_16_on_the_cpu_becomes_bf16_as_in_1_5_10(machine: Any) -> None:
    """Recorded from Lightning 1.5.10: bf16 with a warning; newcore does the same and says so itself."""
    from newcore.warnings import FallbackWarning

    machine()
    with pytest.warns(FallbackWarning, match="Using `precision='bf16'` instead"):
        connector = compat.AcceleratorConnector(precision=16)
    assert connector.precision_plugin.precision == "bf16"
