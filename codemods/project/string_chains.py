"""A command line built by adding strings (torchgeo's sweeps): ``"python train.py" + f" x={x}" + " trainer.gpus=1"``.

Each string literal is read as a command of its own (``codemods.project.scan_python``), so an override in a later
literal would run no known script. The literals of one ``+`` chain are one command: the script its text names
before an override holds for the overrides of every literal after it. Standard library only.
"""

from __future__ import annotations

import ast

from codemods.project.command_scripts import command_script


def _leaves(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_leaves(node.left), *_leaves(node.right)]
    return [node]


def _text(node: ast.expr) -> str | None:
    """A literal's text, an f-string's literal parts (its fields as ``_``); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(part.value) if isinstance(part, ast.Constant) else "_" for part in node.values)
    return None


def chain_scripts(node: ast.BinOp) -> dict[int, str]:
    """``id`` of each string literal of the ``+`` chain ``node`` that comes after the script its text names, with
    that script, and of each addition inside the chain, with "" (it needs no reading again); only the additions
    where the chain holds anything but strings or names no script."""
    inner = {id(child): "" for child in ast.walk(node) if isinstance(child, ast.BinOp) and child is not node}
    leaves = _leaves(node)
    texts = [_text(leaf) for leaf in leaves]
    if len(leaves) < 2 or any(text is None for text in texts) or not any("trainer." in (t or "") for t in texts):
        return inner
    found: dict[int, str] = inner
    seen = ""
    script = ""
    for leaf, text in zip(leaves, texts, strict=True):
        if script and isinstance(leaf, ast.Constant):
            found[id(leaf)] = script
        seen += text or ""
        script = script or command_script(seen)
    return found
