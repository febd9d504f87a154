"""Lightning 1.5's ``TrainingTypePluginsRegistry`` and ``register_plugins`` hook, on newcore's StrategyRegistry.

There is one registry: a name registered through the old API is a strategy name newcore accepts, and
every newcore strategy name is visible through the old API.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from compat._rows import ALIASES
from compat._warn import Notice
from newcore.exceptions import MisconfigurationException
from newcore.strategies import Strategy, StrategyRegistry


class UnknownPluginError(MisconfigurationException, KeyError):
    """An unknown name: a ``KeyError`` as in Lightning 1.5, and newcore's ``MisconfigurationException``."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class LegacyPluginsRegistry:
    """The 1.5 interface (``register``/``get``/``remove``/``available_plugins``/item access) over StrategyRegistry."""

    def register(
        self,
        name: str,
        plugin: type[Strategy] | None = None,
        description: str | None = None,
        override: bool = False,
        **init_params: Any,
    ) -> Any:
        """Register ``plugin`` under ``name``; without ``plugin``, return a class decorator (as 1.5 did)."""
        if plugin is None:

            def decorator(cls: type[Strategy]) -> type[Strategy]:
                StrategyRegistry.register(name, cls, description=description, override=override, **init_params)
                return cls

            return decorator
        return StrategyRegistry.register(name, plugin, description=description, override=override, **init_params)

    def get(self, name: str, default: Any = None) -> Any:
        """A new instance of the strategy registered as ``name``, else ``default``, else an error."""
        if name in StrategyRegistry:
            return StrategyRegistry.get(name)
        if default is not None:
            return default
        raise UnknownPluginError(f"'{name}' not found in registry. {StrategyRegistry}")

    def remove(self, name: str) -> None:
        StrategyRegistry.remove(name)

    def available_plugins(self) -> list[str]:
        return StrategyRegistry.names()

    def __getitem__(self, name: str) -> dict[str, Any]:
        if name not in StrategyRegistry:
            raise UnknownPluginError(f"'{name}' not found in registry. {StrategyRegistry}")
        entry = StrategyRegistry.entry(name)
        return {"plugin": entry.cls, "description": entry.description, "init_params": dict(entry.init_params)}

    def __contains__(self, name: object) -> bool:
        return name in StrategyRegistry

    def __iter__(self) -> Iterator[str]:
        return iter(StrategyRegistry.names())

    def __len__(self) -> int:
        return len(StrategyRegistry)

    def __str__(self) -> str:
        return f"Registered Plugins: {', '.join(StrategyRegistry.names())}"


@functools.cache
def legacy_plugins_registry() -> LegacyPluginsRegistry:
    """The single legacy registry object (``compat.plugins.TrainingTypePluginsRegistry``)."""
    return LegacyPluginsRegistry()


def register_plugins_notice(class_name: str) -> Notice:
    """The warning for a class that defines the 1.5 ``register_plugins`` hook."""
    row = ALIASES["plugins.TrainingTypePluginsRegistry"]
    return Notice(
        f"`{class_name}.register_plugins(plugin_registry)`",
        "`register_strategies(cls, strategy_registry)`",
        row.deprecated_in,
        row.removed_in,
    )


#: Hooks that build the replacement object of a row whose new object is not a class.
OBJECT_FACTORIES: dict[str, Callable[[], Any]] = {"StrategyRegistry": legacy_plugins_registry}
