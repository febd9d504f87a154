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


PACKAGES = ("newcore", "compat", "legacy_api", "codemods")


def _modules(package: str) -> dict[str, Path]:
    return {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module an ``ImportFrom`` names, relative imports resolved against ``module`` (at ``path``)."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    if path.name != "__init__.py":
        parts = parts[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def _graph(package: str) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports: every import statement at any depth of the file, those in
    functions and under ``if TYPE_CHECKING:`` included, and a registry's ``pkgutil`` discovery of its package."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        text = path.read_text(encoding="utf-8")
        edges: set[str] = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom):
                base = _absolute(name, path, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    edges.add(sub if sub in modules else base)
            elif isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names)
        if "pkgutil.iter_modules" in text:  # a registry that imports its package
            edges.update(module for module in modules if module.startswith(f"{name}."))
        graph[name] = {edge for edge in edges if edge in modules and edge != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
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
    return cycles


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package: str) -> None:
    """No module imports one that imports it back: not through an import inside a function, nor one under
    ``TYPE_CHECKING`` (two modules that need each other's types share a third that holds them)."""
    cycles = _cycles(_graph(package))
    assert not cycles, f"import cycles in {package}: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_sees_what_it_must() -> None:
    """The graph counts imports in functions, under TYPE_CHECKING, relative ones and pkgutil discovery."""
    graph = _graph("codemods")
    assert "codemods.frontends.python.context" in graph["codemods.rules.trainer_subclasses"]  # TYPE_CHECKING
    assert "codemods.rules.device_flags" in graph["codemods.rules"]  # pkgutil discovery
    assert "codemods.frontends.notebooks.notebook" in graph["codemods.project.scan"]  # in a function
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


#: A module may not grow past this: split it along a seam, one concept a module.
MAX_LINES = 400


def test_no_module_over_the_line_limit() -> None:
    paths = [
        path
        for package in (*PACKAGES, "tools")
        for path in sorted((ROOT / package).rglob("*.py"))
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)  # tools/reference/.venvs: installs
    ]
    long = {str(path.relative_to(ROOT)): n for path in paths if (n := len(path.read_bytes().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


#: The stages of ``codemods`` in import order: a module imports only modules of its own stage or of one before it.
#: A module is in the stage of the longest prefix that names it. The folders are the stages, with two refinements
#: that the code's real dependencies need: the Python front end's rule API (what a rule's hooks are given and read
#: values with) comes before the rules, as libcst comes before a LibCST codemod; and phase one's decisions, which
#: plan a config's sections and commands with the rules, come after the rules and the loop over them.
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("shared data and files", ("codemods", "codemods.model", "codemods.kinds", "codemods.files")),
    ("plan", ("codemods.plan",)),
    ("phase one: the index", ("codemods.project",)),
    (
        "the Python front end's rule API",
        tuple(
            f"codemods.frontends.python.{name}"
            for name in (
                "context",
                "qualnames",
                "bindings",
                "guards",
                "checkpoint_objects",
                "values",
                "device_count",
                "imports",
                "chunks",
                "layout",
            )
        ),
    ),
    ("rules, and the loop over them", ("codemods.rules", "codemods.plan.apply_rules")),
    (
        "phase one: decisions that need the whole project",
        tuple(
            f"codemods.project.{name}"
            for name in (
                "decisions",
                "guard",
                "section_plans",
                "moved_reads",
                "moved_stores",
                "schema_plans",
                "command_plans",
                "command_analysis",
                "section_fates",
            )
        ),
    ),
    ("front ends", ("codemods.frontends",)),
    ("the run and its output", ("codemods.runner", "codemods.cli", "codemods.report")),
)
#: Imports that run back up a stage, each with why.
BACK_EDGES = {
    ("codemods.project.scan_file", "codemods.frontends.notebooks.shell"): (
        "phase one reads a notebook's command lines from its cells, as the notebook front end rewrites them (imported"
        " only for a notebook)"
    ),
    ("codemods.project.scan", "codemods.frontends.notebooks.notebook"): (
        "phase one reads a notebook's code cells for the classes they define (imported only for a notebook that"
        " names a strategy)"
    ),
}


def _stage(module: str) -> int:
    found = [
        (len(prefix), index)
        for index, (_, prefixes) in enumerate(STAGES)
        for prefix in prefixes
        if module == prefix or (prefix != "codemods" and module.startswith(f"{prefix}."))
    ]
    assert found, f"{module} is in no stage of STAGES"
    return max(found)[1]


def test_codemods_stages_import_only_earlier_stages() -> None:
    graph = _graph("codemods")
    back = sorted(
        f"{module} ({STAGES[_stage(module)][0]}) -> {target} ({STAGES[_stage(target)][0]})"
        for module, targets in graph.items()
        for target in targets
        if _stage(target) > _stage(module) and (module, target) not in BACK_EDGES
    )
    assert not back, "imports that run back up the pipeline: " + "; ".join(back)
    unused = [edge for edge in BACK_EDGES if edge[1] not in graph.get(edge[0], set())]
    assert not unused, f"BACK_EDGES lists imports that no longer exist: {unused}"


def test_tests_mirror_the_codemods_folders() -> None:
    """Each stage folder of codemods has its test folder; each rule its own test file (django-upgrade's layout)."""
    folders = sorted(
        path.relative_to(ROOT / "codemods")
        for path in (ROOT / "codemods").rglob("*")
        if path.is_dir() and (path / "__init__.py").is_file()
    )
    missing = [str(folder) for folder in folders if not (ROOT / "tests" / "codemods" / folder).is_dir()]
    assert not missing, f"codemods folders without tests/codemods/<folder>: {missing}"
