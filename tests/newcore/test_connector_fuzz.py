"""Random flag combinations: the connector either selects something coherent or raises the user-error type."""

from __future__ import annotations

import warnings
from typing import Any

import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newcore import AcceleratorConnector, MisconfigurationException
from newcore.plugins.environments import LightningEnvironment, SLURMEnvironment
from newcore.plugins.io import TorchCheckpointIO
from newcore.plugins.precision import DoublePrecisionPlugin, PrecisionPlugin
from newcore.probe import FakeProbe, use_probe
from newcore.strategies import DDPStrategy, StrategyRegistry
from newcore.warnings import FallbackWarning

names = st.sampled_from(["auto", "cpu", "gpu", "cuda", "mps", "tpu", "ipu", "ddp", "nope", "", "CPU"])
strategy_names = st.sampled_from([*StrategyRegistry.names(), "ddp_cpu", "tpu_spawn", "gpu", "nope", "DDP"])
device_values = st.one_of(
    st.none(),
    st.integers(-3, 10),
    st.sampled_from(["auto", "-1", "0", "1", "2", "0,1", "1,", ",", "x", "1.5", " 2 "]),
    st.lists(st.integers(-1, 9), max_size=4),
    st.sampled_from([True, 1.5, object()]),
)
precisions = st.sampled_from([None, 16, 32, 64, "16", "32", "64", "bf16", "16-mixed", "mixed", 8, "half", True])
plugin_values = st.one_of(
    st.none(),
    st.lists(
        st.sampled_from(
            [
                PrecisionPlugin,
                DoublePrecisionPlugin,
                LightningEnvironment,
                SLURMEnvironment,
                TorchCheckpointIO,
                "ddp",
                "x",
            ]
        ),
        max_size=3,
    ),
)
machines = st.builds(
    FakeProbe,
    cuda=st.integers(0, 4),
    mps=st.booleans(),
    tpu=st.sampled_from([0, 8]),
    ipu=st.sampled_from([0, 4]),
    packages=st.frozensets(st.sampled_from(["torch_xla", "poptorch", "deepspeed", "horovod", "apex"])),
    interactive=st.booleans(),
    fork=st.booleans(),
)


def _build(value: Any) -> Any:
    return value() if isinstance(value, type) else value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    probe=machines,
    accelerator=st.one_of(st.none(), names),
    strategy=st.one_of(st.none(), strategy_names, st.just(DDPStrategy)),
    devices=device_values,
    num_nodes=st.sampled_from([1, 2, 0, -1, "2"]),
    precision=precisions,
    plugins=plugin_values,
    sync_batchnorm=st.sampled_from([False, True, "yes"]),
)
def test_random_flags_select_or_explain(
    probe: FakeProbe,
    accelerator: Any,
    strategy: Any,
    devices: Any,
    num_nodes: Any,
    precision: Any,
    plugins: Any,
    sync_batchnorm: Any,
) -> None:
    plugins = [_build(p) for p in plugins] if plugins else plugins
    try:
        with use_probe(probe), warnings.catch_warnings():
            # Fallbacks warn by design; here only the outcome matters.
            warnings.simplefilter("ignore", FallbackWarning)
            connector = AcceleratorConnector(
                accelerator=accelerator,
                strategy=strategy,
                devices=devices,
                num_nodes=num_nodes,
                precision=precision,
                plugins=plugins,
                sync_batchnorm=sync_batchnorm,
            )
    except MisconfigurationException as error:
        assert str(error), "a user error must explain itself"
        return
    # A selection must be coherent: devices of the accelerator's kind, a precision plugin, a strategy that owns them.
    devices_out = connector.parallel_devices
    assert devices_out and all(isinstance(d, torch.device) for d in devices_out)
    assert len({d.type for d in devices_out}) == 1
    assert connector.accelerator is connector.strategy.accelerator
    assert connector.precision_plugin.precision in {"16", "bf16", "32", "64"}
    assert connector.num_nodes == num_nodes
    assert connector.strategy.registered_name in StrategyRegistry
