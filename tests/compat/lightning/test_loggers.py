"""``trainer.logger`` of ``Trainer(logger=[...])`` on the real 2.x is 1.5.10's LoggerCollection: every call goes to
each logger of the list, an empty list logs nowhere (2.x's is None), and a single logger passed alone is unchanged."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning


def _recording_logger(version: str) -> Any:
    from pytorch_lightning.loggers import Logger

    version_text = version

    class Recording(Logger):
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[Any] = []

        name = property(lambda self: "rec")  # type: ignore[assignment]
        version = property(lambda self: version_text)  # type: ignore[assignment]

        def log_metrics(self, metrics: Any, step: Any = None) -> None:
            self.calls.append(("metrics", dict(metrics)))

        def log_hyperparams(self, params: Any, *args: Any, **kwargs: Any) -> None:
            self.calls.append(("hparams", dict(params)))

    return Recording()


@pytest.mark.parametrize("count", [0, 1, 2], ids=["an empty list logs nowhere", "a list of one", "a list of two"])
def test_trainer_logger_of_a_list_is_the_15_collection(shim: Any, count: int) -> None:
    from tests.compat.lightning.tiny import trainer

    loggers = [_recording_logger(str(i)) for i in range(count)]
    built = trainer(logger=loggers)
    with pytest.warns(CompatDeprecationWarning, match=r"trainer\.loggers"):
        collection = built.logger
    collection.log_hyperparams({"lr": 0.1})
    assert [lg.calls for lg in loggers] == [[("hparams", {"lr": 0.1})]] * count
    assert len(collection) == count and collection.name == "_".join(["rec"] * count)
    assert collection.version == "_".join(str(i) for i in range(count))
    assert built.logger is collection  # one collection per list, as 1.5 had one


def test_a_logger_passed_alone_is_unchanged(shim: Any) -> None:
    from tests.compat.lightning.tiny import trainer

    alone = _recording_logger("0")
    built = trainer(logger=alone)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CompatDeprecationWarning)
        assert built.logger is alone and trainer(logger=False).logger is None
