"""A typed name -> class registry shared by strategies and accelerators.

Entries are plain frozen records keyed by name. The stored name *is* the key, so aliases such as
``"fsdp"`` and ``"ddp_fully_sharded"`` each report the name the user asked for.
Registering the identical entry twice is a no-op (module reloads, repeated imports); registering a
different class or different arguments under a taken name is refused unless ``override=True``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from newcore.exceptions import MisconfigurationException

T = TypeVar("T")


@dataclass(frozen=True)
class RegistryEntry(Generic[T]):
    """One registered name: the class it builds and the arguments it presets."""

    name: str
    cls: type[T]
    description: str
    init_params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def build(self, **overrides: Any) -> T:
        """Instantiate the class with the preset arguments, ``overrides`` taking precedence."""
        return self.cls(**{**self.init_params, **overrides})


class Registry(Generic[T]):
    """Names of one kind of object (``kind`` is used in messages, e.g. ``"strategy"``)."""

    def __init__(self, kind: str, flag: str) -> None:
        self.kind = kind
        self.flag = flag
        self._entries: dict[str, RegistryEntry[T]] = {}

    def register(
        self,
        name: str,
        cls: type[T],
        *,
        description: str | None = None,
        override: bool = False,
        **init_params: Any,
    ) -> type[T]:
        """Register ``cls`` under ``name``, presetting ``init_params``. Returns ``cls``.

        Example::

            StrategyRegistry.register("my_ddp", MyDDP, description="DDP with my tweaks", find_unused_parameters=False)
        """
        if not isinstance(name, str) or not name:
            raise MisconfigurationException(f"A {self.kind} name must be a non-empty string, got {name!r}.")
        if not isinstance(cls, type):
            raise MisconfigurationException(f"Only classes can be registered as a {self.kind}, got {cls!r}.")
        key = name.lower()
        entry = RegistryEntry(
            name=key,
            cls=cls,
            description=description or _describe(cls, init_params),
            init_params=MappingProxyType(dict(init_params)),
        )
        existing = self._entries.get(key)
        if existing is not None and not override:
            if existing.cls is cls and dict(existing.init_params) == dict(init_params):
                return cls
            raise MisconfigurationException(
                f"The {self.kind} name {key!r} is already registered to {existing.cls.__qualname__}"
                f" with arguments {dict(existing.init_params)}; refusing to rebind it to {cls.__qualname__}."
                " Pass `override=True` to replace it, or pick another name."
            )
        self._entries[key] = entry
        return cls

    def register_table(self, cls: type[T], table: Mapping[str, Mapping[str, Any]]) -> type[T]:
        """Register ``cls`` under every name in ``table``, each presetting its own init arguments.

        One row per name keeps a class's names and their arguments readable at a glance::

            registry.register_table(MyDDP, {"my_ddp": {}, "my_ddp_static": {"static_graph": True}})
        """
        for name, init_params in table.items():
            self.register(name, cls, **init_params)
        return cls

    def remove(self, name: str) -> None:
        """Forget ``name`` (a no-op if it is not registered)."""
        self._entries.pop(name.lower(), None)

    def entry(self, name: str) -> RegistryEntry[T]:
        """The entry for ``name``; an unknown name is a user error listing the valid ones."""
        try:
            return self._entries[name.lower()]
        except KeyError:
            raise MisconfigurationException(
                f"`{self.flag}={name!r}` is not a known {self.kind}. Valid names: {', '.join(self.names())}."
            ) from None

    def get(self, name: str, **overrides: Any) -> T:
        """Build a new instance of the class registered under ``name``."""
        return self.entry(name).build(**overrides)

    def names(self) -> list[str]:
        """All registered names, sorted."""
        return sorted(self._entries)

    def names_for(self, cls: type[T]) -> list[str]:
        """The names registered to exactly ``cls`` (not to its subclasses or parents)."""
        return sorted(n for n, e in self._entries.items() if e.cls is cls)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._entries

    def __iter__(self) -> Iterator[RegistryEntry[T]]:
        return iter(self._entries[n] for n in self.names())

    def __len__(self) -> int:
        return len(self._entries)

    def __str__(self) -> str:
        return f"Registered {self.kind} names: {', '.join(self.names()) or 'none'}"


def _describe(cls: type[Any], init_params: Mapping[str, Any]) -> str:
    """The first line of the class docstring (else its name, never the metaclass name) and the presets.

    The presets tell aliases of one class apart, e.g. ``"ddp"`` from ``"ddp_find_unused_parameters_false"``.
    """
    doc = (cls.__doc__ or "").strip().splitlines()
    text = doc[0].strip() if doc else cls.__qualname__
    if init_params:
        text += f" [{', '.join(f'{k}={v!r}' for k, v in init_params.items())}]"
    return text


def register_own(cls: type[Any], hook: str, registry: Registry[Any]) -> None:
    """Call ``cls.<hook>(registry)`` only if ``cls`` defines the hook itself.

    Called from ``__init_subclass__``: a subclass that does not define the hook registers nothing,
    so it neither re-registers nor steals its parent's names (Lightning 1.6's inheritance bug).
    """
    if hook in vars(cls):
        getattr(cls, hook)(registry)
