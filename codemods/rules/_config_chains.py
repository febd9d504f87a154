"""The key path a config access spells in libcst (``cfg.trainer["x"].gpus``), read as the project index reads it from
``ast``: shared by the rules that rewrite config reads and stores (``config_reads``, ``config_stores``)."""

from __future__ import annotations

import libcst as cst


def key_path(node: cst.BaseExpression) -> list[str] | None:
    """``cfg.trainer["x"].gpus`` -> ["cfg", "trainer", "x", "gpus"] (attributes and string subscripts); None for
    anything else."""
    parts: list[str] = []
    while True:
        if isinstance(node, cst.Attribute):
            parts.append(node.attr.value)
            node = node.value
        elif isinstance(node, cst.Subscript) and len(node.slice) == 1:
            index = node.slice[0].slice
            if not (isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString)):
                return None
            value = index.value.evaluated_value
            if not isinstance(value, str):
                return None
            parts.append(value)
            node = node.value
        elif isinstance(node, cst.Name):
            parts.append(node.value)
            return list(reversed(parts))
        else:
            return None
