"""Architecture and set-up guards: import direction, torch-free codemods, README and CI agree."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: package -> top-level packages of this project it must never import.
FORBIDDEN = {
    "newcore": {"compat", "codemods", "legacy_api"},
    "compat": {"codemods"},
    "codemods": {"newcore", "compat", "torch"},
    "legacy_api": {"newcore", "compat", "codemods", "torch", "libcst"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_import_direction(package: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imports(path) & FORBIDDEN[package])
        for path in (ROOT / package).rglob("*.py")
        if _imports(path) & FORBIDDEN[package]
    }
    assert not offenders, f"{package} must not import {sorted(FORBIDDEN[package])}: {offenders}"


def test_importing_newcore_imports_no_optional_backend() -> None:
    code = (
        "import sys, newcore, newcore.strategies, newcore.plugins, newcore.accelerators;"
        "bad = [m for m in ('torch_xla', 'horovod', 'deepspeed', 'fairscale', 'apex', 'poptorch') if m in sys.modules];"
        "print(bad); sys.exit(bool(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, flags=re.S)
    assert len(blocks) >= 2, "README's first two bash blocks are the set-up: install + main job, then tests"
    test_command = blocks[1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_command in ci.splitlines(), f"{test_command!r} is not a line of .ci/run"


def _codemods_graph() -> dict[str, set[str]]:
    """codemods module -> the codemods modules it imports, at any depth of the file except TYPE_CHECKING blocks."""
    package = ROOT / "codemods"
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in package.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = {
            id(child)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for child in ast.walk(node)
        }
        edges: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    edges.add(sub if sub in modules else node.module)
            elif isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names)
        if "pkgutil.iter_modules" in path.read_text(encoding="utf-8"):  # a registry that imports its package
            edges.update(module for module in modules if module.startswith(f"{name}."))
        graph[name] = {edge for edge in edges if edge in modules and edge != name}
    return graph


def test_codemods_has_no_import_cycle() -> None:
    """Not even through imports inside functions: the pipeline reads one way (index -> plan -> edits -> write)."""
    graph = _codemods_graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles in codemods: " + "; ".join(" -> ".join(c) for c in cycles)
