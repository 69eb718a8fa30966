"""JSON text of the hot paths (request bodies, replies, socket packets, room publishes), and
the one reader of JSON from outside (`loads_outside`: depth-capped).

orjson parses and writes in C: with it, an edge under a send load spent 7 % less CPU (0.26
against 0.28 ms a message). Where the two would read a body differently, the standard
library's reading is kept, so a path moved here reads every body as before:
- orjson reads an integer beyond 64 bits as a float (losing digits), and refuses NaN,
  Infinity, lone surrogates and deep nesting, which `json` reads (or refuses as it does);
- orjson cannot write an integer beyond 64 bits, nor a string holding a lone surrogate.
Text is written as UTF-8 rather than escaped, and NaN and infinities as `null`, where
`json` writes `NaN`, which is not JSON.
"""

import json
import re
from typing import Any

import orjson

# Digits enough to hold an integer beyond 64 bits (a long decimal fraction matches too, and
# is read by `json` all the same).
_LONG_DIGITS_BYTES = re.compile(rb"\d{19}")
_LONG_DIGITS_TEXT = re.compile(r"\d{19}")
# What `json.dumps(..., default=str)` writes through `default`, orjson writes through it too.
_AS_JSON_WRITES = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


def loads(raw: bytes | str) -> Any:
    """As `json.loads`, whose errors (ValueError, RecursionError) it raises."""
    long_digits = _LONG_DIGITS_BYTES if isinstance(raw, bytes) else _LONG_DIGITS_TEXT
    if long_digits.search(raw) is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)


# Nothing read from outside needs deeper nesting: request bodies are objects of fields holding
# lists of plain values, and Meta's and Stripe's deliveries nest about ten levels.
MAX_DEPTH = 32


class Unreadable(ValueError):
    """JSON from outside that is refused: not JSON, or nested deeper than MAX_DEPTH."""


def loads_outside(raw: bytes | str) -> Any:
    """JSON that came from outside the edge (request bodies, socket packets, webhooks, push
    subscriptions): as `loads`, but nesting deeper than MAX_DEPTH, or deeper than the parser
    can follow (RecursionError), is refused like text that is not JSON (`Unreadable`)."""
    try:
        data = loads(raw)
    except RecursionError as error:
        raise Unreadable(f"nests deeper than {MAX_DEPTH} levels") from error
    except ValueError as error:  # UnicodeDecodeError included
        raise Unreadable("is not valid JSON") from error
    if isinstance(data, dict | list) and _may_nest_too_deep(raw) and _too_deep(data):
        raise Unreadable(f"nests deeper than {MAX_DEPTH} levels")
    return data


def _may_nest_too_deep(raw: bytes | str) -> bool:
    """Each level opens a bracket, so a text with at most MAX_DEPTH of them cannot nest deeper
    (counted in C; walking the parsed data was 3 % of an edge under a send load)."""
    brackets = (b"[", b"{") if isinstance(raw, bytes) else ("[", "{")
    return raw.count(brackets[0]) + raw.count(brackets[1]) > MAX_DEPTH


def _too_deep(data: Any) -> bool:
    """Whether lists and objects nest deeper than MAX_DEPTH (walked without recursion)."""
    level: list[Any] = [data]
    for _ in range(MAX_DEPTH):
        level = [
            child
            for value in level
            for child in (value.values() if isinstance(value, dict) else value)
            if isinstance(child, dict | list)
        ]
        if not level:
            return False
    return True


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON; what is not JSON's own (a datetime, an ObjectId) as its `str`."""
    try:
        return orjson.dumps(value, default=str, option=_AS_JSON_WRITES)
    except orjson.JSONEncodeError:
        # In ASCII, a lone surrogate is written as its escape rather than failing.
        return json.dumps(value, separators=(",", ":"), default=str).encode()


def dumps_text(value: Any, **_: Any) -> str:
    """As `dumps`, as text; takes (and ignores) `json.dumps`'s options, which libraries pass
    when this stands in for it."""
    return dumps(value).decode()
