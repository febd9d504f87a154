"""The YAML front end's safety check: the output loads, and what the edits did not touch reads back equal.

Both streams are loaded as plain data; the keys a section's edits touched (removed, renamed, replaced or
added) and the strings that were renamed are taken out of both; what is left must compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.nodes import MappingNode, Node, SequenceNode


@dataclass(frozen=True)
class Touched:
    """What one set of edits may change: keys of the mapping at ``path`` (before / after), or the value there."""

    doc: int
    path: tuple[Any, ...]
    before: frozenset[str] = frozenset()
    after: frozenset[str] = frozenset()
    #: A string edit: the value at ``path`` itself changed.
    whole: bool = False


class Mismatch(Exception):
    """The rewrite changed something it should not have."""


_GONE = object()


class _Lenient(SafeConstructor):
    """The safe loader, except that a tag it does not know (``!!python/name:...``, ``!custom``) reads as
    (tag, content) instead of failing: the check compares data, it never builds objects."""


def _tagged(constructor: SafeConstructor, node: Node) -> Any:
    if isinstance(node, MappingNode):
        return (
            node.tag,
            [(constructor.construct_object(k, True), constructor.construct_object(v, True)) for k, v in node.value],
        )
    if isinstance(node, SequenceNode):
        return (node.tag, [constructor.construct_object(item, True) for item in node.value])
    return (node.tag, node.value)


_Lenient.add_constructor(None, _tagged)


def _load(text: str) -> list[Any]:
    yaml = YAML(typ="safe", pure=True)
    yaml.Constructor = _Lenient
    return list(yaml.load_all(text))


def _child(node: Any, key: Any) -> Any:
    if isinstance(node, dict):
        if key in node:
            return node[key]
        return next((v for k, v in node.items() if str(k) == str(key)), _GONE)
    if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
        return node[key]
    return _GONE


def _blank(docs: list[Any], touched: Touched, keys: frozenset[str]) -> list[Any]:
    if touched.doc >= len(docs):
        raise Mismatch("a document went missing")
    if touched.whole:
        parent_path, last = touched.path[:-1], touched.path[-1]
    else:
        parent_path, last = touched.path, None
    node = docs[touched.doc]
    for key in parent_path:
        node = _child(node, key)
        if node is _GONE:
            raise Mismatch(f"{'.'.join(map(str, touched.path))} went missing")
    if touched.whole:
        if isinstance(node, dict):
            node[next((k for k in node if str(k) == str(last)), last)] = None
        elif isinstance(node, list):
            node[last] = None
        return docs
    if not isinstance(node, dict):
        raise Mismatch(f"{'.'.join(map(str, touched.path)) or 'the document'} is no longer a mapping")
    for key in [k for k in node if str(k) in keys]:
        del node[key]
    return docs


def verify(before: str, after: str, touched: list[Touched]) -> None:
    """Raise :class:`Mismatch` unless ``after`` loads and equals ``before`` outside the ``touched`` parts."""
    if before == after:
        return
    old, new = _load(before), _load(after)
    if len(old) != len(new):
        raise Mismatch(f"{len(old)} documents became {len(new)}")
    # deepest paths first, so a section's keys go before a string inside them is looked up
    for item in sorted(touched, key=lambda t: -len(t.path)):
        _blank(old, item, item.before)
        _blank(new, item, item.after)
    if old != new:
        raise Mismatch("the rewrite changed keys or values outside the migrated ones")
