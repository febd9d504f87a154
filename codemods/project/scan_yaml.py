"""The project index's YAML configs: their top-level Trainer sections (a ``trainer:`` key, a ``trainer/`` group
file), ``${trainer.x}`` interpolations and override lists, and strategy plugins named outside a Trainer section.
Comments are not uses. Standard library only.
"""

from __future__ import annotations

import os
import re

from codemods.project.index import STRATEGY_PLUGIN, FileIndex, SectionKeys, Use
from codemods.project.scan_text import _line_of, _line_starts, text_facts, text_uses
from legacy_api.renames import STRATEGY_CLASSES

#: A strategy plugin named in a config (``class_path: pytorch_lightning.plugins.DeepSpeedPlugin``, a Hydra
#: ``_target_``): Hydra may compose it into a trainer section of another file.
_PLUGIN_TARGET = re.compile(
    r"(?:_target_|class_path)\s*:\s*[\"']?pytorch_lightning\.(?:plugins|strategies)(?:\.\w+)*\.(\w+(?:Plugin|Strategy))\b"
)


_OWN_TRAINER = re.compile(r"^trainer\s*:", re.MULTILINE)


_TOP_KEY = re.compile(r"^([A-Za-z_]\w*)\s*:(?:\s+(.*?))?\s*$")


_DOCUMENT_MARK = re.compile(r"^(?:---|\.\.\.)(?:\s|$)")
_DEFAULTS = re.compile(r"^defaults\s*:")


def _documents(code: str) -> list[list[str]]:
    """The lines of each document of a YAML stream (``---`` starts one, ``...`` ends one)."""
    documents: list[list[str]] = [[]]
    for line in code.split("\n"):
        if _DOCUMENT_MARK.match(line):
            documents.append([])
        else:
            documents[-1].append(line)
    return [lines for lines in documents if any(line.strip() for line in lines)]


#: A top-level key that may hold a Trainer section under another name (``trainer_params:``, ``pl_trainer:``):
#: indexed as one, and used as one where the project splats it into a Trainer (``ProjectIndex.keyed_sections``).
_KEYED = re.compile(r"^(\w*trainer\w*)[ \t]*:(.*)$", re.MULTILINE | re.IGNORECASE)
#: The item a keyed section written otherwise than as a plain block gets (``trainer_params: {gpus: 0}``, an anchor,
#: an alias, a merge key): what it holds is not read here, so no read of its keys may move.
UNREAD = "<unread>"


def keyed_sections(code: str, path: str) -> list[SectionKeys]:
    """The mappings of a config under top-level keys that name a Trainer other than ``trainer:`` itself
    (``trainer_params:``; comments already removed), each as a :class:`SectionKeys` of that ``key``; one written
    otherwise than as a block of plain keys holds the one item :data:`UNREAD`."""
    found: list[SectionKeys] = []
    for name, rest in sorted({(m.group(1), m.group(2).strip()) for m in _KEYED.finditer(code)}):
        if name == "trainer":
            continue
        block = [] if rest else yaml_sections(code, path, name)
        plain = block and all(re.fullmatch(r"\w+", key) for section in block for key, _ in section.items)
        found.extend(block if plain else [SectionKeys(path, ((UNREAD, rest),), key=name)])
    return found


def yaml_sections(code: str, path: str, key: str = "trainer") -> list[SectionKeys]:
    """The top-level Trainer sections of a config (comments already removed): a ``trainer/`` group file's
    top-level keys, or the keys one level under a top-level ``trainer:`` (``key``), in each document of the
    stream."""
    parts = path.replace("\\", "/").split("/")
    group = key == "trainer" and len(parts) >= 2 and parts[-2] == "trainer"
    found: list[SectionKeys] = []
    for lines in _documents(code)[:1] if group else _documents(code):
        composed = any(_DEFAULTS.match(line) for line in lines)
        if group:
            body, indent = lines, 0
        else:
            start = next((i for i, line in enumerate(lines) if re.match(rf"^{re.escape(key)}\s*:\s*$", line)), None)
            if start is None:
                continue
            body = []
            for line in lines[start + 1 :]:
                if line.strip() and not line[:1].isspace():
                    break
                body.append(line)
            indents = [len(line) - len(line.lstrip(" ")) for line in body if line.strip()]
            if not indents:
                continue
            indent = min(indents)
        items: list[tuple[str, str]] = []
        nested: dict[str, list[str]] = {}
        current: str | None = None
        inner: int | None = None
        for line in body:
            depth = len(line) - len(line.lstrip(" "))
            if not line.strip() or line.lstrip().startswith("#") or depth < indent:
                continue
            if depth == indent:
                match = _TOP_KEY.match(line[indent:])
                current, inner = None, None
                if match and match.group(1) not in ("defaults", "_target_"):
                    items.append((match.group(1), match.group(2) or ""))
                    current = match.group(1) if not match.group(2) else None
                continue
            if current is not None:
                inner = depth if inner is None else inner
                match = _TOP_KEY.match(line[depth:]) if depth == inner else None
                if match:
                    nested.setdefault(current, []).append(match.group(1))
        if items:
            below = tuple((key, tuple(keys)) for key, keys in nested.items())
            found.append(SectionKeys(path, tuple(items), composed, below, key))
    return found


#: An entry of a top-level ``defaults:`` list: ``- base``, ``- model: resnet``, ``- override hydra/launcher: x``,
#: ``- db@backup: mysql``, ``- /group: x``.
_DEFAULTS_ENTRY = re.compile(r"^[ \t]+-[ \t]+(?:override[ \t]+)?/?([\w./-]+)(?:@[\w.]*)?(?:[ \t]*(:))?")
#: A group entry's chosen option (``- plugins: deepspeed`` -> ``deepspeed``).
_OPTION = re.compile(r"^[ \t]+-[ \t]+(?:override[ \t]+)?/?[\w./-]+(?:@[\w.]*)?[ \t]*:[ \t]*([\w./-]+)[ \t]*(?:#.*)?$")


def composes_facts(text: str, path: str) -> tuple[str, ...]:
    """Facts ``composes:<path>`` for what a config's ``defaults:`` list composes into it: ``composes:conf/base``
    for ``- base`` (a config beside it), ``composes:conf/model/`` for ``- model: resnet`` (any config of the group
    ``model``, which a command may pick instead); :meth:`codemods.project.index.ProjectIndex.composed_into` reads
    them. Hydra's own groups (``hydra/...``) and ``_self_`` compose no Trainer section of the project."""
    if "defaults" not in text:
        return ()
    folder = os.path.dirname(path)
    found: set[str] = set()
    inside = False
    for line in text.split("\n"):
        if _DEFAULTS.match(line):
            inside = True
            continue
        if inside and line.strip() and not line[:1].isspace():
            inside = False
        if not inside:
            continue
        match = _DEFAULTS_ENTRY.match(line)
        if match is None or match.group(1) in ("_self_",) or match.group(1).startswith("hydra"):
            continue
        place = os.path.normpath(os.path.join(folder, match.group(1)))
        found.add(f"composes:{place}/" if match.group(2) else f"composes:{place}")
        # and which file composes what (``codemods.project.section_plans.composed_strategies``)
        option = _OPTION.match(line)
        chosen = f"{place}/{option.group(1)}" if option is not None else place if not match.group(2) else ""
        if chosen:
            found.add(f"composes-from:{os.path.normpath(path)}>{os.path.normpath(chosen)}")
    return tuple(sorted(found))


_PACKAGE_LINE = re.compile(r"^#[ \t]*@package\b", re.MULTILINE)
_PACKAGE_ENTRY = re.compile(r"^[ \t]+-[ \t]+(?:override[ \t]+)?/?[\w./-]*@", re.MULTILINE)


def package_facts(text: str, path: str) -> tuple[str, ...]:
    """Facts on where Hydra puts a config's content: ``packaged:<path>`` for a file with its own ``# @package``
    line (``_global_``: its ``trainer:`` is the run's), ``package-directive`` for a defaults list that moves a group
    with ``@`` (``- model@trainer: x``); ``codemods.project.config_loads.packaged_away`` reads them."""
    found = []
    if "@package" in text and _PACKAGE_LINE.search(text):
        found.append(f"packaged:{os.path.normpath(path)}")
    if "@" in text and "defaults" in text and _PACKAGE_ENTRY.search(text):
        found.append("package-directive")
    return tuple(found)


def _without_comments(line: str) -> str:
    """A YAML line up to its comment: a ``#`` at the start or after a blank, outside quotes."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index]
    return line


def yaml_uses(text: str, path: str) -> FileIndex:
    """A YAML file's ``${trainer.x}`` interpolations and override lists (Hydra ``overrides:``, test configs).

    Comments are not uses: a TODO this tool wrote (which names ``trainer.gpus``) must not block the next run.
    """
    code = "\n".join(_without_comments(line) for line in text.split("\n"))
    # ${trainer.x} in a file with its own trainer section refers to that section, which migrates it in step.
    own_section = _OWN_TRAINER.search(code) is not None
    uses = text_uses(code, path, interpolations=not own_section)
    found = yaml_sections(code, path) if own_section or "/trainer/" in f"/{path}" else []
    if "Plugin" in code or "Strategy" in code:
        starts = _line_starts(code)
        # Only a plugin outside any trainer section counts: one inside a section moves to its strategy with it.
        in_group = "plugins" in path.replace("\\", "/").split("/")[:-1]
        trainer_file = own_section or "Trainer" in code or "/trainer/" in f"/{path}"
        uses.extend(
            Use(STRATEGY_PLUGIN, path, _line_of(starts, match.start()), "strategy_plugin")
            for match in _PLUGIN_TARGET.finditer(code)
            if match.group(1) in STRATEGY_CLASSES
            and (in_group or (not trainer_file and _under_plugins(code, match.start())))
        )
    keyed = tuple(keyed_sections(code, path)) if "rainer" in code else ()
    return FileIndex(uses=tuple(uses), sections=tuple(found), facts=text_facts(code, path), keyed=keyed)


def _under_plugins(code: str, offset: int) -> bool:
    """Whether the line at ``offset`` sits in a ``plugins:`` block (its nearest less indented key is ``plugins``)."""
    lines = code[:offset].split("\n")
    current = lines[-1] if lines else ""
    indent = len(current) - len(current.lstrip(" -"))
    for line in reversed(lines[:-1]):
        stripped = line.strip()
        if not stripped:
            continue
        depth = len(line) - len(line.lstrip(" -"))
        if depth < indent or (
            depth == indent and not line.lstrip().startswith("-") and current.lstrip().startswith("-")
        ):
            return stripped.startswith("plugins:")
    return False
