"""Activates compat.lightning in processes Lightning starts (spawned/forked workers, torchrun, the script launcher).

``compat.lightning.install()`` puts this folder first on ``PYTHONPATH`` and sets ``COMPAT_LIGHTNING=1``; a child
interpreter imports this file at startup, runs the ``sitecustomize`` this one shadows (if any), then installs the
shim, so a worker that imports the user's module (``class MyPlugin(DDPPlugin)`` at module level) finds the old names.
"""

import importlib.machinery
import importlib.util
import os
import sys


def _chain() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


_chain()
if os.environ.get("COMPAT_LIGHTNING") == "1":
    try:
        import compat.lightning

        compat.lightning.install()
    except ImportError as error:  # the child cannot see this project: say so, do not break the interpreter
        sys.stderr.write(f"compat.lightning: not activated in this process ({error})\n")
