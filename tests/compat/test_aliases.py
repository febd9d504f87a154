"""Old names, generated from the renames table: importable at the old path, one warning, same behaviour."""

from __future__ import annotations

import importlib
import pickle
import warnings
from typing import Any

import pytest

import newcore
from compat import CompatDeprecationWarning
from compat._rows import ALIASES, ENUMS, LOCAL_ENUMS, LOCAL_NEW_TARGETS, LOCAL_PROPERTIES, PROPERTIES, Alias
from compat.modules import new_object
from legacy_api.renames import version_tuple

CLASS_ROWS = [a for a in ALIASES.values() if a.kind == "class" and a.warns]
MODULE_ROWS = [a for a in ALIASES.values() if a.kind == "module"]
ENTRY_POINTS = [a for a in ALIASES.values() if a.kind == "class" and not a.warns]


def import_old(old: str) -> Any:
    """``from compat.<module> import <name>``, exactly as user code spells it."""
    module, _, name = f"compat.{old}".rpartition(".")
    namespace: dict[str, Any] = {}
    exec(compile(f"from {module} import {name} as value", "user_code.py", "exec"), namespace)
    return namespace["value"]


@pytest.mark.parametrize("alias", CLASS_ROWS, ids=lambda a: a.old)
def test_old_name_imports_with_exactly_one_warning(alias: Alias) -> None:
    with pytest.warns(CompatDeprecationWarning) as record:
        import_old(alias.old)
    assert len(record) == 1
    message = str(record[0].message)
    assert message.startswith(f"`compat.{alias.old}` is deprecated as of Lightning {alias.deprecated_in}")
    assert f"will be removed in lightning-migrate {alias.removed_in}." in message
    assert f"Use `newcore.{alias.new}` instead." in message
    assert (record[0].filename, record[0].lineno) == ("user_code.py", 1)


@pytest.mark.parametrize("alias", CLASS_ROWS, ids=lambda a: a.old)
def test_old_name_behaves_like_the_new_one(alias: Alias) -> None:
    with pytest.warns(CompatDeprecationWarning):
        old = import_old(alias.old)
    new = new_object(alias.new or "")
    if isinstance(new, type):
        assert issubclass(old, new) and issubclass(new, old)
        # An instance of the new class is an instance of the old name (built without running __init__).
        assert isinstance(object.__new__(new), old)
    else:
        assert "ddp" in old and old.get("ddp").__class__.__name__ == "DDPStrategy"


@pytest.mark.parametrize("alias", MODULE_ROWS, ids=lambda a: a.old)
def test_old_module_imports_silently(alias: Alias) -> None:
    module = importlib.import_module(f"compat.{alias.old}")
    assert module.__name__ == f"compat.{alias.old}"


@pytest.mark.parametrize("alias", [a for a in MODULE_ROWS if a.warns], ids=lambda a: a.old)
def test_other_names_of_a_deprecated_module_forward_with_a_warning(alias: Alias) -> None:
    new_module = new_object(alias.new or "")
    public = sorted(n for n in dir(new_module) if not n.startswith("_") and isinstance(getattr(new_module, n), type))
    module = importlib.import_module(f"compat.{alias.old}")
    with pytest.warns(CompatDeprecationWarning, match=f"`compat.{alias.old}` is deprecated") as record:
        value = getattr(module, public[0])
    assert len(record) == 1 and value is getattr(new_module, public[0])


@pytest.mark.parametrize("alias", ENTRY_POINTS, ids=lambda a: a.old)
def test_compat_entry_points_import_without_warning(alias: Alias) -> None:
    if alias.old == "Runner" and not hasattr(newcore, "Runner"):
        pytest.skip("newcore.Runner is not there yet, so neither is compat.Runner")
    assert import_old(alias.old) is not None


def test_every_old_path_gives_the_same_class() -> None:
    with pytest.warns(CompatDeprecationWarning):
        a = import_old("plugins.DDPPlugin")
        b = import_old("plugins.training_type.DDPPlugin")
        c = import_old("plugins.training_type.ddp.DDPPlugin")
    assert a is b is c
    assert (a.__module__, a.__qualname__) == ("compat.plugins.training_type.ddp", "DDPPlugin")


def test_alias_instances_pickle_and_work_as_strategies(machine: Any) -> None:
    import compat
    from newcore.strategies import DDPStrategy

    machine(cuda=2)
    with pytest.warns(CompatDeprecationWarning) as record:
        plugin_cls = import_old("plugins.DDPPlugin")
        plugin = plugin_cls(find_unused_parameters=False)
        connector = compat.AcceleratorConnector(accelerator="gpu", devices=2, strategy=plugin)
    assert len(record) == 2  # the import, the instantiation
    assert connector.strategy is plugin and isinstance(plugin, DDPStrategy)
    assert [str(d) for d in connector.parallel_devices] == ["cuda:0", "cuda:1"]
    with warnings.catch_warnings():  # pickled by its row, not its old path: a spawned worker repeats no warning
        warnings.simplefilter("error")
        assert pickle.loads(pickle.dumps(plugin)).__class__ is pickle.loads(pickle.dumps(plugin_cls)) is plugin_cls


def test_user_subclass_of_an_alias_warns_at_its_class_statement_then_is_a_plain_class() -> None:
    from newcore.strategies import DDPStrategy

    with pytest.warns(CompatDeprecationWarning):
        base = import_old("plugins.DDPPlugin")
    with pytest.warns(CompatDeprecationWarning, match="DDPPlugin") as record:

        class MyDDP(base):  # type: ignore[misc, valid-type]
            pass

    assert len(record) == 1 and record[0].filename == __file__
    mine = MyDDP()  # the user's own class: no further warning
    assert isinstance(mine, DDPStrategy) and isinstance(mine, base)
    assert not isinstance(DDPStrategy(), MyDDP)


def test_register_plugins_hook_registers_through_the_legacy_registry() -> None:
    from newcore.strategies import StrategyRegistry

    with pytest.warns(CompatDeprecationWarning):
        base = import_old("plugins.DDPPlugin")
    with pytest.warns(CompatDeprecationWarning) as record:

        class Legacy(base):  # type: ignore[misc, valid-type]
            @classmethod
            def register_plugins(cls, plugin_registry: Any) -> None:
                plugin_registry.register("legacy_ddp_test", cls, description="legacy", find_unused_parameters=False)

    assert [str(w.message).split(" is ")[0] for w in record] == [
        "`compat.plugins.training_type.ddp.DDPPlugin`",
        "`Legacy.register_plugins(plugin_registry)`",
    ]
    try:
        assert StrategyRegistry.entry("legacy_ddp_test").cls is Legacy
        built = StrategyRegistry.get("legacy_ddp_test")
        assert isinstance(built, Legacy) and built.find_unused_parameters is False
    finally:
        StrategyRegistry.remove("legacy_ddp_test")


def test_legacy_registry_keeps_the_1_5_interface() -> None:
    with pytest.warns(CompatDeprecationWarning):
        registry = import_old("plugins.TrainingTypePluginsRegistry")
    assert "ddp_spawn" in registry and "ddp_spawn" in registry.available_plugins()
    assert registry["ddp"]["init_params"] == {}
    with pytest.raises(KeyError, match="'nope' not found in registry"):
        registry.get("nope")
    assert registry.get("nope", default="fallback") == "fallback"


def test_unknown_old_name_is_an_attribute_error() -> None:
    import compat.plugins

    with pytest.raises(AttributeError, match="has no attribute 'NoSuchPlugin'"):
        _ = compat.plugins.NoSuchPlugin


# -- removal: dead shims cannot linger -------------------------------------------------------------------------
REMOVABLE = [(f"compat.{a.old}", a.removed_in) for a in ALIASES.values() if a.warns]
REMOVABLE += [(f"compat.{name}", "2.0.0") for name in ENUMS]
REMOVABLE += [(f"connector.{p.old}", "2.0.0") for p in PROPERTIES.values()]


@pytest.mark.parametrize(("old", "removed_in"), REMOVABLE, ids=[r[0] for r in REMOVABLE])
def test_shim_is_dropped_by_its_release(old: str, removed_in: str) -> None:
    assert version_tuple(newcore.__version__) < version_tuple(removed_in), (
        f"{old} was due to be removed in lightning-migrate {removed_in}; this is {newcore.__version__}."
        " Delete the shim (and its row) now."
    )


def test_local_fallback_rows_are_still_missing_from_the_table() -> None:
    """A local row the renames table has since gained must be deleted here (one source of truth)."""
    from legacy_api.renames import ENUM_MEMBERS, RENAMES, TRAINER_PROPERTIES

    table_props = {p.old for p in TRAINER_PROPERTIES}
    assert not {p.old for p in LOCAL_PROPERTIES} & table_props
    assert not set(LOCAL_ENUMS) & set(ENUM_MEMBERS)
    table_targets = {row.new for row in RENAMES}
    assert not set(LOCAL_NEW_TARGETS.values()) & table_targets - {"plugins.precision.amp.MixedPrecisionPlugin"}
