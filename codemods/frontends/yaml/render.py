"""Text for values the rules create: scalars written plainly unless YAML would read them otherwise.

Only new values are rendered here; a value the rules kept is never re-rendered (its original text stays).
New mappings (``class_path:``/``init_args:``) and lists come out as block text with the file's own
indentation, or as flow text inside a flow collection.
"""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any

from codemods.frontends.yaml.nodes import Style
from codemods.plan.model import UNKNOWN, Value
from legacy_api.renames import NEW_ROOT

#: Characters that cannot start a plain scalar (YAML indicators).
_INDICATORS = set("-?:,[]{}#&*!|>'\"%@`")
#: What a YAML 1.1 reader (PyYAML, so Hydra/OmegaConf) takes for a bool, a null or a number.
_YAML11 = re.compile(
    r"(?i:y|n|yes|no|on|off|true|false|null|~)|[-+]?[0-9_.:]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?i:inf|nan)"
    r"|[-+]?0[xob][0-9a-fA-F_]+"
)


class Unrenderable(Exception):
    """A value YAML cannot express (a function call such as ``find_usable_cuda_devices(2)``)."""


@functools.lru_cache(maxsize=512)
def _reads_as(text: str, flow: bool) -> Any:
    """What ``text`` reads as when written plainly as a value (UNKNOWN when it does not parse as one)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        loaded = YAML(typ="safe", pure=True).load(f"{{k: {text}, j: 0}}" if flow else f"k: {text}\nj: 0\n")
    except YAMLError:
        return UNKNOWN
    if not isinstance(loaded, dict) or len(loaded) != 2 or loaded.get("j") != 0:
        return UNKNOWN
    return loaded.get("k")


def scalar(lit: Any, flow: bool = False) -> str:
    """A scalar's YAML text: ``gpu``, ``16-mixed``, ``2``, ``true``, ``null``; strings YAML would misread quoted."""
    if lit is None:
        return "null"
    if isinstance(lit, bool):
        return "true" if lit else "false"
    if isinstance(lit, int):
        return str(lit)
    if isinstance(lit, float):
        if math.isnan(lit):
            return ".nan"
        if math.isinf(lit):
            return ".inf" if lit > 0 else "-.inf"
        return repr(lit)
    if not isinstance(lit, str):
        raise Unrenderable(repr(lit))
    if _plain(lit, flow):
        return lit
    if lit.isprintable():
        return "'" + lit.replace("'", "''") + "'"
    return json.dumps(lit)


def _plain(text: str, flow: bool) -> bool:
    if not text or text != text.strip() or not text.isprintable() or (text[0] in _INDICATORS and text[0] != "-"):
        return False
    if ": " in text or " #" in text or text.endswith(":") or (flow and any(c in text for c in ",[]{}")):
        return False
    if text.startswith("-") and (len(text) == 1 or text[1] == " "):
        return False
    if _YAML11.fullmatch(text):
        return False
    read = _reads_as(text, flow)
    return isinstance(read, str) and read == text


def data(value: Value, root: str, source: Any = None) -> Any:
    """The plain data a new value stands for; ``source(value)`` gives the text of values with original syntax."""
    if value.ctor is not None:
        path, kwargs = value.ctor
        if "" in kwargs or not path.rpartition(".")[2][:1].isupper():
            raise Unrenderable(f"{value.source or path}, a call, not a class YAML names,")
        init = {key: data(arg, root, source) for key, arg in kwargs.items()}
        out: dict[str, Any] = {"class_path": f"{NEW_ROOT[root]}.{path}"}
        if init:
            out["init_args"] = init
        return out
    if value.items is not None and value.node is None:
        return [data(item, root, source) for item in value.items]
    if value.node is not None:
        if source is None:
            raise Unrenderable("original syntax in a new value")
        return Verbatim(source(value))
    if value.lit is UNKNOWN:
        raise Unrenderable(value.source or "<expression>")
    return value.lit


class Verbatim(str):
    """Original text of a node that is copied into a new value as it is (a flow or one-line value)."""


def flow(item: Any) -> str:
    if isinstance(item, Verbatim):
        return str(item)
    if isinstance(item, dict):
        return "{" + ", ".join(f"{key}: {flow(value)}" for key, value in item.items()) + "}"
    if isinstance(item, list):
        return "[" + ", ".join(flow(value) for value in item) + "]"
    return scalar(item, flow=True)


def inline(item: Any, in_flow: bool) -> str:
    """A value on one line: flow text for collections, the original text for copied values."""
    if isinstance(item, dict | list):
        return flow(item)
    if isinstance(item, Verbatim):
        return str(item)
    return scalar(item, in_flow)


def block(key: str, item: Any, pad: str, style: Style) -> list[str]:
    """``key: item`` as block lines (no newlines) starting with ``pad``."""
    if isinstance(item, dict) and item:
        lines = [f"{pad}{key}:"]
        for name, value in item.items():
            lines.extend(block(name, value, pad + " " * style.step, style))
        return lines
    if isinstance(item, list) and item:
        lines = [f"{pad}{key}:"]
        dash = pad + " " * style.dash
        for value in item:
            lines.extend(sequence_item(value, dash, style))
        return lines
    return [f"{pad}{key}: {inline(item, False)}"]


def sequence_item(item: Any, dash: str, style: Style) -> list[str]:
    """One ``- item`` of a block sequence whose dash is at ``dash``."""
    if isinstance(item, dict) and item:
        lines: list[str] = []
        inner = dash + "  "
        for name, value in item.items():
            lines.extend(block(name, value, inner, style))
        lines[0] = dash + "- " + lines[0][len(inner) :]
        return lines
    return [f"{dash}- {flow(item)}"]
