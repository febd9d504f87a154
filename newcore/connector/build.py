"""Phase 3: build the strategy and give it everything phase 2 chose, then the final checks."""

from __future__ import annotations

from newcore.connector.flags import Flags
from newcore.connector.select import Selection
from newcore.exceptions import MisconfigurationException
from newcore.probe import Probe
from newcore.strategies import ParallelStrategy, SingleDeviceStrategy, Strategy, StrategyRegistry

#: Shown when a launcher cannot run in a notebook; kept next to the check that uses it.
INTERACTIVE_COMPATIBLE = "a single device, 'dp' (CUDA), 'ddp_fork' or 'ddp_notebook' (CPU), or 'tpu_spawn'"


def build_strategy(flags: Flags, selection: Selection, probe: Probe) -> Strategy:
    """Instantiate the selected strategy (or take the user's) and attach what it does not carry yet."""
    chosen = selection.strategy
    if isinstance(chosen, str):
        single = issubclass(StrategyRegistry.entry(chosen).cls, SingleDeviceStrategy)
        if single and len(selection.parallel_devices) > 1:
            raise MisconfigurationException(
                f"`strategy={chosen!r}` trains on one device, but `devices={flags.devices!r}` selects"
                f" {len(selection.parallel_devices)} {selection.accelerator_name} devices. Pass `devices=1` (or a"
                " single index such as `devices=[1]`), or a multi-device strategy such as 'ddp'."
            )
        # A single-device strategy built from a name runs on the selected device, not its default "cpu".
        overrides = {"device": selection.parallel_devices[0]} if single else {}
        strategy = StrategyRegistry.get(chosen, **overrides)
    else:
        strategy = chosen

    # A value the user put on the strategy instance wins; phase 1 already refused conflicting flags.
    if strategy.accelerator is None:
        strategy.accelerator = selection.accelerator
    if strategy._precision_plugin is None:
        strategy.precision_plugin = selection.precision_plugin
    if strategy._checkpoint_io is None and flags.checkpoint_io is not None:
        strategy.checkpoint_io = flags.checkpoint_io
    if isinstance(strategy, ParallelStrategy):
        if strategy.cluster_environment is None:
            strategy.cluster_environment = selection.cluster_environment
        if not strategy.parallel_devices:
            strategy.parallel_devices = list(selection.parallel_devices)
        strategy.num_nodes = selection.num_nodes
        strategy.layer_sync = flags.layer_sync
        strategy.set_world_ranks()
    strategy._configure_launcher()
    check_strategy(strategy, selection, probe)
    return strategy


def check_strategy(strategy: Strategy, selection: Selection, probe: Probe) -> None:
    """The checks that need the built strategy: notebooks, XLA devices, then the strategy's own."""
    launcher = strategy.launcher
    if probe.is_interactive() and launcher is not None and not launcher.is_interactive_compatible:
        raise MisconfigurationException(
            f"`strategy={strategy.name!r}` cannot run in an interactive session (notebook or REPL): its processes"
            f" re-import your script. Run your code as a script, or choose {INTERACTIVE_COMPATIBLE}."
        )
    on_xla = selection.accelerator_name == "tpu"
    if on_xla and not strategy.supports_xla:
        raise MisconfigurationException(
            f"`accelerator='tpu'` runs only with XLA strategies, but the strategy is {strategy.name!r}."
            " Leave `strategy` unset (or pass 'single_tpu', 'tpu_spawn' or 'tpu_spawn_debug')."
        )
    if strategy.supports_xla and not on_xla:
        raise MisconfigurationException(
            f"`strategy={strategy.name!r}` runs on TPUs only, but the accelerator is"
            f" {selection.accelerator_name!r}. Pass `accelerator='tpu'`."
        )
    if selection.num_nodes > 1 and not strategy.is_distributed:
        raise MisconfigurationException(
            f"`num_nodes={selection.num_nodes}` needs a distributed strategy, but the strategy is {strategy.name!r}."
            " Pass `strategy='ddp'` (or leave `strategy` unset)."
        )
    strategy.check_setup()
