"""A syntax-free model of one set of Trainer flags, shared by the Python and the YAML front ends.

A front end turns ``Trainer(gpus=2, accelerator="ddp")`` (or a ``trainer:`` YAML mapping, or a dict that is
splatted into a Trainer) into a :class:`Plan`; the flag rules rewrite the plan in a fixed order; the front
end renders what changed and leaves every untouched value's original syntax alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from legacy_api.renames import COMPAT


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


#: The value is not a literal (a variable, a call, an interpolation...).
UNKNOWN: Any = _Unknown()


#: What 1.5.10 made of a ``ModelCheckpoint`` passed as a flag's value: "built" where it could build it (it read it in
#: ``checkpoint_callback=`` as True and never used the object), "refused" where it raised for its arguments (code for
#: 1.2 or before, which used the object), "renamed" where it raised only for keywords the run renames (``period=``),
#: which the next run reads as "built" (``codemods.frontends.python.checkpoint_objects``).
CheckpointObject = Literal["built", "refused", "renamed"] | None


@dataclass(frozen=True)
class Facts:
    """What a front end knows of a value that is not a literal (``gpus=args.gpus``, ``gpus=AVAIL_GPUS``)."""

    #: Written twice, the syntax evaluates to the same value and does nothing else (names, attribute chains,
    #: subscripts with constant keys, ``torch.cuda`` queries): a rule may use it in two expressions.
    pure: bool = False
    #: The literal values it can hold, when they are few and known (``n = 1 if cuda else 0`` -> (1, 0)).
    options: tuple[Any, ...] | None = None
    #: It never holds a string (an int, None or a list of ints): Python's truth is then 1.5's "not this device".
    no_str: bool = False
    #: Bound to ``a if test else b`` with literal branches: (the test's source, a, b). Two flags whose bindings share
    #: a test hold the a's together or the b's together (``gpus = -1 if cuda else None`` next to
    #: ``backend = "ddp" if cuda else None``), never a mix.
    branches: tuple[str, Any, Any] | None = None
    #: The tests of the ``if`` statements the flags are written under, each with the branch they are in (True: its
    #: body), where nothing in between binds the value's name again: ``if args.gpus > 1:`` over ``gpus=args.gpus``
    #: leaves only the counts above 1 (``codemods.plan.value_tests``).
    guards: tuple[tuple[str, bool], ...] = ()


@dataclass
class Value:
    """One flag value: its original syntax (``node``) plus what the front end could read from it."""

    node: Any = None
    lit: Any = UNKNOWN
    #: ``a if test else b`` whose branches are literals: (test syntax, a, b); a rule may make the test a Value.
    cond: tuple[Any, Value, Value] | None = None
    #: Items of a list literal (``plugins=[...]``).
    items: list[Value] | None = None
    #: The front end recognised a strategy object (``DDPPlugin(...)``, a ``class_path`` mapping).
    is_strategy: bool = False
    #: A name (not a literal) that its scope binds to a strategy construction, on some path at least
    #: (``ds = DeepSpeedPlugin() if x else None``): the class name. The plan cannot know which object reaches
    #: the Trainer, so it is never moved, only named in a TODO (set by a front end that follows local names).
    bound_strategy: str | None = None
    #: Lightning's ``ModelCheckpoint(...)`` built right there, or a name every assignment of which builds one
    #: (``checkpoint_callback = ModelCheckpoint(...)``), as :data:`CheckpointObject` says; None for anything else.
    checkpoint_object: CheckpointObject = None
    #: A recognised precision plugin object: the precision it trains in (UNKNOWN when it cannot be read);
    #: None for anything else.
    plugin_precision: Any = None
    #: The device kind of a recognised accelerator object (``GPUAccelerator()`` -> "gpu").
    accelerator_kind: str | None = None
    #: A new object to build: (class name relative to the new root, keyword values).
    ctor: tuple[str, dict[str, Value]] | None = None
    #: The original spelling, for messages.
    source: str | None = None
    #: What the front end knows of a value that is not a literal (None: nothing).
    facts: Facts | None = None
    #: An expression a rule builds from other values: (operator, operands), operators "or" (``a or b``), "is"
    #: (``a is b``), "in" (``a in b``) and "strip" (``str(a).strip()``); only over values whose facts are pure.
    expr: tuple[str, tuple[Value, ...]] | None = None
    #: An item of :attr:`items` that stands for every item of a list held in a name (``callbacks=callbacks`` with
    #: ``callbacks = [ModelCheckpoint()]`` bound once): written as ``*callbacks`` where items join it.
    spread: bool = False
    #: :attr:`lit` is not this value but a literal that 1.5 selected exactly as it did for it (``gpus=[x]``, a list
    #: display of one item, selects like ``[0]``): rules reason with it, the syntax written is :attr:`node`'s.
    stand_in: bool = False

    @property
    def known(self) -> bool:
        return self.lit is not UNKNOWN

    @property
    def text(self) -> str:
        """How messages quote the value."""
        if self.known and not (self.stand_in and self.source):
            return repr(self.lit)
        return self.source or "<expression>"


def new(lit: Any) -> Value:
    """A value the plan creates (no original syntax)."""
    return Value(lit=lit)


#: What a note is: ``fix`` (the plan changed), ``todo`` (left as it is, with a TODO comment) or ``report`` (only
#: informs: the code stays right, e.g. an implicit 1.5 choice that the target makes differently on purpose).
NoteKind = Literal["fix", "todo", "report"]

#: How report notes about 1.5's implicit choices start (MIGRATION.md, "Selection policy").
IMPLICIT = "implicit: "
#: How the implicit note starts where the target trains on other devices than 1.x did, with no error (a Trainer with
#: no device flags: every GPU at 2.x, one CPU at 1.x): ``--check`` counts it like a TODO (``codemods.report``).
OTHER_DEVICES = "1.x trained on one CPU device without accelerator=/devices="


@dataclass(frozen=True)
class Note:
    """A finding produced while planning: ``todo`` ones become ``# TODO(migrate-trainer):`` comments.

    ``kind`` says which finding a front end makes of it; ``todo`` is kept for the front ends that read it
    (``Note(rule, message, todo=True)`` has kind "todo", and a note of kind "todo" has ``todo`` set).
    """

    rule: str
    message: str
    todo: bool = False
    kind: NoteKind = "fix"
    #: Other flags a TODO names as waiting on the one its message starts with (``gpus=X depends on it``): its
    #: comment goes above whichever of them the call writes first.
    about: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.todo and self.kind == "fix":
            object.__setattr__(self, "kind", "todo")
        elif self.kind == "todo" and not self.todo:
            object.__setattr__(self, "todo", True)


@dataclass
class Plan:
    """Ordered Trainer flags being rewritten; rules call the helpers, never touch ``items`` directly."""

    items: list[tuple[str, Value]]
    target: tuple[int, ...]
    root: str
    enabled: Callable[[str], bool]
    #: The call also receives flags we cannot see (``**kwargs``, ``from_argparse_args(args)``).
    opaque_rest: bool = False
    #: A config section's keys kept out of the plan as written (used elsewhere: ``codemods.project.guard``); where
    #: they are all the plan does not see (``opaque_rest``), their names say what they cannot choose.
    held: frozenset[str] = frozenset()
    #: A config section that Hydra composes with others (its file has a top-level ``defaults:`` list): what it
    #: leaves out (the devices) may come from them. Set by the YAML front end; a group file's own ``defaults``
    #: key, which the plan sees as a flag, counts too (:attr:`is_composed`).
    composed: bool = False
    notes: list[Note] = field(default_factory=list)
    #: Imports the front end must schedule: (module relative to the new root, name).
    imports: list[tuple[str, str]] = field(default_factory=list)
    #: Which rule (or "explicit") put a key there: strategies from several sources follow 1.5's precedence.
    origin: dict[str, str] = field(default_factory=dict)
    #: Key -> the key that took its place (None: removed); front ends move comments and interpolations along.
    successor: dict[str, str | None] = field(default_factory=dict)
    #: A rule gave up on this call (and said why in a TODO, :meth:`stop`); later rules leave it alone, except
    #: the ones in :data:`INDEPENDENT` (``codemods.plan.apply_rules.run_flag_rules`` still runs those).
    stopped: bool = False
    #: A copy a rule rewrites to see what another target would do: :meth:`stop` only records its TODO there.
    trial: bool = False
    #: Runs the enabled flag rules that come after the named one on a plan (``codemods.plan.apply_rules`` sets it): a
    #: rule that tries each value a flag may hold sees what the later rules make of it.
    run_after: Callable[[Plan, str], None] | None = field(default=None, repr=False, compare=False)
    #: The flags run in an interactive interpreter (a notebook cell): only fork-launched DDP works there since 1.6.
    interactive: bool = False
    #: The flags run in a test suite: where 1.5 spawned, the target's ``ddp`` would re-run the pytest command in
    #: each process, so the spawn launcher 1.5 used is written (MIGRATION.md, "Selection policy").
    test_suite: bool = False
    #: Where the flags are written: Python code can take new objects (``callbacks=[TQDMProgressBar(...)]``), a YAML
    #: section or a command line only what its own syntax spells.
    written_in: Literal["python", "yaml", "command"] = "python"
    #: Flags the front end proved can move to the one ``fit()`` of the Trainer being built
    #: (``codemods.frontends.python.fit_moves``), and those a rule did move there (dropped here; a tuple, so a trial
    #: copy that moves one does not move it in the original).
    to_fit: frozenset[str] = frozenset()
    fitted: tuple[str, ...] = ()
    #: Nothing fits the Trainer these flags build (``codemods.frontends.python.fit_moves.NEVER_FIT``): the flags 1.5
    #: read only in ``fit`` (``resume_from_checkpoint``) did nothing.
    never_fit: bool = False
    #: Nothing in the project runs ``Trainer.tune()`` (the project index says so: ``codemods.project.facts.may_tune``),
    #: so the flags 1.5 read only there (``auto_lr_find``, ``auto_scale_batch_size``) did nothing.
    untuned: bool = False
    #: Every call that takes these flags (a config section) also passes a strategy object (``plugins=[DDPPlugin()]``),
    #: which 1.5 ran whatever strategy name the flags held: set by the YAML front end from the project index.
    strategy_beside: bool = False
    #: The call is Lightning's own ``Trainer(...)``, seen in Python (not a subclass, which may take flags of its own,
    #: nor ``from_argparse_args``): a keyword the target's signature lacks is a TypeError there.
    lightning_trainer: bool = False

    #: The key before the first key a rule dropped ("" for the start): where :meth:`set` puts new keys.
    _gap: str | None = field(default=None, init=False, repr=False, compare=False)
    #: The rule that stopped the plan first, and its message (``codemods.plan.apply_rules`` finishes the plan from it).
    stopped_by: tuple[str, str] | None = field(default=None, repr=False, compare=False)

    # --- reading ---------------------------------------------------------------------------------------------
    def get(self, key: str) -> Value | None:
        return next((value for name, value in self.items if name == key), None)

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def keys(self) -> Iterator[str]:
        return (name for name, _ in self.items)

    @property
    def is_composed(self) -> bool:
        defaults = self.get("defaults")  # no Trainer flag is called "defaults": a Hydra group file's list
        return self.composed or (defaults is not None and defaults.items is not None)

    @property
    def is_compat(self) -> bool:
        return self.root == COMPAT

    def applies(self, rule: str, deprecated_in: tuple[int, ...]) -> bool:
        """A flag rule runs when enabled and (for pytorch_lightning) deprecated at or before the target.

        newcore only understands the new flags, so compat calls get every rule up to 1.9 (newcore's
        behaviour is 1.6-1.9's; 2.0 behaviour changes do not apply to it).
        """
        if not self.enabled(rule):
            return False
        return deprecated_in <= ((1, 9) if self.is_compat else self.target)

    # --- writing ---------------------------------------------------------------------------------------------
    def note(self, rule: str, message: str) -> None:
        self.notes.append(Note(rule, message))

    def todo(self, rule: str, message: str) -> None:
        self.notes.append(Note(rule, message, todo=True))

    def report(self, rule: str, message: str) -> None:
        """A finding that changes nothing (kind "report")."""
        self.notes.append(Note(rule, message, kind="report"))

    def stop(self, rule: str, message: str) -> None:
        """Give up on the flags that depend on each other (device, accelerator, strategy), with a TODO.

        A value that is not a literal in one flag must not silence the others: ``codemods.plan.apply_rules`` still runs
        the rules in :data:`INDEPENDENT` that come after ``rule`` (their flags do not decide the devices), and
        every legacy flag left in the plan that no TODO names yet gets one TODO naming them all, so nothing is
        left behind silently (MIGRATION.md, "Selection policy").
        """
        self.todo(rule, message)
        if not self.stopped:
            self.stopped_by = (rule, message)
        self.stopped = True

    def implicit(self, rule: str, message: str) -> None:
        """Report an implicit 1.5 choice the target makes differently on purpose and that is left to it."""
        self.report(rule, IMPLICIT + message)

    def droppable(self, value: Value) -> bool:
        """Dropping ``value`` loses nothing but the value: config data, a literal, or pure syntax (``cfg.trainer.x``;
        not a call, whose side effects would go with it)."""
        return self.written_in != "python" or value.known or (value.facts is not None and value.facts.pure)

    def drop(self, key: str) -> None:
        index = next((i for i, (name, _) in enumerate(self.items) if name == key), None)
        if index is not None and self._gap is None:
            self._gap = self.items[index - 1][0] if index > 0 else ""
        self.successor.setdefault(key, None)
        self.items = [(name, value) for name, value in self.items if name != key]

    def replace(self, key: str, new_items: list[tuple[str, Value]]) -> None:
        """Put ``new_items`` where ``key`` was (dropping ``key``); keys already present elsewhere are dropped."""
        names = {name for name, _ in new_items}
        self.successor.setdefault(key, new_items[0][0] if new_items else None)
        out: list[tuple[str, Value]] = []
        for name, value in self.items:
            if name == key:
                out.extend(new_items)
            elif name not in names:
                out.append((name, value))
        self.items = out

    def set(self, key: str, value: Value, after: str | None = None) -> None:
        """Update ``key`` in place, or insert it after ``after`` (default: at the end)."""
        for index, (name, _) in enumerate(self.items):
            if name == key:
                self.items[index] = (key, value)
                return
        if after is None and self._gap is not None:
            # a new key takes the place of the first key a rule dropped (gpus=0 -> accelerator="cpu", devices=1)
            if self._gap == "":
                self.items.insert(0, (key, value))
                self._gap = key
                return
            after, self._gap = self._gap, key
        anchor = next((i for i, (name, _) in enumerate(self.items) if name == after), None)
        if anchor is None:
            self.items.append((key, value))
        else:
            self.items.insert(anchor + 1, (key, value))


#: Flag rules whose flags do not take part in choosing the accelerator, the devices or the strategy: they still
#: run on a plan another rule gave up on (:meth:`Plan.stop`).
INDEPENDENT: frozenset[str] = frozenset(
    {
        "amp_flags",
        "auto_select_gpus",
        "precision_values",
        "removed_arguments",
        "replace_sampler_ddp",
        "strategy_names",
        "unknown_trainer_flags",
    }
)

#: Each legacy Trainer flag and the rule that migrates it (whose target decides whether it must go).
LEGACY_FLAG_RULES: dict[str, str] = {
    "gpus": "device_flags",
    "tpu_cores": "device_flags",
    "ipus": "device_flags",
    "num_processes": "device_flags",
    "distributed_backend": "distributed_backend",
    "amp_backend": "amp_flags",
    "amp_level": "amp_flags",
    "auto_select_gpus": "auto_select_gpus",
    "replace_sampler_ddp": "replace_sampler_ddp",
}
