"""Generate a benchmark tree: legacy Lightning-style modules and configs plus a copy of a big clean tree.

    python benchmarks/make_tree.py [--files 100] [--seed 0] [--clean torch] [--out DIR]

Layout of the result (printed on stdout):

* ``legacy/pkg_NN/mod_NNN.py``: modules of 150-1,600 lines, mostly ordinary code (models, data helpers,
  utilities) with the legacy patterns sprinkled in at random (imports through aliases, ``Trainer`` calls
  with ``gpus=``/``accelerator="ddp"``/``plugins=[...]``, dicts splatted into a Trainer, Trainer properties,
  enum members, a local ``DDPPlugin`` subclass, shadowing look-alikes), plus a few YAML configs;
* ``clean/<package>/``: the ``.py``/``.pyi``/YAML files of an installed package (``--clean torch`` or
  ``libcst``), copied untouched.

The same ``--files``/``--seed``/``--clean`` always produce the same bytes, so a cached tree is reused.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import shutil
from pathlib import Path

from _legacy_source import legacy_module, legacy_yaml

CACHE = Path.home() / ".cache" / "lightning-migrate"


def tree_dir(files: int, seed: int, clean: str) -> Path:
    return CACHE / f"bench-tree-{files}-{seed}-{clean}"


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed: pick another --clean package")
    return Path(next(iter(spec.submodule_search_locations)))


def make_tree(files: int, seed: int, clean: str, out: Path | None = None) -> Path:
    """Write the tree (or reuse it when it is complete) and return its root."""
    root = out or tree_dir(files, seed, clean)
    done = root / ".complete"
    if done.exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    rng = random.Random(seed)
    legacy = root / "legacy"
    for index in range(files):
        package = legacy / f"pkg_{index // 25:02d}"
        package.mkdir(parents=True, exist_ok=True)
        lines = rng.choice((150, 300, 450, 600, 900, 1600))
        (package / f"mod_{index:03d}.py").write_text(legacy_module(rng, lines), encoding="utf-8")
    configs = legacy / "configs"
    configs.mkdir(parents=True, exist_ok=True)
    for index in range(max(1, files // 20)):
        (configs / f"train_{index:02d}.yaml").write_text(legacy_yaml(rng), encoding="utf-8")
    source = _package_dir(clean)
    for path in sorted(source.rglob("*")):
        if path.suffix in (".py", ".pyi", ".yaml", ".yml") and "__pycache__" not in path.parts and path.is_file():
            copy = root / "clean" / clean / path.relative_to(source)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
    done.write_text("")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100, help="legacy modules to generate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clean", default="torch", help="installed package whose sources are the clean part")
    parser.add_argument("--out", type=Path, default=None, help=f"default: under {CACHE}")
    args = parser.parse_args()
    print(make_tree(args.files, args.seed, args.clean, args.out))


if __name__ == "__main__":
    main()
