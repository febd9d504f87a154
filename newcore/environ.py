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


def _storage() -> tuple[dict[Any, Any], Any, Any] | None:
    env = os.environ
    data = getattr(env, "_data", None)
    encode = getattr(env, "encodekey", None)
    decode = getattr(env, "decodevalue", None)
    if isinstance(data, dict) and encode is not None and decode is not None:
        return data, encode, decode
    return None


def has(name: str) -> bool:
    """``name in os.environ``."""
    storage = _storage()
    if storage is None:
        return name in os.environ
    data, encode, _ = storage
    return encode(name) in data


@overload
def get(name: str) -> str | None: ...
@overload
def get(name: str, default: str) -> str: ...
def get(name: str, default: str | None = None) -> str | None:
    """``os.environ.get(name, default)``."""
    storage = _storage()
    if storage is None:
        return os.environ.get(name, default)
    data, encode, decode = storage
    value = data.get(encode(name))
    return default if value is None else str(decode(value))
