"""Regenerate the tables MIGRATION.md embeds (between ``<!-- name:start -->`` / ``<!-- name:end -->`` markers).

    python tools/render_migration.py          # rewrite MIGRATION.md in place
    python tools/render_migration.py --check  # exit 1 if MIGRATION.md is out of date

Blocks: ``rules`` (the rule registry), ``renames`` (legacy_api.renames.render_markdown),
``divergences`` (tests/data/divergences.json, kept by tools/reference/divergences.py), ``compat-lightning`` (the
parity numbers of compat.lightning's recording, tests/parity/compat_lightning.py), ``hooks`` and ``keywords`` (the
hooks and keywords the newest release dropped: legacy_api.hooks and legacy_api.keywords on the recorded surfaces),
``upgrade-guide`` (every row of Lightning's upgrade guide and what migrate-trainer does with it:
legacy_api.upgrade_guide, checked by tests/codemods/test_upgrade_guide.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MIGRATION = ROOT / "MIGRATION.md"


def render_rules() -> str:
    from codemods.rules import REGISTRY

    lines = ["| Rule | Deprecated in | What it rewrites |", "|---|---|---|"]
    lines += [f"| `{rule.id}` | {rule.deprecated_in} | {rule.description} |" for rule in REGISTRY.values()]
    return "\n".join(lines)


def render_renames() -> str:
    from legacy_api import renames

    return renames.render_markdown().strip()


def render_divergences() -> str:
    import json

    data = json.loads((ROOT / "tests" / "data" / "divergences.json").read_text(encoding="utf-8"))
    lines = []
    for suite, table in data.items():
        lines += [
            f"**{suite}** against {table['against']} ({len(table['cases'])} cases)",
            "",
            "| Case | Lightning | Ours | Why |",
            "|---|---|---|---|",
        ]
        for case_id, entry in sorted(table["cases"].items()):
            cells = [case_id, entry["lightning"], entry["ours"], entry["why"]]
            lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        lines.append("")
    return "\n".join(lines).strip()


def render_compat_lightning() -> str:
    from tests.parity import compat_lightning

    return compat_lightning.render_numbers()


def render_hooks() -> str:
    """The hooks 1.x called that the newest release does not, when each went, and what to write instead."""
    from legacy_api.hooks import HOOK_BASES, SUCCESSORS, legacy_hooks, members, removed_in
    from legacy_api.surface import RELEASES

    lines = ["| Hook | Gone in | Instead |", "|---|---|---|"]
    for base in HOOK_BASES.values():
        for hook in sorted(legacy_hooks(base) - members(RELEASES[-1], base)):
            gone = removed_in(base, hook)
            instead = SUCCESSORS.get((base, hook), "no successor recorded: a TODO names the removal")
            lines.append(f"| `{base}.{hook}` | {gone} | {instead} |")
    return "\n".join(lines)


def render_keywords() -> str:
    from legacy_api.keywords import FORWARDED, MAPPED, OVERRIDDEN, RENAMED

    lines = ["| Call | Keyword | Outcome |", "|---|---|---|"]
    lines += [f"| `{owner.rpartition('.')[2] if owner.startswith('pytorch') else owner}` | `{old}=` | "
              f"renamed to `{new}=` |" for (owner, old), new in sorted(RENAMED.items())]
    lines += [f"| `{owner.rpartition('.')[2]}` | `{old}=` | renamed to `{new}=` (the target maps it itself, with a "
              "warning) |" for (owner, old), new in sorted(MAPPED.items())]
    lines += [f"| `{owner}` | `{keyword}=` | TODO: {hint} |" for (owner, keyword), hint in sorted(FORWARDED.items())]
    lines += [
        f"| a 1.5 strategy plugin (`DDPPlugin`, ...) | `{keyword}=` | dropped: the Trainer's `{flag}=` (default "
        f"{default}) overwrote it in 1.5 and does at the target; reported where the Trainer's differs |"
        for keyword, (flag, default) in sorted(OVERRIDDEN.items())
    ]
    return "\n".join(lines)


def render_upgrade_guide() -> str:
    from legacy_api.upgrade_guide import render_markdown

    return render_markdown()


BLOCKS: dict[str, Callable[[], str]] = {
    "rules": render_rules,
    "renames": render_renames,
    "divergences": render_divergences,
    "compat-lightning": render_compat_lightning,
    "hooks": render_hooks,
    "keywords": render_keywords,
    "upgrade-guide": render_upgrade_guide,
}


def render(text: str) -> str:
    """``text`` with every known block replaced by its freshly rendered content."""
    for name, make in BLOCKS.items():
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), flags=re.S)
        if not pattern.search(text):
            raise SystemExit(f"MIGRATION.md lacks the {start} ... {end} block")
        block = f"{start}\n{make()}\n{end}"
        text = pattern.sub(lambda _, block=block: block, text)  # type: ignore[misc]
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report, do not write; exit 1 if out of date")
    args = parser.parse_args(argv)
    current = MIGRATION.read_text(encoding="utf-8")
    fresh = render(current)
    if fresh == current:
        return 0
    if args.check:
        print("MIGRATION.md is out of date: run python tools/render_migration.py", file=sys.stderr)
        return 1
    MIGRATION.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
