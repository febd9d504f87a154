"""The strategy registry: the exact set of names, what each builds, and the generic registry rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from newcore.exceptions import MisconfigurationException
from newcore.registry import Registry
from newcore.strategies import (
    DataParallelStrategy,
    DDP2Strategy,
    DDPFullyShardedStrategy,
    DDPShardedStrategy,
    DDPSpawnShardedStrategy,
    DDPSpawnStrategy,
    DDPStrategy,
    DeepSpeedStrategy,
    HorovodStrategy,
    IPUStrategy,
    SingleDeviceStrategy,
    SingleTPUStrategy,
    Strategy,
    StrategyRegistry,
    TPUSpawnStrategy,
)

NO_SEARCH = {"find_unused_parameters": False}
SEARCH = {"find_unused_parameters": True}  # Lightning 2.x's `_true` names; 1.x's default, spelled out
FORK = {"start_method": "fork"}
OFFLOAD_ALL = {"offload_optimizer": True, "offload_parameters": True}

#: Every registered name, the class it builds and the arguments it presets. The snapshot of record.
EXPECTED: dict[str, tuple[type[Strategy], dict[str, Any]]] = {
    "single_device": (SingleDeviceStrategy, {}),
    "dp": (DataParallelStrategy, {}),
    "ddp": (DDPStrategy, {}),
    "ddp_find_unused_parameters_false": (DDPStrategy, NO_SEARCH),
    "ddp_find_unused_parameters_true": (DDPStrategy, SEARCH),
    "ddp2": (DDP2Strategy, {}),
    "ddp_spawn": (DDPSpawnStrategy, {}),
    "ddp_spawn_find_unused_parameters_false": (DDPSpawnStrategy, NO_SEARCH),
    "ddp_spawn_find_unused_parameters_true": (DDPSpawnStrategy, SEARCH),
    "ddp_fork": (DDPSpawnStrategy, FORK),
    "ddp_fork_find_unused_parameters_false": (DDPSpawnStrategy, {**FORK, **NO_SEARCH}),
    "ddp_fork_find_unused_parameters_true": (DDPSpawnStrategy, {**FORK, **SEARCH}),
    "ddp_notebook": (DDPSpawnStrategy, FORK),
    "ddp_notebook_find_unused_parameters_false": (DDPSpawnStrategy, {**FORK, **NO_SEARCH}),
    "ddp_notebook_find_unused_parameters_true": (DDPSpawnStrategy, {**FORK, **SEARCH}),
    "ddp_sharded": (DDPShardedStrategy, {}),
    "ddp_sharded_find_unused_parameters_false": (DDPShardedStrategy, NO_SEARCH),
    "ddp_sharded_spawn": (DDPSpawnShardedStrategy, {}),
    "ddp_sharded_spawn_find_unused_parameters_false": (DDPSpawnShardedStrategy, NO_SEARCH),
    "ddp_fully_sharded": (DDPFullyShardedStrategy, {}),
    "fsdp": (DDPFullyShardedStrategy, {}),
    "deepspeed": (DeepSpeedStrategy, {}),
    "deepspeed_stage_1": (DeepSpeedStrategy, {"stage": 1}),
    "deepspeed_stage_2": (DeepSpeedStrategy, {"stage": 2}),
    "deepspeed_stage_2_offload": (DeepSpeedStrategy, {"stage": 2, "offload_optimizer": True}),
    "deepspeed_stage_3": (DeepSpeedStrategy, {"stage": 3}),
    "deepspeed_stage_3_offload": (DeepSpeedStrategy, {"stage": 3, **OFFLOAD_ALL}),
    "deepspeed_stage_3_offload_nvme": (
        DeepSpeedStrategy,
        {"stage": 3, **OFFLOAD_ALL, "offload_params_device": "nvme", "offload_optimizer_device": "nvme"},
    ),
    "horovod": (HorovodStrategy, {}),
    "single_tpu": (SingleTPUStrategy, {}),
    "tpu_spawn": (TPUSpawnStrategy, {}),
    "tpu_spawn_debug": (TPUSpawnStrategy, {"debug": True}),
    "ipu_strategy": (IPUStrategy, {}),
}


def test_registered_names_are_exactly_the_snapshot() -> None:
    assert set(StrategyRegistry.names()) == set(EXPECTED)


@pytest.mark.parametrize(
    ("name", "cls", "init_params"), [(n, c, p) for n, (c, p) in EXPECTED.items()], ids=list(EXPECTED)
)
def test_name_builds_its_class_with_its_presets(name: str, cls: type[Strategy], init_params: dict[str, Any]) -> None:
    entry = StrategyRegistry.entry(name)
    assert entry.cls is cls
    assert dict(entry.init_params) == init_params
    assert entry.name == name  # the key, not the class's canonical name (fsdp stays fsdp)

    strategy = StrategyRegistry.get(name)
    assert type(strategy) is cls
    assert strategy.registered_name == name
    for attribute, value in init_params.items():
        assert getattr(strategy, attribute) == value


@pytest.mark.parametrize("base", ["ddp_spawn", "ddp_fork", "ddp_notebook"])
def test_spawn_family_searches_unused_parameters_unless_the_name_says_false(base: str) -> None:
    # Lightning 1.7.0 built these rows in one loop and gave the plain names False too (fixed in 1.7.1).
    plain, variant = StrategyRegistry.get(base), StrategyRegistry.get(f"{base}_find_unused_parameters_false")
    assert isinstance(plain, DDPSpawnStrategy) and isinstance(variant, DDPSpawnStrategy)
    assert (plain.find_unused_parameters, variant.find_unused_parameters) == (True, False)
    assert (plain.ddp_kwargs["find_unused_parameters"], variant.ddp_kwargs["find_unused_parameters"]) == (True, False)


def test_descriptions_are_real_text_and_tell_aliases_apart() -> None:
    descriptions: dict[str, str] = {}
    for entry in StrategyRegistry:
        assert entry.description.strip(), entry.name
        assert entry.description not in {"ABCMeta", "type", type(entry.cls).__name__, entry.cls.__name__}
        descriptions[entry.name] = entry.description
    # Names with different presets must not read the same in a listing.
    assert descriptions["ddp"] != descriptions["ddp_find_unused_parameters_false"]
    assert descriptions["deepspeed_stage_3"] != descriptions["deepspeed_stage_3_offload"]


def test_get_applies_overrides_and_stamps_the_key() -> None:
    strategy = StrategyRegistry.get("DDP_Find_Unused_Parameters_False", process_group_backend="mpi")
    assert isinstance(strategy, DDPStrategy)
    assert (strategy.registered_name, strategy.process_group_backend) == ("ddp_find_unused_parameters_false", "mpi")


# -- the generic registry ---------------------------------------------------------------------


class Widget:
    """A widget for registry tests."""

    def __init__(self, size: int = 1) -> None:
        self.size = size


class OtherWidget(Widget):
    """Another widget."""


@pytest.fixture
def widgets() -> Registry[Widget]:
    registry: Registry[Widget] = Registry("widget", "widget")
    registry.register("small", Widget)
    registry.register("large", Widget, size=10)
    return registry


def test_identical_registration_is_a_noop(widgets: Registry[Widget]) -> None:
    widgets.register("large", Widget, size=10)
    assert widgets.names() == ["large", "small"]


@pytest.mark.parametrize(
    ("cls", "params"),
    [pytest.param(OtherWidget, {"size": 10}, id="other class"), pytest.param(Widget, {"size": 11}, id="other presets")],
)
def test_conflicting_registration_needs_override(
    widgets: Registry[Widget], cls: type[Widget], params: dict[str, Any]
) -> None:
    with pytest.raises(MisconfigurationException, match=r"'large' is already registered to Widget.*override=True"):
        widgets.register("large", cls, **params)
    widgets.register("large", cls, override=True, **params)
    assert widgets.entry("large").cls is cls
    assert dict(widgets.entry("large").init_params) == params


def test_lookup_ignores_case_and_an_unknown_name_lists_the_valid_ones(widgets: Registry[Widget]) -> None:
    assert (widgets.get("LARGE").size, widgets.entry("Small").name, "Small" in widgets) == (10, "small", True)
    with pytest.raises(
        MisconfigurationException, match=r"`widget='huge'` is not a known widget\. Valid names: large, sm"
    ):
        widgets.get("huge")


def test_register_table_registers_each_row(widgets: Registry[Widget]) -> None:
    widgets.register_table(OtherWidget, {"tiny": {"size": 0}, "other": {}})
    assert widgets.names_for(OtherWidget) == ["other", "tiny"]
    assert widgets.get("tiny").size == 0
    assert widgets.entry("tiny").description == "Another widget. [size=0]"
    assert widgets.entry("other").description == "Another widget."


def test_bad_registrations_are_user_errors(widgets: Registry[Widget]) -> None:
    with pytest.raises(MisconfigurationException, match="non-empty string"):
        widgets.register("", Widget)
    with pytest.raises(MisconfigurationException, match="Only classes"):
        widgets.register("instance", Widget())  # type: ignore[arg-type]


# -- subclasses and user registrations ---------------------------------------------------------


@pytest.fixture
def restore_strategies() -> Iterator[None]:
    """Remove the names a test adds to the global ``StrategyRegistry`` (tests here never override one)."""
    before = set(StrategyRegistry.names())
    yield
    for name in set(StrategyRegistry.names()) - before:
        StrategyRegistry.remove(name)


def _snapshot() -> dict[str, tuple[type[Strategy], dict[str, Any]]]:
    return {e.name: (e.cls, dict(e.init_params)) for e in StrategyRegistry}


@pytest.mark.usefixtures("restore_strategies")
def test_subclass_that_defines_nothing_registers_nothing() -> None:
    before = _snapshot()

    class QuietDDP(DDPStrategy):
        pass

    assert _snapshot() == before
    assert StrategyRegistry.names_for(QuietDDP) == []


@pytest.mark.usefixtures("restore_strategies")
def test_subclass_hook_registers_only_its_own_names() -> None:
    before = _snapshot()

    class TunedDDP(DDPStrategy):
        """DDP tuned for a test."""

        @classmethod
        def register_strategies(cls, registry: Registry[Strategy]) -> None:
            registry.register_table(cls, {"test_tuned_ddp": {"find_unused_parameters": False}})

    assert StrategyRegistry.names_for(TunedDDP) == ["test_tuned_ddp"]
    assert StrategyRegistry.names_for(DDPStrategy) == [
        "ddp",
        "ddp_find_unused_parameters_false",
        "ddp_find_unused_parameters_true",
    ]
    assert {k: v for k, v in _snapshot().items() if k != "test_tuned_ddp"} == before
    built = StrategyRegistry.get("test_tuned_ddp")
    assert type(built) is TunedDDP
    assert built.find_unused_parameters is False


@pytest.mark.usefixtures("restore_strategies")
def test_user_registers_a_subclass_in_one_line() -> None:
    class MyDDP(DDPStrategy):
        """My DDP."""

    StrategyRegistry.register("my_ddp", MyDDP)
    built = StrategyRegistry.get("my_ddp")
    assert type(built) is MyDDP
    assert built.registered_name == "my_ddp"
    assert StrategyRegistry.entry("my_ddp").description == "My DDP."
    assert StrategyRegistry.entry("ddp").cls is DDPStrategy


@pytest.mark.usefixtures("restore_strategies")
def test_a_subclass_cannot_take_a_builtin_name_by_accident() -> None:
    class Thief(DDPStrategy):
        pass

    with pytest.raises(MisconfigurationException, match="'ddp' is already registered to DDPStrategy"):
        StrategyRegistry.register("ddp", Thief)
    assert StrategyRegistry.entry("ddp").cls is DDPStrategy
