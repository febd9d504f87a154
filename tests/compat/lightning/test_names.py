"""Old names on the real 2.x: what each resolves to, or the error naming its replacement; warnings at the user's line."""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning

#: (old module, old name) -> the 2.x class it is (a string), "sub:<class>" (a subclass presetting 1.x arguments),
#: or "removed: <text the error names>".
NAMES = [
    pytest.param("plugins", "DDPPlugin", "DDPStrategy", id="DDPPlugin is DDPStrategy"),
    pytest.param("plugins", "DDPSpawnPlugin", "sub:DDPStrategy", id="DDPSpawnPlugin presets start_method"),
    pytest.param("plugins", "DeepSpeedPlugin", "DeepSpeedStrategy", id="DeepSpeedPlugin"),
    pytest.param("plugins", "SingleDevicePlugin", "SingleDeviceStrategy", id="SingleDevicePlugin"),
    pytest.param("plugins", "TrainingTypePlugin", "Strategy", id="TrainingTypePlugin is Strategy"),
    pytest.param("plugins", "TPUSpawnPlugin", "XLAStrategy", id="TPUSpawnPlugin is XLAStrategy"),
    pytest.param("plugins.training_type", "DDPPlugin", "DDPStrategy", id="plugins.training_type module"),
    pytest.param("plugins.training_type.ddp", "DDPPlugin", "DDPStrategy", id="plugins.training_type.ddp module"),
    pytest.param("accelerators", "GPUAccelerator", "CUDAAccelerator", id="GPUAccelerator is CUDAAccelerator"),
    pytest.param("accelerators.gpu", "GPUAccelerator", "CUDAAccelerator", id="accelerators.gpu module"),
    pytest.param("plugins", "NativeMixedPrecisionPlugin", "sub:MixedPrecision", id="NativeMixedPrecisionPlugin"),
    pytest.param("plugins", "PrecisionPlugin", "Precision", id="PrecisionPlugin over the graveyard stub"),
    pytest.param("plugins", "DoublePrecisionPlugin", "DoublePrecision", id="DoublePrecisionPlugin"),
    pytest.param("plugins", "DataParallelPlugin", "removed: DataParallel", id="DP raises at use"),
    pytest.param("plugins", "DDP2Plugin", "removed: DDP2", id="DDP2 raises at use"),
    pytest.param("plugins", "HorovodPlugin", "removed: Horovod", id="Horovod raises at use"),
    pytest.param("plugins", "DDPShardedPlugin", "removed: FairScale", id="FairScale sharding raises at use"),
    pytest.param("plugins", "IPUPlugin", "removed: lightning-graphcore", id="IPU raises at use"),
    pytest.param("plugins", "ApexMixedPrecisionPlugin", "removed: apex", id="apex raises at use"),
]


def _old(module: str, name: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CompatDeprecationWarning)
        return getattr(importlib.import_module(f"pytorch_lightning.{module}"), name)


def _new(name: str) -> Any:
    from compat.lightning._names import _find

    return _find("pytorch_lightning", name)


@pytest.mark.parametrize(("module", "name", "expected"), NAMES)
def test_old_name_resolves(shim: Any, module: str, name: str, expected: str) -> None:
    old = _old(module, name)
    if expected.startswith("removed: "):
        with pytest.raises(shim.RemovedFeatureError, match=expected.removeprefix("removed: ")):
            old()
        from lightning_fabric.utilities.exceptions import MisconfigurationException

        assert issubclass(shim.RemovedFeatureError, MisconfigurationException)
    elif expected.startswith("sub:"):
        assert issubclass(old, _new(expected[4:])) and old is not _new(expected[4:])
    else:
        assert old is _new(expected)


def test_isinstance_both_ways(shim: Any) -> None:
    from pytorch_lightning.strategies import DDPStrategy

    ddp_plugin, spawn_plugin = _old("plugins", "DDPPlugin"), _old("plugins", "DDPSpawnPlugin")
    assert isinstance(DDPStrategy(), ddp_plugin) and isinstance(ddp_plugin(), DDPStrategy)
    spawned = spawn_plugin(find_unused_parameters=True)
    assert isinstance(spawned, DDPStrategy) and spawned._start_method == "spawn"
    assert isinstance(DDPStrategy(start_method="spawn"), spawn_plugin)
    assert not isinstance(DDPStrategy(), spawn_plugin)


def test_native_amp_takes_its_15_precision(shim: Any) -> None:
    plugin = _old("plugins", "NativeMixedPrecisionPlugin")(16, "cpu")
    assert plugin.precision == "16-mixed"


def test_enums_compare_equal_to_the_strings(shim: Any) -> None:
    enums = importlib.import_module("pytorch_lightning.utilities.enums")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CompatDeprecationWarning)
        assert enums.DistributedType.DDP == "ddp" and enums.DeviceType.GPU == "gpu"
        assert enums._StrategyType.DDP_SPAWN == "ddp_spawn" and enums.AMPType.NATIVE == "native"
        assert importlib.import_module("pytorch_lightning.utilities").DistributedType is enums.DistributedType


def test_a_name_warns_once_per_call_site_at_the_users_line(shim: Any) -> None:
    import pytorch_lightning.plugins as plugins

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        line = sys._getframe().f_lineno + 2
        for _ in range(3):
            plugins.DDPPlugin  # noqa: B018  (one call site, three reads)
        plugins.DDPPlugin  # noqa: B018  (a second call site)
    ours = [w for w in caught if issubclass(w.category, CompatDeprecationWarning)]
    assert [(w.filename, w.lineno) for w in ours] == [(__file__, line), (__file__, line + 1)]
    notice = ours[0].message.notice  # type: ignore[union-attr]
    assert notice.old == "`pytorch_lightning.plugins.DDPPlugin`" and notice.rule == "strategy_plugins"
    assert "migrate-trainer --only strategy_plugins" in str(ours[0].message)


def test_from_import_warns_once(shim: Any) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from pytorch_lightning.plugins import DeepSpeedPlugin  # noqa: F401
    assert len([w for w in caught if issubclass(w.category, CompatDeprecationWarning)]) == 1
