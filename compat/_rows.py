"""compat's view of the renames table (``legacy_api.renames``), plus the removal policy of the shims.

Only ``legacy_api.renames`` is imported (standard library only; it pulls in neither libcst nor torch).
Rows the table does not have yet are kept here in ``LOCAL_*`` tables, clearly marked, until the table
grows them; a test lists which local rows the table has since gained, so they can be deleted.

Removal policy: a row's ``removed_in`` is the *Lightning* release that removed the old name. The shim is
dropped in the lightning-migrate release :func:`compat_removed_in` maps it to. Names Lightning dropped
by 1.8 (the 1.6 deprecation cycle) go in 1.0.0; names Lightning kept until 1.9 or 2.0 go in 2.0.0.
``tests/compat`` fails once ``newcore.__version__`` reaches a row's release, so dead shims cannot linger.
"""

from __future__ import annotations

from dataclasses import dataclass

from legacy_api.lightning15 import FLAG_VERSIONS
from legacy_api.renames import COMPAT, ENUM_MEMBERS, NEW_ROOT, RENAMES, TRAINER_PROPERTIES, Rename, version_tuple

#: (newest Lightning release that removed the name, the lightning-migrate release that drops the shim).
REMOVAL_POLICY: tuple[tuple[str, str], ...] = (("1.8", "1.0.0"), ("2.0", "2.0.0"))
#: Shims for names Lightning never removed (or whose removal is unknown) go with the last policy release.
_LAST_RELEASE = REMOVAL_POLICY[-1][1]


def compat_removed_in(lightning_removed_in: str | None) -> str:
    """The lightning-migrate release that drops the shim of a name Lightning removed in ``lightning_removed_in``."""
    if lightning_removed_in is None:
        return _LAST_RELEASE
    for lightning, release in REMOVAL_POLICY:
        if version_tuple(lightning_removed_in) <= version_tuple(lightning):
            return release
    return _LAST_RELEASE


@dataclass(frozen=True)
class Alias:
    """A compat name: ``old`` under ``compat``, ``new`` under ``newcore`` (``None``: nothing replaces it)."""

    old: str
    new: str | None
    kind: str
    deprecated_in: str
    lightning_removed_in: str | None
    note: str = ""

    @property
    def warns(self) -> bool:
        """Rows without a Lightning removal are compat's own entry points (same names, root swapped)."""
        return self.lightning_removed_in is not None

    @property
    def removed_in(self) -> str:
        return compat_removed_in(self.lightning_removed_in)


# LOCAL FALLBACK (missing from legacy_api.renames): newcore spells this module ``amp``, not ``native_amp``; the
# table's row for ``plugins.precision.native_amp.NativeMixedPrecisionPlugin`` points both roots at
# ``native_amp``, which is right for pytorch_lightning 1.9 but does not exist under newcore.
LOCAL_NEW_TARGETS: dict[str, str] = {
    "plugins.precision.native_amp.MixedPrecisionPlugin": "plugins.precision.amp.MixedPrecisionPlugin",
}


def _alias(row: Rename) -> Alias:
    new = LOCAL_NEW_TARGETS.get(row.new, row.new) if row.new is not None else None
    return Alias(row.old, new, row.kind, row.deprecated_in, row.removed_in, row.note)


#: Every compat row of the renames table, keyed by its name relative to ``compat``.
ALIASES: dict[str, Alias] = {row.old: _alias(row) for row in RENAMES if COMPAT in row.roots}
NEW_ROOT_PACKAGE = NEW_ROOT[COMPAT]

#: Enums: name relative to ``compat`` -> (deprecated in, Lightning removed in, {member: string value}).
ENUMS: dict[str, tuple[str, str, dict[str, str]]] = dict(ENUM_MEMBERS)

# LOCAL FALLBACK (missing from legacy_api.renames.ENUM_MEMBERS): Lightning 1.6's private enums. ``_StrategyType``
# is ``DistributedType`` plus ``bagua``; ``_AcceleratorType`` is ``DeviceType`` (HPU included).
_DISTRIBUTED = ENUM_MEMBERS["utilities.enums.DistributedType"][2]
_DEVICE = ENUM_MEMBERS["utilities.enums.DeviceType"][2]
LOCAL_ENUMS: dict[str, tuple[str, str, dict[str, str]]] = {
    "utilities.enums._StrategyType": ("1.6", "1.9", {**_DISTRIBUTED, "BAGUA": "bagua"}),
    "utilities.enums._AcceleratorType": ("1.6", "2.0", dict(_DEVICE)),
}
for _name, _row in LOCAL_ENUMS.items():
    ENUMS.setdefault(_name, _row)


@dataclass(frozen=True)
class Property:
    """An old connector/runner property: what replaces it and when it went."""

    old: str
    new: str | None
    deprecated_in: str
    lightning_removed_in: str | None
    note: str = ""


PROPERTIES: dict[str, Property] = {
    p.old: Property(p.old, p.new, p.deprecated_in, p.removed_in, p.note) for p in TRAINER_PROPERTIES
}

# LOCAL FALLBACK (missing from legacy_api.renames.TRAINER_PROPERTIES): properties of the 1.5
# AcceleratorConnector that legacy code read through ``trainer._accelerator_connector``.
_STRATEGY_CHECK = "isinstance(strategy, ...)"
LOCAL_PROPERTIES: tuple[Property, ...] = (
    Property("use_ddp", None, "1.6", "1.6", f"use {_STRATEGY_CHECK} with DDPStrategy/DDPSpawnStrategy"),
    Property("use_ddp2", None, "1.6", "1.6", f"use {_STRATEGY_CHECK} with DDP2Strategy"),
    Property("use_dp", None, "1.6", "1.6", f"use {_STRATEGY_CHECK} with DataParallelStrategy"),
    Property("use_horovod", None, "1.6", "1.6", f"use {_STRATEGY_CHECK} with HorovodStrategy"),
    Property("use_deepspeed", None, "1.6", "1.6", f"use {_STRATEGY_CHECK} with DeepSpeedStrategy"),
    Property("is_distributed", "strategy.is_distributed", "1.6", "1.8"),
    Property("on_cpu", None, "1.6", "1.6", "use isinstance(accelerator, CPUAccelerator)"),
    Property("on_gpu", None, "1.6", "1.6", "use isinstance(accelerator, CUDAAccelerator)"),
    Property("on_tpu", None, "1.6", "1.6", "use isinstance(accelerator, TPUAccelerator)"),
    Property("on_ipu", None, "1.6", "1.6", "use isinstance(accelerator, IPUAccelerator)"),
    Property("parallel_device_ids", "device_ids", "1.6", "1.6", "it was None when not training on GPUs"),
    Property("tpu_id", None, "1.6", "1.6", "use strategy.root_device.index on a single TPU core"),
)
for _prop in LOCAL_PROPERTIES:
    PROPERTIES.setdefault(_prop.old, _prop)

#: Legacy constructor flags: flag -> (deprecated in, Lightning removed in). The table has only
#: ``Trainer.replace_sampler_ddp``; the others are LOCAL FALLBACK rows (versions from the API history).
LOCAL_FLAGS: dict[str, tuple[str, str]] = {
    **FLAG_VERSIONS,
    "accelerator": ("1.5", "1.7"),  # a strategy passed as accelerator=, or accelerator="ddp_cpu"
    "plugins": ("1.5", "1.7"),  # a strategy passed in plugins=
    "fallback": ("1.6", "1.8"),  # a 1.5 selection newcore makes differently
}


def flag_versions(flag: str) -> tuple[str, str]:
    """(deprecated in, Lightning removed in) for a legacy flag: the table's kwarg row, else the local row."""
    for row in RENAMES:
        if row.kind == "kwarg" and row.old == f"Trainer.{flag}" and row.removed_in is not None:
            return row.deprecated_in, row.removed_in
    return LOCAL_FLAGS[flag]
