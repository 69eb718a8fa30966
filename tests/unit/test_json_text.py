"""The hot paths' JSON reads every body as the standard library does and writes what it
would, in C where that gives the same."""

import dataclasses
import json
import math
from datetime import UTC, datetime

import pytest
from bson import ObjectId

from agora.core import json_text

BODIES = [
    '{"a": 1, "b": [true, false, null], "c": "text", "d": 1.5}',
    '{"amount": 100000000000000000000}',  # beyond 64 bits: orjson would make it a float
    '{"amount": -9223372036854775809}',
    '{"when": 1700000000000, "ratio": 0.12345678901234567890}',
    '{"x": NaN, "y": Infinity, "z": -Infinity}',  # not JSON, but json reads them
    '{"big": 1.5e400}',
    '{"emoji": "\\ud83d\\ude00", "text": "caf\\u00e9 \u00e9"}',
    '{"same": 1, "same": 2}',
    "[" * 200 + "]" * 200,
    '"\\ud800"',  # a lone surrogate
]

NOT_JSON = ["", "{", '{"a": }', "[1,]", "{'a': 1}", "\x00", '"\\x"', "[" * 5000 + "]" * 5000]


@pytest.mark.parametrize("body", BODIES)
def test_a_body_reads_as_the_standard_library_reads_it(body):
    expected = json.loads(body)
    for raw in (body, body.encode("utf-8", "surrogatepass")):
        read = json_text.loads(raw)
        assert _same(read, expected)


@pytest.mark.parametrize("body", NOT_JSON)
def test_what_the_standard_library_refuses_is_refused(body):
    with pytest.raises((ValueError, RecursionError)):
        json.loads(body)
    with pytest.raises((ValueError, RecursionError)):
        json_text.loads(body)


def test_invalid_utf8_is_refused():
    with pytest.raises(ValueError):
        json_text.loads(b'{"a": "\xff"}')


@dataclasses.dataclass
class Point:
    x: int


def test_values_are_written_as_the_standard_library_writes_them():
    when = datetime(2026, 11, 25, 2, 30, tzinfo=UTC)
    oid = ObjectId()
    value = {
        "when": when,
        "id": oid,
        "point": Point(1),
        "amount": 10**20,
        "keys": {1: "one", False: "no", None: "nothing"},
        "text": "café 😀",
        "nested": [{"a": [1, 2.5, None]}],
    }
    written = json_text.dumps(value)
    assert isinstance(written, bytes)
    expected = json.dumps(value, default=str, ensure_ascii=False, separators=(",", ":"))
    assert json.loads(written) == json.loads(expected)
    assert json.loads(written)["when"] == str(when)
    assert json_text.dumps_text(value, separators=(",", ":")) == written.decode()


def test_what_utf8_cannot_hold_is_written_escaped():
    written = json_text.dumps({"text": "\ud800"})
    assert json.loads(written) == {"text": "\ud800"}


def test_not_a_number_is_written_as_null():
    assert json.loads(json_text.dumps({"x": math.nan, "y": math.inf})) == {"x": None, "y": None}


def _same(a, b) -> bool:
    """Equal, with NaN equal to itself and each number of the same type."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b
