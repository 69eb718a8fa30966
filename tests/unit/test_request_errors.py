from pydantic import ValidationError

from agora.http.requests import Body, field_errors


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
