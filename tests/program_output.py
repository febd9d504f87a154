"""Comparing what a program printed (its ``OUT`` lines) with what a real release printed when it was recorded.

The lines match word for word, and each decimal number within a few units of its last printed digit: torch's CPU
kernels round differently across machines (``OUT epoch 2 step 9 loss 1.871521`` recorded, 1.871522 on another CPU
with the same releases), and that is no difference in what the program did.
"""

from __future__ import annotations

import re

_DECIMAL = re.compile(r"-?\d+\.\d+")
#: Three units of the sixth decimal, the precision the programs print their losses and weights with.
TOLERANCE = 3e-6


def _split(line: str) -> tuple[list[str], list[float]]:
    return _DECIMAL.split(line), [float(number) for number in _DECIMAL.findall(line)]


def same_output(got: list[str], want: list[str]) -> bool:
    """Whether ``got`` says what ``want`` says (see the module docstring)."""
    if len(got) != len(want):
        return False
    for line, expected in zip(got, want, strict=True):
        words, numbers = _split(line)
        expected_words, expected_numbers = _split(expected)
        if words != expected_words or len(numbers) != len(expected_numbers):
            return False
        if any(abs(a - b) > TOLERANCE for a, b in zip(numbers, expected_numbers, strict=True)):
            return False
    return True
