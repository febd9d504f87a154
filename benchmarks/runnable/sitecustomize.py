"""Edge shims for ``bench_runnable.py``: a project's entry point runs offline, on a CPU, in seconds.

Python imports ``sitecustomize`` at start-up from ``sys.path``; ``bench_runnable.py`` puts this folder on
``PYTHONPATH`` and names the shims a project needs in ``RUNNABLE_SHIMS`` (comma-separated ids of ``SHIMS``).
Nothing here touches the project's code: each shim patches a third-party module right after it is first
imported (a ``sys.meta_path`` finder wraps that module's loader), so a project that never imports it pays
nothing, and ``from torchvision.datasets.mnist import MNIST`` sees the patch as much as
``torchvision.datasets.MNIST`` does.

* ``torchvision_datasets``: the dataset classes of ``DATASETS`` become synthetic datasets of the real lengths,
  image shapes and class counts (no download, no file); item ``i`` is the same image on every run.
* ``optuna_caps``: ``Study.optimize`` runs at most ``RUNNABLE_OPTUNA_TRIALS`` trials (default 2).
* ``max_epochs_cap``: ``Trainer(max_epochs=N)`` trains at most ``RUNNABLE_MAX_EPOCHS`` epochs (default 1):
  ``PL_TRAINER_MAX_EPOCHS`` fills only an argument the project does not pass, and a script that asks for 100
  epochs with early stopping (pytorch-forecasting's nbeats) otherwise trains for minutes.
* ``cuda_stats_on_cpu``: without a GPU, ``torch.cuda``'s memory statistics and ``synchronize`` answer as an idle
  device would (0 bytes, nothing to wait for) instead of raising: a project's timing callback (minGPT's
  ``CUDACallback``) is instrumentation, and the benchmark machine has no GPU.
* ``torchvision_no_ops``: the index's torchvision wheel is the CUDA build, whose compiled ops do not load next to
  the CPU torch (``libc10_cuda.so`` missing), and ``import torchvision`` then fails while registering fake
  kernels for them (``operator torchvision::nms does not exist``). An empty ``torchvision._meta_registrations``
  lets it import; datasets, transforms and models work, ``torchvision.ops`` (nms, roi_align) would raise.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class FakeSpec:
    """What a synthetic stand-in of a torchvision dataset must look like to the code that reads it."""

    module: str  # the torchvision.datasets submodule defining the class
    lengths: dict[str, int]  # split -> number of items (train=True is "train", train=False is "test")
    shape: tuple[int, ...]  # one image, as the PIL image torchvision's class returns (H, W) or (H, W, C)
    classes: int


_MNIST_LIKE = {"train": 60000, "test": 10000}
#: The real sizes (torchvision's docs), so that ``random_split(ds, [55000, 5000])`` still adds up.
DATASETS: dict[str, FakeSpec] = {
    "MNIST": FakeSpec("mnist", _MNIST_LIKE, (28, 28), 10),
    "FashionMNIST": FakeSpec("mnist", _MNIST_LIKE, (28, 28), 10),
    "KMNIST": FakeSpec("mnist", _MNIST_LIKE, (28, 28), 10),
    "CIFAR10": FakeSpec("cifar", {"train": 50000, "test": 10000}, (32, 32, 3), 10),
    "CIFAR100": FakeSpec("cifar", {"train": 50000, "test": 10000}, (32, 32, 3), 100),
    "STL10": FakeSpec(
        "stl10", {"train": 5000, "test": 8000, "unlabeled": 100000, "train+unlabeled": 105000}, (96, 96, 3), 10
    ),
    "SVHN": FakeSpec("svhn", {"train": 73257, "test": 26032, "extra": 531131}, (32, 32, 3), 10),
}


def _fake_dataset(base: type, name: str, spec: FakeSpec) -> type:
    import numpy as np
    from PIL import Image  # type: ignore[import-not-found,unused-ignore]
    from torchvision.datasets.vision import VisionDataset  # type: ignore[import-not-found,unused-ignore]

    class Fake(base):  # type: ignore[valid-type,misc,unused-ignore]
        def __init__(
            self,
            root: Any = ".",
            train: bool = True,
            transform: Callable[..., Any] | None = None,
            target_transform: Callable[..., Any] | None = None,
            download: bool = False,
            split: str | None = None,
            **_: Any,
        ) -> None:
            VisionDataset.__init__(self, str(root), transform=transform, target_transform=target_transform)
            self.train = train
            self.split = split or ("train" if train else "test")
            self._n = spec.lengths.get(self.split, spec.lengths["train"])
            self.classes = [str(c) for c in range(spec.classes)]
            rng = np.random.default_rng(len(name) * 7919 + self._n)
            labels = rng.integers(0, spec.classes, self._n)
            self.targets = labels.tolist() if spec.module != "mnist" else _tensor(labels)
            self.labels = labels
            self._data: Any = None

        @property
        def data(self) -> Any:  # built only if read: most code never touches the whole array
            if self._data is None:
                array = np.stack([self._image(i) for i in range(self._n)])
                self._data = _tensor(array) if spec.module == "mnist" else array
            return self._data

        @data.setter
        def data(self, value: Any) -> None:
            self._data = value

        def _image(self, index: int) -> Any:
            return np.random.default_rng(index).integers(0, 256, spec.shape, dtype=np.uint8)

        def _check_exists(self) -> bool:
            return True

        def download(self) -> None:
            return None

        def __len__(self) -> int:
            return self._n if self._data is None else len(self._data)

        def __getitem__(self, index: int) -> tuple[Any, Any]:
            img: Any = Image.fromarray(self._image(int(index)))
            target: Any = int(self.labels[int(index) % self._n])
            if self.transform is not None:
                img = self.transform(img)
            if self.target_transform is not None:
                target = self.target_transform(target)
            return img, target

    Fake.__name__ = Fake.__qualname__ = name
    return Fake


def _tensor(array: Any) -> Any:
    import torch

    return torch.as_tensor(array)


def _patch_torchvision_datasets(module: ModuleType) -> None:
    for name, spec in DATASETS.items():
        base = getattr(module, name, None)
        if base is None:
            continue
        fake = _fake_dataset(base, name, spec)
        setattr(module, name, fake)
        defining = sys.modules.get(f"torchvision.datasets.{spec.module}")
        if defining is not None and getattr(defining, name, None) is base:
            setattr(defining, name, fake)


def _patch_optuna_study(module: ModuleType) -> None:
    cap = int(os.environ.get("RUNNABLE_OPTUNA_TRIALS", "2"))
    study = module.Study
    original = study.optimize

    def optimize(self: Any, func: Any, n_trials: int | None = None, *args: Any, **kwargs: Any) -> Any:
        return original(self, func, min(n_trials or cap, cap), *args, **kwargs)

    study.optimize = optimize


def _patch_cuda_stats(module: ModuleType) -> None:
    if module.is_available():
        return

    def idle(*_: Any, **__: Any) -> int:
        return 0

    for name in ("reset_peak_memory_stats", "synchronize", "max_memory_allocated", "memory_allocated"):
        setattr(module, name, idle)


def _patch_max_epochs(module: ModuleType) -> None:
    import functools

    cap = int(os.environ.get("RUNNABLE_MAX_EPOCHS", "1"))
    trainer = module.Trainer
    original = trainer.__init__

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(kwargs.get("max_epochs"), int) and kwargs["max_epochs"] > cap:
            kwargs["max_epochs"] = cap
        original(self, *args, **kwargs)

    trainer.__init__ = __init__


#: shim id -> (module patched right after its first import, the patch).
SHIMS: dict[str, tuple[str, Callable[[ModuleType], None]]] = {
    "torchvision_datasets": ("torchvision.datasets", _patch_torchvision_datasets),
    "optuna_caps": ("optuna.study", _patch_optuna_study),
    "cuda_stats_on_cpu": ("torch.cuda", _patch_cuda_stats),
    "max_epochs_cap": ("pytorch_lightning.trainer.trainer", _patch_max_epochs),
}


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, inner: importlib.abc.Loader, patch: Callable[[ModuleType], None]) -> None:
        self._inner, self._patch = inner, patch

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._inner.exec_module(module)
        self._patch(module)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: asks the finders after it, then wraps the loader of a module it has a patch for."""

    def __init__(self, patches: dict[str, Callable[[ModuleType], None]]) -> None:
        self._patches = patches

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        patch = self._patches.get(fullname)
        if patch is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _PatchingLoader(spec.loader, patch)
                return spec
        return None


def _skip_torchvision_meta_registrations() -> None:
    sys.modules.setdefault("torchvision._meta_registrations", ModuleType("torchvision._meta_registrations"))


#: shims that act at start-up rather than after an import.
EAGER: dict[str, Callable[[], None]] = {"torchvision_no_ops": _skip_torchvision_meta_registrations}


def install(names: Sequence[str]) -> None:
    unknown = sorted(set(names) - set(SHIMS) - set(EAGER))
    if unknown:
        raise SystemExit(f"sitecustomize: unknown RUNNABLE_SHIMS {unknown}; known: {sorted(SHIMS) + sorted(EAGER)}")
    for name in names:
        if name in EAGER:
            EAGER[name]()
    patches = {SHIMS[name][0]: SHIMS[name][1] for name in names if name in SHIMS}
    sys.meta_path.insert(0, _AfterImport(patches))


install([name for name in os.environ.get("RUNNABLE_SHIMS", "").split(",") if name])
