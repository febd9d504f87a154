"""Which of the project's data modules hold ``dims`` from their construction on (``codemods.project.datamodule_dims``):
their ``size()`` is that ``dims`` (rule ``datamodule_size``), across files and base classes. Each row is a project of
one or more files; the expected set is the data modules whose ``dm.size()`` may become ``dm.dims``."""

from __future__ import annotations

import pytest

from codemods.project.datamodule_dims import dims_classes, scan_dims
from codemods.project.hook_classes import project_hook_classes, scan_hook_bases

HEAD = b"import pytorch_lightning as pl\n\n\n"


def _project(*files: bytes) -> frozenset[str]:
    raws = [scan_hook_bases(HEAD + text) for text in files]
    hooks = project_hook_classes(raws)
    return dims_classes([scan_dims(HEAD + text) for text in files], raws, hooks)


CLASS_ATTR = b"class Shaped(pl.LightningDataModule):\n    dims = (3, 32, 32)\n"
INIT = b"class Built(pl.LightningDataModule):\n    def __init__(self):\n        super().__init__()\n        self.dims = (1, 2)\n"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param((CLASS_ATTR,), {"Shaped"}, id="a class attribute shadows 1.5's property"),
        pytest.param((b"class A(pl.LightningDataModule):\n    dims: tuple = (1,)\n",), {"A"}, id="an annotated one"),
        pytest.param(
            (b"class A(pl.LightningDataModule):\n    dims: tuple\n",), set(), id="an annotation alone sets nothing"
        ),
        pytest.param((INIT,), {"Built"}, id="its own __init__ sets self.dims"),
        pytest.param(
            (b"class Late(pl.LightningDataModule):\n    def setup(self, stage=None):\n        self.dims = (1,)\n",),
            set(),
            id="setup() sets it: 1.5 read () before",
        ),
        pytest.param(
            (CLASS_ATTR, b"from a import Shaped\n\n\nclass Narrow(Shaped):\n    def __init__(self):\n        pass\n"),
            {"Shaped", "Narrow"},
            id="a base's class attribute, in another file, whatever the __init__",
        ),
        pytest.param(
            (INIT, b"class Derived(Built):\n    def __init__(self):\n        super().__init__()\n"),
            {"Built", "Derived"},
            id="a base's __init__ reached through super()",
        ),
        pytest.param(
            (INIT, b"class Derived(Built):\n    def __init__(self):\n        self.x = 1\n"),
            {"Built"},
            id="a base's __init__ never reached",
        ),
        pytest.param(
            (INIT, b"class Derived(Built):\n    pass\n"),
            {"Built", "Derived"},
            id="no __init__: the base's runs",
        ),
        pytest.param(
            (CLASS_ATTR + b"\n    def size(self):\n        return 1\n", b"class Sub(Shaped):\n    dims = (1,)\n"),
            set(),
            id="a size() of the project's own on the way is no Lightning size()",
        ),
        pytest.param(
            (INIT, INIT),
            set(),
            id="a name defined twice counts for nothing",
        ),
        pytest.param(
            (CLASS_ATTR, INIT, b"class Both(Shaped, Built):\n    pass\n"),
            {"Shaped", "Built"},
            id="two project bases: the method resolution order is not followed",
        ),
        pytest.param((b"class Plain:\n    dims = (1,)\n",), set(), id="not a data module"),
        pytest.param(
            (INIT, b"def __init__(self):\n    pass\n"),
            {"Built"},
            id="an __init__ outside any class",
        ),
        pytest.param(
            (b"class Broken(pl.LightningDataModule:\n    dims = (1,)\n",), set(), id="a file that does not parse"
        ),
    ],
)
def test_dims_classes(files: tuple[bytes, ...], expected: set[str]) -> None:
    assert _project(*files) == expected
