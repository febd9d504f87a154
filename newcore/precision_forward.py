"""The training precision applied in the forward of the module ``Runner.setup`` returns, as Lightning Fabric does.

Fabric returns a wrapper module whose forward converts the inputs, runs the strategy's module inside
the precision plugin's context and converts the outputs. newcore does the same work, but installs it
as the ``forward`` of the very module the strategy returned (``DistributedDataParallel``, FSDP, a
DeepSpeed engine, or the user's module on one device) instead of adding another module around it:

- the strategy wrapper stays the outermost module the user calls, so gradient synchronisation and
  sharding see every forward and the precision context encloses them (strategy inside, precision
  outside, as in Fabric);
- the object keeps its identity and type, so everything that takes "the module ``setup`` returned"
  (``strategy.module_state``, ``unwrap_module``, ``Runner.save``/``load``, ``no_backward_sync``) and
  checkpoint keys are unchanged.

:func:`restore_forward` removes it again at teardown, so the user's module is left as it came.
"""

from __future__ import annotations

from typing import Any

from torch.nn import Module

from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class PrecisionForward:
    """A module's ``forward`` run under a precision plugin: inputs converted, autocast, outputs converted.

    A plain object rather than a closure, so that a module carrying it still pickles and deep-copies.
    """

    def __init__(self, forward: Any, plugin: PrecisionPlugin, had_own_forward: bool) -> None:
        self.forward, self.plugin, self.had_own_forward = forward, plugin, had_own_forward

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        plugin = self.plugin
        args, kwargs = plugin.convert_input((args, kwargs))
        with plugin.autocast():
            output = self.forward(*args, **kwargs)
        return plugin.convert_output(output)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.plugin!r})"


def apply_precision(module: Module, plugin: PrecisionPlugin) -> Module:
    """Make ``module``'s forward run under ``plugin``; return ``module`` (once per module: a second call is a no-op)."""
    if isinstance(module.__dict__.get("forward"), PrecisionForward):
        return module
    # The instance may already have a forward of its own (torch.compile's OptimizedModule sets one).
    had_own = "forward" in module.__dict__
    object.__setattr__(module, "forward", PrecisionForward(module.forward, plugin, had_own))
    return module


def restore_forward(module: Module) -> None:
    """Undo :func:`apply_precision` on ``module`` (nothing if it was not applied)."""
    installed = module.__dict__.get("forward")
    if not isinstance(installed, PrecisionForward):
        return
    if installed.had_own_forward:
        object.__setattr__(module, "forward", installed.forward)
    else:
        del module.__dict__["forward"]
