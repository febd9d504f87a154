"""What a config store of a 1.x Trainer key becomes in 2.x keys (``cfg.trainer.gpus = 2`` -> ``accelerator="gpu"``,
``devices=2``): the YAML front end's own translation of that one value, shared by ``codemods.project.moved_stores``
and ``codemods.project.moved_reads`` (a moved read must see what the moved store wrote). Standard library only.
"""

from __future__ import annotations

import ast

#: The strategy names a 1.5 ``accelerator``/``distributed_backend`` store may hold whose 2.x ``strategy`` is the same.
_SAME_STRATEGIES = frozenset({"ddp", "ddp_spawn", "deepspeed"})
#: What ``gpus = 0`` becomes: one CPU process.
CPU: list[tuple[str, object]] = [("accelerator", "cpu"), ("devices", 1)]


def translate(key: str, source: str) -> list[tuple[str, object]] | None:
    """The 2.x keys and values a store of ``key`` with the value ``source`` becomes, or None where none is exact."""
    try:
        value = ast.literal_eval(source)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if key == "gpus" and type(value) is int:
        return [("accelerator", "gpu"), ("devices", value)] if value else list(CPU)
    if key in ("accelerator", "distributed_backend"):
        if value is None:
            return [("strategy", "auto")]  # no backend: the target chooses, as 1.5 did
        if isinstance(value, str) and value in _SAME_STRATEGIES:
            return [("strategy", value)]
    return None


def gpus_read(section: str, quote: str = "") -> str:
    """What ``<section>.gpus`` read in 1.5, from the keys its migrated config holds (``section``: the config
    object's code, ``cfg.trainer``): the GPU count, or 0 where the config chose the CPU. With ``quote``, spelled as
    subscripts (``config["trainer_params"]["devices"]``: a dict from ``yaml.safe_load`` has no attributes)."""
    if quote:
        devices, accelerator = f"{section}[{quote}devices{quote}]", f"{section}[{quote}accelerator{quote}]"
        return f'({devices} if {accelerator} == "gpu" else 0)'
    return f'({section}.devices if {section}.accelerator == "gpu" else 0)'


def gpus_get(section: str) -> str:
    """What ``<section>.get("gpus")`` read in 1.5 where None and 0 come to the same (``if cfg.trainer.get("gpus"):``;
    ``codemods.project.zero_safe``): the GPU count where the migrated config chose GPUs, else 0 (1.5 read 0, ``[]``
    or None there)."""
    return f'({section}.get("devices") if {section}.get("accelerator") == "gpu" else 0)'
