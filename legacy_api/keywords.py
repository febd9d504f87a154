"""Keyword arguments that later releases renamed or stopped taking, where the recorded signatures cannot say why.

Which keywords each release's classes and Trainer methods take comes from the recorded surfaces
(:mod:`legacy_api.surface`). This table adds the pure renames (the old keyword was an alias the release assigned to
the new one, checked in 1.5.10's source) and, for a keyword a class now forwards through ``**kwargs`` to something
else, what to pass instead. Standard library only; read by ``codemods`` (rule ``removed_keywords``) and ``compat``.
"""

from __future__ import annotations

import functools

from legacy_api.surface import RELEASES, arguments, surface

#: (owner, old keyword) -> the keyword that means the same. Owners are ``Trainer.<method>`` or a class's public path.
#: Each old keyword was deprecated in 1.4 and gone in 1.6; 1.5.10 assigned it to the new one (``train_dataloaders =
#: train_dataloader``), taking the old one when both were given.
RENAMED: dict[tuple[str, str], str] = {
    ("Trainer.fit", "train_dataloader"): "train_dataloaders",
    ("Trainer.tune", "train_dataloader"): "train_dataloaders",
    ("Trainer.validate", "val_dataloaders"): "dataloaders",
    ("Trainer.test", "test_dataloaders"): "dataloaders",
    ("pytorch_lightning.callbacks.ModelCheckpoint", "every_n_val_epochs"): "every_n_epochs",
}

#: (class name, keyword) -> what to pass instead, for a keyword 1.x's class took itself and the target's forwards
#: through ``**kwargs`` (to torch's ``DistributedDataParallel`` for the DDP strategies: a ``TypeError`` there).
FORWARDED: dict[tuple[str, str], str] = {
    ("DDPStrategy", "num_nodes"): "pass Trainer(num_nodes=...) instead",
    ("DDPStrategy", "sync_batchnorm"): "pass Trainer(sync_batchnorm=True) instead",
}


def signature_keywords(signature: str | None) -> tuple[frozenset[str], bool] | None:
    """The keywords a recorded signature (``(self, a, *, b=1, **kwargs)``) accepts by name, and whether it takes
    ``**kwargs``; None where it is unknown."""
    args = arguments(signature)
    if args is None:
        return None
    return frozenset(a.arg for a in (*args.args, *args.kwonlyargs)), args.kwarg is not None


@functools.cache
def removed_keywords() -> frozenset[str]:
    """Every keyword some recorded 1.x release's Lightning class or Trainer method took and the newest release's
    same class or method does not name: what a call may pass that the target refuses or forwards (the prefilter's
    vocabulary for rule ``removed_keywords``)."""
    newest = surface(RELEASES[-1])
    found = {old for _, old in RENAMED}
    for release in RELEASES:
        if not release.startswith("1."):
            continue
        old = surface(release)
        paths = [f"{path}.__init__" for path in sorted(old.aliases)]
        paths += [f"pytorch_lightning.Trainer.{method}" for method in ("fit", "validate", "test", "predict")]
        for path in paths:
            then, now = old.signature(path), newest.signature(path)
            if then is None or now is None or then == now:
                continue  # unknown, gone (another rule's matter) or the same
            before, after = signature_keywords(then), signature_keywords(now)
            if before is not None and after is not None:
                found.update(before[0] - after[0])
    found.update(keyword for _, keyword in FORWARDED)
    return frozenset(found - {"self"})
