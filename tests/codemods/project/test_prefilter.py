"""The text prefilter's fast paths give the answers of the regexes they stand for."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemods.project.prefilter import _BYTES, _FLASH, _TEXT, TRIGGER, triggered, triggered_bytes

#: Pieces that make near misses likely: keywords, the word, separators regex ``\s`` and ``isspace`` both take.
PIECES = ["flash", "from", "import", "fro", "mimport", " ", "\t", "\n", "\x0b", "\u00a0", "\x1c", "_", "x", "1", "("]
texts = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("import flash\n", True, id="import flash"),
        pytest.param("from flash.core import Task\n", True, id="from flash.core"),
        pytest.param("from  \t flash import Task\n", True, id="any whitespace between"),
        pytest.param("import flash_attn\n", False, id="another package"),
        pytest.param("x = flash\n", False, id="not an import"),
        pytest.param("importflash\n", False, id="no whitespace"),
        pytest.param("reimport flash\n", True, id="like the regex, no word boundary before the keyword"),
        pytest.param("flash import flash", True, id="a later occurrence"),
    ],
)
def test_flash_import(text: str, expected: bool) -> None:
    assert _TEXT._flash_import(text) is expected
    assert _BYTES._flash_import(text.encode()) is expected


@given(texts)
def test_flash_import_answers_as_its_regex(text: str) -> None:
    assert _TEXT._flash_import(text) == (re.search(_FLASH, text) is not None)
    data = text.encode("utf-8")
    assert _BYTES._flash_import(data) == (re.search(_FLASH.encode(), data) is not None)


@pytest.mark.parametrize(
    "text",
    [
        "import pytorch_lightning as pl\n",
        "parser = Trainer.add_argparse_args(parser)\n",
        "from compat import Trainer\n",
        "trainer.num_gpus\n",
        "# TODO(migrate-trainer): look\n",
        "python train.py --gpus 2\n",
        "parser.add_argument('--lr')\n",
        "if cfg.trainer.get('gpus'):\n",
        "if cfg.trainer.get('devices'):\n",
        "x = 1\n",
    ],
)
def test_hints_change_no_answer(text: str) -> None:
    data = text.encode()
    expected = triggered(text)
    assert expected is (TRIGGER.search(text) is not None)  # the fast paths answer as the regex grep is given
    assert triggered_bytes(data) is expected
    assert triggered_bytes(data, b"rainer" in data, b"add_arg" in data) is expected
