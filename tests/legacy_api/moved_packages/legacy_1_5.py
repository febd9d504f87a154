"""Run on real 1.5.10 as written and, migrated, on real 2.6.6: both must print the same
(``tests/legacy_api/test_moved_packages.py``). Not a test module: it imports the legacy names."""

import os
import random
from collections import OrderedDict, defaultdict, namedtuple
from dataclasses import dataclass

import torch
from pytorch_lightning.plugins.environments.slurm_environment import SLURMEnvironment
from pytorch_lightning.plugins.environments.torchelastic_environment import TorchElasticEnvironment
from pytorch_lightning.utilities.apply_func import apply_to_collection, move_data_to_device
from pytorch_lightning.utilities.seed import reset_seed

P = namedtuple("P", "a b")


@dataclass
class D:
    x: int
    y: list[int | None]


data = {
    "a": [1, 2.0, (3, "s")],
    "b": P(4, None),
    "c": D(5, [6, None]),
    "d": OrderedDict(k=7),
    "e": defaultdict(list, z=[8]),
}
print(apply_to_collection(data, int, lambda v: v * 10))
print(apply_to_collection({"a": [1, "x"], "c": D(5, [6])}, int, lambda v: None, include_none=False))
print(apply_to_collection([1, True, 2], int, str, wrong_dtype=bool))
print(move_data_to_device({"t": torch.ones(2), "n": [torch.zeros(1), "s"]}, "cpu"))
os.environ["PL_GLOBAL_SEED"] = "123"
os.environ["PL_SEED_WORKERS"] = "1"
reset_seed()
print(random.random(), torch.rand(1).item())
print(TorchElasticEnvironment.__name__, SLURMEnvironment.__name__)
