"""Import cost: ``import newcore`` / ``compat`` / ``codemods`` against ``import torch`` (and Lightning 1.6.5).

Each subject is a fresh interpreter, measured in turns with the others. Targets: newcore and compat
add at most 10% to torch's import; codemods does not import torch at all.

    python benchmarks/bench_import.py [--rounds 10] [--lightning-python tools/reference/.venvs/1.6.5/bin/python]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from _table import interleaved, print_table, time_command

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_LIGHTNING = ROOT / "tools" / "reference" / ".venvs" / "1.6.5" / "bin" / "python"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--lightning-python", type=Path, default=DEFAULT_LIGHTNING)
    args = parser.parse_args()

    py = sys.executable
    subjects = {
        "python (empty)": lambda: time_command([py, "-c", "pass"], 1, cwd=ROOT),
        "import torch": lambda: time_command([py, "-c", "import torch"], 1, cwd=ROOT),
        "import newcore": lambda: time_command([py, "-c", "import newcore"], 1, cwd=ROOT),
        "import compat": lambda: time_command([py, "-c", "import compat"], 1, cwd=ROOT),
        "import codemods.cli": lambda: time_command([py, "-c", "import codemods.cli"], 1, cwd=ROOT),
    }
    lightning = args.lightning_python
    if lightning.exists():
        subjects["import pytorch_lightning 1.6.5"] = lambda: time_command(
            [str(lightning), "-W", "ignore", "-c", "import pytorch_lightning"], 1
        )
        subjects["import torch (1.6.5 venv)"] = lambda: time_command([str(lightning), "-c", "import torch"], 1)
    results = interleaved(subjects, args.rounds)
    print_table("Import cost (fresh interpreter each time)", results, baseline="import torch")

    torch_free = subprocess.run(
        [py, "-c", "import sys, codemods.cli; print('torch' in sys.modules)"], capture_output=True, text=True, cwd=ROOT
    )
    print(f"\n`import codemods.cli` imports torch: {torch_free.stdout.strip()}")


if __name__ == "__main__":
    main()
