"""Rule ``device_flags`` (deprecated in 1.7): gpus=/tpu_cores=/ipus=/num_processes= become accelerator= and devices=.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, check_transformed, exercised, run

RULE = "device_flags"


TRANSFORMED = [
    pytest.param(
        "import pytorch_lightning as pl\nimport torch\n"
        "def f():\n    gpus = -1 if torch.cuda.is_available() else None\n"
        "    backend = 'ddp' if torch.cuda.is_available() else None\n"
        "    return pl.Trainer(gpus=gpus, distributed_backend=backend)\n",
        "import pytorch_lightning as pl\nimport torch\n"
        "def f():\n    gpus = -1 if torch.cuda.is_available() else None\n"
        "    backend = 'ddp' if torch.cuda.is_available() else None\n"
        '    return pl.Trainer(accelerator="gpu" if gpus else "cpu", devices=gpus or 1, strategy=backend or "auto")\n',
        "2.0",
        id="two names bound under one test hold their branches together (every GPU with DDP, or one CPU)",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=0, max_epochs=1)\n",
        "from pytorch_lightning import Trainer\nTrainer(max_epochs=1)\n",
        "1.7",
        id="gpus=0 meant CPU",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=1 if cuda else 0)\n",
        'from pytorch_lightning import Trainer\nTrainer(accelerator="gpu" if cuda else "cpu", devices=1)\n',
        "1.7",
        id="conditional literal gpus",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=2, precision=16)\n",
        'from pytorch_lightning import Trainer\nTrainer(accelerator="gpu", devices=2, precision="16-mixed")\n',
        "2.0",
        id="2.0 leaves the launcher to 2.0 (reported) and spells precision",
    ),
    # Non-literal values written from the expression itself (tests/codemods/plan/test_non_literal_devices.py proves
    # each pair against the recorded 1.5 selections).
    pytest.param(
        "import torch\nfrom pytorch_lightning import Trainer\nAVAIL_GPUS = min(1, torch.cuda.device_count())\n"
        "Trainer(gpus=AVAIL_GPUS, max_epochs=3)\n",
        "import torch\nfrom pytorch_lightning import Trainer\nAVAIL_GPUS = min(1, torch.cuda.device_count())\n"
        'Trainer(accelerator="gpu" if AVAIL_GPUS else "cpu", devices=1, max_epochs=3)\n',
        "2.0",
        id="a module name bound once to min(1, device_count()) holds 0 or 1: Python's truth is 1.5's",
    ),
    pytest.param(
        "import torch\nfrom pytorch_lightning import Trainer\nTrainer(gpus=torch.cuda.device_count())\n",
        "import torch\nfrom pytorch_lightning import Trainer\n"
        'Trainer(accelerator="gpu" if torch.cuda.device_count() else "cpu", devices=torch.cuda.device_count() or 1)\n',
        "1.7",
        id="torch.cuda.device_count() is an int: 0 was the CPU, n the first n GPUs",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\ndef f(args):\n    return Trainer(gpus=args.gpus)\n",
        "from pytorch_lightning import Trainer\ndef f(args):\n    return Trainer("
        'accelerator="cpu" if str(args.gpus).strip() in ("0", "[]", "None") else "gpu", '
        'devices=1 if str(args.gpus).strip() in ("0", "[]", "None") else args.gpus)\n',
        "2.0",
        id='args.gpus may be a string: "0" meant the CPU, so 1.5\'s own test is spelled out',
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\ndef f(cfg):\n    return Trainer(tpu_cores=cfg.tpu_cores)\n",
        "from pytorch_lightning import Trainer\ndef f(cfg):\n"
        '    return Trainer(accelerator="tpu" if cfg.tpu_cores else "cpu", devices=cfg.tpu_cores or 1)\n',
        "2.0",
        id="tpu_cores: every value 1.5 accepted but None is truthy",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\ndef f(workers):\n    return Trainer(num_processes=workers)\n",
        'from pytorch_lightning import Trainer\ndef f(workers):\n    return Trainer(accelerator="cpu", devices=workers or 1)\n',
        "1.7",
        id="num_processes: always the CPU, 0 was one process",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nN = 2\ndef f():\n    return Trainer(gpus=N)\n",
        'from pytorch_lightning import Trainer\nN = 2\ndef f():\n    return Trainer(accelerator="gpu", devices=N)\n',
        "2.0",
        id="a name bound once to a literal reads as the literal; the name stays",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nbackend = 'ddp' if cuda else None\nTrainer(accelerator=backend, gpus=2)\n",
        "from pytorch_lightning import Trainer\nbackend = 'ddp' if cuda else None\n"
        'Trainer(strategy=backend or "auto", accelerator="gpu", devices=2)\n',
        "2.0",
        id="a name holding a strategy name or None moves to strategy=, None spelled as 2.0's auto",
    ),
]


_ZERO = "str(args.gpus).strip() in ('0', '[]', 'None')"  # (quoted as the file quotes)
TRANSFORMED.append(
    pytest.param(
        "from pytorch_lightning import Trainer\ndef f(args, n):\n    return Trainer(gpus=args.gpus, strategy='ddp')\n",
        "from pytorch_lightning import Trainer\ndef f(args, n):\n"
        f"    return Trainer(accelerator='cpu' if {_ZERO} else 'gpu', devices=1 if {_ZERO} else args.gpus, "
        f"strategy='auto' if {_ZERO} else 'ddp')\n",
        "2.0",
        id="with gpus=0 1.5 dropped DDP for one CPU process (' 0' too): the strategy follows the same test",
    )
)

# A strategy whose test reads the device flag's own value: for each value gpus= may hold, the test picks the branch
# (``None > 1`` raises: that run never reached the Trainer), so the pair is tried with that branch only.
_INT = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--gpus', type=int)\nargs = p.parse_args()\n"
_STORED = "import pytorch_lightning as pl\ndef f(args):\n    if args.gpus > 1:\n        args.gpus = 0\n        {}\n"
_CPU = "str(args.gpus).strip() in ('0', '[]', 'None')"  # 1.5's own test of a value of any type
TRANSFORMED += [
    pytest.param(
        _INT
        + "import pytorch_lightning as pl\npl.Trainer(gpus=args.gpus, strategy='ddp' if args.gpus > 1 else None)\n",
        _INT + 'import pytorch_lightning as pl\npl.Trainer(accelerator="gpu" if args.gpus else "cpu", '
        "devices=args.gpus or 1, strategy='ddp' if args.gpus > 1 else \"auto\")\n",
        "2.0",
        id="strategy='ddp' if args.gpus > 1: DDP only where 1.5 had several GPUs, never on the CPU",
    ),
    pytest.param(
        _INT
        + "import pytorch_lightning as pl\npl.Trainer(gpus=args.gpus, strategy=None if 1 >= args.gpus else 'ddp')\n",
        _INT + 'import pytorch_lightning as pl\npl.Trainer(accelerator="gpu" if args.gpus else "cpu", '
        "devices=args.gpus or 1, strategy=\"auto\" if 1 >= args.gpus else 'ddp')\n",
        "2.0",
        id="the number on the left, the branches the other way round",
    ),
    pytest.param(
        "import pytorch_lightning as pl\ndef f(args):\n"
        "    return pl.Trainer(gpus=args.gpus, distributed_backend='ddp' if args.gpus and args.gpus > 1 else None)\n",
        "import pytorch_lightning as pl\ndef f(args):\n"
        '    return pl.Trainer(accelerator="cpu" if str(args.gpus).strip() in ("0", "[]", "None") else "gpu", '
        'devices=1 if str(args.gpus).strip() in ("0", "[]", "None") else args.gpus, '
        "strategy='ddp' if args.gpus and args.gpus > 1 else \"auto\")\n",
        "2.0",
        id="args.gpus and args.gpus > 1 (longformer): None short-circuits, so DDP only where 1.5 had several GPUs",
    ),
]

# Under ``if args.gpus > 1:`` the count can only be an int above 1 (``"2" > 1`` raises): one accelerator for all.
_GUARDED = "import pytorch_lightning as pl\ndef f(args):\n    if args.gpus > 1:\n        args.seen = 1\n        {}\n"
TRANSFORMED += [
    pytest.param(
        _GUARDED.format("return pl.Trainer(gpus=args.gpus, strategy='ddp')"),
        _GUARDED.format("return pl.Trainer(accelerator='gpu', devices=args.gpus, strategy='ddp')"),
        "2.0",
        id="under if args.gpus > 1 the count is an int above 1: accelerator='gpu', devices=args.gpus",
    ),
    pytest.param(
        "import pytorch_lightning as pl\ndef f(args):\n    if args.gpus > 1:\n        pass\n"
        "    elif args.cpu:\n        return pl.Trainer(gpus=args.gpus)\n",
        "import pytorch_lightning as pl\ndef f(args):\n    if args.gpus > 1:\n        pass\n"
        '    elif args.cpu:\n        return pl.Trainer(accelerator="gpu" if args.gpus else "cpu", devices=args.gpus or 1)\n',
        "2.0",
        id="in the elif of if args.gpus > 1: an int of at most 1, so Python's truth is 1.5's",
    ),
    pytest.param(
        _STORED.format("return pl.Trainer(gpus=args.gpus, strategy='ddp', sync_batchnorm=args.sync)"),
        _STORED.format(
            f"return pl.Trainer(accelerator='cpu' if {_CPU} else 'gpu', devices=1 if {_CPU} else args.gpus, "
            f"strategy='auto' if {_CPU} else 'ddp', sync_batchnorm=args.sync)"
        ),
        "2.0",
        id="an if whose body stores into the value's name again says nothing of it: written for any value",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


_CALL = "from pytorch_lightning import Trainer\ndef f(args, n):\n    return Trainer({})\n"

TODO = [
    pytest.param(_CALL.format("gpus=args.gpus()"), "2.0", "device_flags", id="a call may differ when written twice"),
    pytest.param(_CALL.format("ipus=n"), "2.0", "device_flags", id="ipus=0 ran on the IPU accelerator in 1.5"),
    pytest.param(_CALL.format("gpus=n, devices=4"), "2.0", "device_flags", id="devices= next to a non-literal"),
    pytest.param(
        "from pytorch_lightning import Trainer\nn = 1\nn += 1\nTrainer(gpus=n(), num_nodes=2)\n",
        "2.0",
        "device_flags",
        id="augmented names are not followed",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\n"
        "def f(cuda, multi):\n    n = 2 if cuda else 0\n    backend = 'ddp' if multi else None\n"
        "    return Trainer(strategy=backend, gpus=n)\n",
        "1.7",
        "device_flags",
        id="each value of one name is tried with each of the other's: ddp on one CPU process differs",
    ),
    pytest.param(
        _CALL.format("gpus=args.gpus, strategy='ddp' if args.gpus >= 0 else 'ddp_spawn'"),
        "2.0",
        "device_flags",
        id="a test that keeps ddp for gpus=0 (one CPU process, where 1.5 dropped it) still holds",
    ),
    pytest.param(
        _CALL.format("gpus=args.gpus, strategy='ddp' if n > 1 else 'ddp_spawn'"),
        "2.0",
        "device_flags",
        id="a test of another value says nothing of the devices",
    ),
]


NOT_FOLLOWED = [
    pytest.param("n = 2\nn += 1\n", id="augmented"),
    pytest.param("n = 2\nfor n in range(3):\n    pass\n", id="loop target"),
    pytest.param("n = 2\ndef g():\n    global n\n    n = 0\n", id="global in a function"),
    pytest.param("n = 2\nn = 0\n", id="rebound"),
    pytest.param("n = 2\nif (n := 0):\n    pass\n", id="walrus"),
    pytest.param("n = 2\ndel n\n", id="del"),
]


@pytest.mark.parametrize("bindings", NOT_FOLLOWED)
def test_a_name_bound_more_than_once_is_not_read_as_its_literal(bindings: str) -> None:
    """The pair and the strategy are written from the name, read when the Trainer is built: never from the 2."""
    source = f"from pytorch_lightning import Trainer\n{bindings}Trainer(gpus=n, strategy='ddp')\n"
    outcome = run(source, "2.0")
    assert "devices=1 if str(n).strip()" in outcome.source and "else n," in outcome.source, outcome.source
    assert "devices=2" not in outcome.source
    assert run(outcome.source, "2.0").source == outcome.source


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_todo_leaves_code_and_says_why(source: str, target: str, rule: str) -> None:
    check_todo(source, target, rule)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
