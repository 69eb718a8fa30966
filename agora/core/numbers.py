"""Whole numbers from outside (query strings, list cursors), read one way everywhere.

`str.isdigit` and `int` accept far more than ASCII digits ('²', '٣', '1_000', ' 7'), `int`
takes numbers of any length and JSON's `1e400` is infinity: each of these once reached a
store query or an `int()` and failed there. Only plain ASCII digits within bounds pass.
"""

import re
from typing import Any

from agora.core.errors import InvalidInput

# Timestamps and counters fit a JavaScript number and MongoDB's 64-bit integer exactly.
WHOLE_NUMBER_MAX = 2**53 - 1
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,16}")


def _refused(field: str, low: int, high: int) -> InvalidInput:
    return InvalidInput({field: f"Must be a whole number from {low} to {high}"})


def bounded_int(value: Any, field: str, low: int = 0, high: int = WHOLE_NUMBER_MAX) -> int:
    """`value` (text of ASCII digits, or a JSON integer) as an int within [low, high];
    anything else is refused under `field`."""
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _refused(field, low, high)
    return value
