"""Lightning names that moved into ``lightning_fabric`` or ``lightning_utilities`` (or were torch's), and what became
of each.

Standard library only. Read by rule ``moved_packages`` (an exact import rewrite where the successor is public and does
what the old name did) and by rule ``removed_names`` (whose TODO names the successor and the difference otherwise).

Why a table and not the recordings: ``legacy_api/data/api_surface.json`` records ``pytorch_lightning`` only, and the
rewrites here need a handful of names of two other packages. Each row was read in the real sources: the 1.8/1.9
deprecation message of the old name names the successor, and the old and new functions were compared line by line
(1.5.10's against 2.6.6's); ``tests/legacy_api/test_moved_packages.py`` checks every successor against the real
installs of each 2.x release when they are present (``~/.cache/lightning-migrate/surface/``). Both packages are there
wherever ``pytorch_lightning`` 2.x is: its wheel ships ``lightning_fabric`` itself (``top_level.txt``) and requires
``lightning-utilities`` (``>=0.10.0`` in 2.6.6's metadata).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The first target the rows act on: 1.8/1.9 keep every old name working with a deprecation warning (and 1.8's
#: successors live in ``lightning_lite``, which 1.9 renamed), 2.0 removed them.
ACTS_IN = "2.0"


@dataclass(frozen=True)
class MovedOut:
    """``old`` (absolute, under ``pytorch_lightning``) is ``new`` (absolute, another package) from :data:`ACTS_IN`.

    ``exact``: ``new`` is public and behaves as ``old`` did in 1.5 for every call 1.5 accepted, so the import is
    rewritten; otherwise ``difference`` says what a person must check, and the name keeps a TODO.
    """

    old: str
    new: str
    exact: bool
    difference: str = ""

    @property
    def new_module(self) -> str:
        return self.new.rpartition(".")[0]


_PL = "pytorch_lightning.utilities"
_FABRIC = "lightning_fabric.utilities"

MOVED_PACKAGES: tuple[MovedOut, ...] = (
    # 1.9.5: "apply_to_collection has been deprecated in v1.8.0 ... use lightning_utilities.core.apply_func.
    # apply_to_collection"; the same recursion with the same parameters (plus a keyword-only allow_frozen=False): a
    # frozen dataclass raises ValueError instead of dataclasses.FrozenInstanceError.
    MovedOut(f"{_PL}.apply_func.apply_to_collection", "lightning_utilities.core.apply_func.apply_to_collection", True),
    # apply_to_collections is not the same: 2.x zips two dataclasses field by field (1.5 applied the function to the
    # first one's fields alone) and raises ValueError, not AssertionError, for sequences of different lengths.
    MovedOut(
        f"{_PL}.apply_func.apply_to_collections",
        "lightning_utilities.core.apply_func.apply_to_collections",
        False,
        "it zips two dataclasses field by field (1.5 applied the function to the first one's fields only) and raises "
        "ValueError, not AssertionError, for sequences of different lengths",
    ),
    # 1.9.5: "reset_seed has been deprecated in v1.8.0 ... use lightning_fabric.utilities.seed.reset_seed"; the same
    # code (re-seed from PL_GLOBAL_SEED / PL_SEED_WORKERS), less 1.5's "Global seed set to" log line.
    MovedOut(f"{_PL}.seed.reset_seed", f"{_FABRIC}.seed.reset_seed", True),
    # 1.5.10's utilities._module_available (utilities/imports.py) imports the first package and walks getattr down the
    # path; lightning_utilities' module_available imports the whole path: a submodule its package does not import
    # itself is True there and was False in 1.5.
    MovedOut(
        f"{_PL}._module_available",
        "lightning_utilities.core.imports.module_available",
        False,
        "it imports the whole dotted path, where 1.5 imported the package and looked the rest up as attributes (a "
        "submodule the package does not import itself was False in 1.5, True there)",
    ),
    # The private ones: 2.x has them only under a leading underscore, free to change in any release.
    MovedOut(
        f"{_PL}.cloud_io.load",
        f"{_FABRIC}.cloud_io._load",
        False,
        "private there, and it passes weights_only to torch.load (torch >= 2.6 defaults it to True, so a checkpoint "
        "holding arbitrary objects fails): prefer torch.load(fsspec.open(path, 'rb'), weights_only=False) or "
        "LightningModule.load_from_checkpoint",
    ),
    MovedOut(
        f"{_PL}.distributed.all_gather_ddp_if_available",
        f"{_FABRIC}.distributed._all_gather_ddp_if_available",
        False,
        "private there; inside a LightningModule, self.all_gather(tensor) is the public way",
    ),
    MovedOut(
        f"{_PL}.distributed.gather_all_tensors",
        f"{_FABRIC}.distributed._gather_all_tensors",
        False,
        "private there; inside a LightningModule, self.all_gather(tensor) is the public way",
    ),
    MovedOut(
        f"{_PL}.distributed.sync_ddp",
        f"{_FABRIC}.distributed._sync_ddp",
        False,
        "private there; self.log(..., sync_dist=True) or torch.distributed.all_reduce are the public ways",
    ),
    # Not Lightning's own: 1.5.10's utilities/distributed.py imported them from torch.distributed (a stand-in class
    # only where torch.distributed is not available, which no torch that 2.x supports lacks).
    MovedOut(f"{_PL}.distributed.ReduceOp", "torch.distributed.ReduceOp", True),
    MovedOut(f"{_PL}.distributed.group", "torch.distributed.group", True),
    MovedOut(
        f"{_PL}.distributed.sync_ddp_if_available",
        f"{_FABRIC}.distributed._sync_ddp_if_available",
        False,
        "private there; self.log(..., sync_dist=True) or torch.distributed.all_reduce are the public ways",
    ),
)

BY_OLD: dict[str, MovedOut] = {row.old: row for row in MOVED_PACKAGES}
