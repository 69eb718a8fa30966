import json

from pydantic import ValidationError

from agora.core.errors import InvalidInput
from agora.core.json_text import MAX_DEPTH as JSON_MAX_DEPTH
from agora.http.requests import Body, field_errors, parse_json


class Sample(Body):
    name: str
    count: int = 0


def test_validation_failures_become_one_message_per_field():
    try:
        Sample.model_validate({"count": "3", "extra": 1})
    except ValidationError as error:
        assert field_errors(error) == {
            "name": "This field is required",
            "count": "Must be a whole number",
            "extra": "Unknown field",
        }
    else:
        raise AssertionError("the body was accepted")


def test_json_nesting_is_refused_beyond_the_limit_and_only_there():
    def nested(levels: int) -> str:
        return "[" * (levels - 1) + '{"a": 1}' + "]" * (levels - 1)

    assert parse_json(nested(JSON_MAX_DEPTH)) is not None
    assert parse_json(nested(JSON_MAX_DEPTH).encode()) is not None
    # Brackets inside strings are no nesting.
    text = {"payload": "[{" * 100}
    assert parse_json(json.dumps(text)) == text
    for body in (nested(JSON_MAX_DEPTH + 1), nested(JSON_MAX_DEPTH + 1).encode()):
        try:
            parse_json(body)
        except InvalidInput as error:
            assert "deeper than" in str(error.errors)
        else:
            raise AssertionError("a body nesting too deep was read")
