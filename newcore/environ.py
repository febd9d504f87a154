"""Fast reads of ``os.environ`` for the connector's hot path.

``name in os.environ`` costs about a microsecond on CPython: ``os._Environ`` encodes the key and,
for a missing one, raises and catches a ``KeyError`` inside. Cluster detection asks a dozen such
questions on every connector construction, which made them its largest cost. These helpers look the
encoded key up in ``os.environ``'s own storage, the very dict that ``os.environ`` reads and writes
(so they are never stale, and ``monkeypatch.setenv`` is seen), and fall back to the public mapping
where that storage does not exist.
"""

from __future__ import annotations

import os
from typing import Any, overload


class _Storage:
    """``os.environ``'s dict and key codec, re-read only when ``os.environ`` itself is replaced."""

    def __init__(self) -> None:
        self.env: object = None
        self.data: dict[Any, Any] | None = None
        self.encode: Any = None
        self.decode: Any = None
        self.keys: dict[str, Any] = {}

    def current(self) -> _Storage | None:
        env = os.environ
        if env is not self.env:
            data, encode, decode = (getattr(env, a, None) for a in ("_data", "encodekey", "decodevalue"))
            ok = isinstance(data, dict) and encode is not None and decode is not None
            self.env, self.data, self.decode = env, data if ok else None, decode
            self.encode, self.keys = encode, {}
        return self if self.data is not None else None

    def key(self, name: str) -> Any:
        # Encoding costs as much as the lookup; the names asked for are a few constants.
        try:
            return self.keys[name]
        except KeyError:
            encoded = self.keys[name] = self.encode(name)
            return encoded


_STORAGE = _Storage()


def has(name: str) -> bool:
    """``name in os.environ``."""
    storage = _STORAGE.current()
    if storage is None:
        return name in os.environ
    assert storage.data is not None
    return storage.key(name) in storage.data


@overload
def get(name: str) -> str | None: ...
@overload
def get(name: str, default: str) -> str: ...
def get(name: str, default: str | None = None) -> str | None:
    """``os.environ.get(name, default)``."""
    storage = _STORAGE.current()
    if storage is None:
        return os.environ.get(name, default)
    assert storage.data is not None
    value = storage.data.get(storage.key(name))
    return default if value is None else str(storage.decode(value))
