"""All parsing of the ``devices=`` flag, in one place.

Accepted forms, as in Lightning 1.6:

* a positive ``int`` or a digit string (``2``, ``"2"``): that many devices;
* ``-1`` or ``"-1"``: every available device (index-based accelerators);
* a comma string or a sequence of ints (``"0,1"``, ``"1,"``, ``[0, 2]``): exactly those device indices;
* ``"auto"``: every available device (one process for the CPU).

Everything else is a :class:`MisconfigurationException` naming the value and the accelerator:
``0``, ``"0"``, ``[]``, negative counts, ``True``/``1.5``/``None`` where a device is required,
duplicate or out-of-range indices.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import torch

from newcore.exceptions import MisconfigurationException

#: What users may pass as ``devices=``.
DevicesFlag = int | str | Sequence[int]


def _bad(devices: object, accelerator: str, why: str) -> MisconfigurationException:
    return MisconfigurationException(f"`devices={devices!r}` is not valid for accelerator={accelerator!r}: {why}")


def _normalize(devices: object, accelerator: str) -> int | list[int] | str:
    """Turn every accepted spelling into a count (``int``), explicit indices (``list``) or ``"auto"``."""
    if isinstance(devices, bool) or devices is None:
        raise _bad(devices, accelerator, "pass a number of devices, a list of device indices or 'auto'.")
    if isinstance(devices, int):
        return devices
    if isinstance(devices, str):
        text = devices.strip().lower()
        if text == "auto":
            return "auto"
        if "," in text:
            parts = [p.strip() for p in text.split(",") if p.strip()]
            if not parts or not all(_is_int(p) for p in parts):
                raise _bad(devices, accelerator, "a comma list must hold device indices, e.g. '0,1'.")
            return [int(p) for p in parts]
        if _is_int(text):
            return int(text)
        raise _bad(devices, accelerator, "a string must be a number, a comma list of indices or 'auto'.")
    if isinstance(devices, Sequence) and not isinstance(devices, (bytes, bytearray)):
        items = list(devices)
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in items):
            raise _bad(devices, accelerator, "a list must hold integer device indices.")
        return items
    raise _bad(devices, accelerator, f"a {type(devices).__name__} is not a device specification.")


def _is_int(text: str) -> bool:
    # ASCII digits only: ``str.isdigit`` accepts "²" and ``lstrip("-")`` accepts "--1", both of which int() rejects.
    return re.fullmatch(r"-?[0-9]+", text) is not None


def parse_count(devices: object, *, accelerator: str, auto: int = 1) -> int:
    """Parse ``devices`` for an accelerator that counts processes or chips (CPU, IPU).

    ``"auto"`` gives ``auto``. Indices make no sense here and are refused.
    """
    value = _normalize(devices, accelerator)
    if value == "auto":
        return auto
    if isinstance(value, list):
        raise _bad(devices, accelerator, "this accelerator takes a number of devices, not device indices.")
    assert isinstance(value, int)
    if value <= 0:
        raise _bad(devices, accelerator, "the number of devices must be at least 1.")
    return value


def parse_indices(devices: object, *, accelerator: str, available: int) -> list[int]:
    """Parse ``devices`` for an index-based accelerator (CUDA, MPS) into a list of device indices.

    ``available`` is the number of devices the machine has; a request beyond it is an error
    that lists what is there.
    """
    value = _normalize(devices, accelerator)
    if value == "auto" or value == -1:
        if available <= 0:
            raise _bad(devices, accelerator, "no device of this kind is available.")
        return list(range(available))
    if isinstance(value, int):
        if value == 0:
            raise _bad(devices, accelerator, "0 devices were requested; pass at least 1 or choose accelerator='cpu'.")
        if value < 0:
            raise _bad(devices, accelerator, "a count must be positive, or -1 for all devices.")
        indices = list(range(value))
    else:
        assert isinstance(value, list)
        indices = value
        if not indices:
            raise _bad(devices, accelerator, "an empty list selects no device; pass at least one index.")
        if any(i < 0 for i in indices):
            raise _bad(devices, accelerator, "device indices cannot be negative.")
        if len(set(indices)) != len(indices):
            raise _bad(devices, accelerator, "device indices must not repeat.")
    missing = [i for i in indices if i >= available]
    if missing:
        have = list(range(available)) if available else "none"
        raise _bad(devices, accelerator, f"requested device indices {indices} but this machine has {have}.")
    return indices


def parse_tpu(devices: object, *, available: int) -> int | list[int]:
    """Parse ``devices`` for TPUs: ``1`` or ``8`` cores, or one core index (1-based, as in Lightning 1.x)."""
    value = _normalize(devices, "tpu")
    if isinstance(devices, str) and isinstance(value, int) and value not in (1, 8):
        # Lightning 1.x reads a lone string other than "1"/"8" as a core index: devices="2" is core 2.
        value = [value]
    if value == "auto":
        return available or 8
    if isinstance(value, int):
        if value not in (1, 8):
            raise _bad(devices, "tpu", "TPUs take 1 or 8 cores, or a single core index such as [5].")
        return value
    assert isinstance(value, list)
    if len(value) != 1 or not 1 <= value[0] <= 8:
        raise _bad(devices, "tpu", "TPUs take 1 or 8 cores, or a single core index in 1..8 such as [5].")
    return value


@functools.lru_cache(maxsize=256)
def device(kind: str, index: int | None = None) -> torch.device:
    """``torch.device(kind, index)``, built once: devices are immutable and the connector makes many per call."""
    return torch.device(kind, index) if index is not None else torch.device(kind)
