import pytest

from agora.core.accounts import (
    EMAIL_FIELD,
    PHONE_FIELD,
    Identifier,
    check_otp_format,
    clean_image_url,
    clean_name,
    identifier_from,
    identifier_in_use,
    normalize_email,
    normalize_phone,
    user_view,
)
from agora.core.errors import Conflict, InvalidInput


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(" Ada@Example.ORG ", "ada@example.org"), ("a.b+tag@mail.co.uk", "a.b+tag@mail.co.uk")],
)
def test_emails_are_trimmed_and_lowercased(raw, expected):
    assert normalize_email(raw) == expected


@pytest.mark.parametrize(
    "raw",
    # An address literal ([127.0.0.1]) would have codes mailed to a host the sender picks.
    ["", "ada", "ada@", "@example.org", "a b@c.de", "a@b", "a@b.c", "a@[127.0.0.1]", "a@[::1].io"],
)
def test_malformed_emails_are_refused_with_the_field_named(raw):
    with pytest.raises(InvalidInput) as caught:
        normalize_email(raw)
    assert list(caught.value.errors) == [EMAIL_FIELD]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("+31 6 1234 5678", "+31612345678"),
        ("0031-6-12345678", "+31612345678"),
        ("+1 (415) 555-2671", "+14155552671"),
    ],
)
def test_phones_become_e164(raw, expected):
    assert normalize_phone(raw) == expected


@pytest.mark.parametrize(
    "raw", ["0612345678", "+0123456789", "+31abc", "+123", "+1234567890123456"]
)
def test_phones_without_a_valid_country_code_are_refused(raw):
    with pytest.raises(InvalidInput) as caught:
        normalize_phone(raw)
    assert list(caught.value.errors) == [PHONE_FIELD]


def test_email_wins_over_phone_and_nothing_means_no_identifier():
    assert identifier_from("a@b.co", "+31612345678") == Identifier(EMAIL_FIELD, "a@b.co")
    assert identifier_from(None, "+31612345678") == Identifier(PHONE_FIELD, "+31612345678")
    assert identifier_from("", None) is None


def test_masking_hides_most_of_the_identifier():
    assert Identifier(EMAIL_FIELD, "grace@navy.mil").masked() == "gr***@navy.mil"
    assert Identifier(PHONE_FIELD, "+31612345678").masked() == "+31*******78"


def test_names_are_collapsed_and_bounded():
    assert clean_name("  Ada \t Lovelace ") == "Ada Lovelace"
    for bad in ["   ", "x" * 81, "Ada\x00"]:
        with pytest.raises(InvalidInput):
            clean_name(bad)


STORED = "/uploads/65f0c0ffee0123456789abcd"


def test_images_are_uploads_or_web_links_only():
    assert clean_image_url(f" {STORED}.jpg ") == f"{STORED}.jpg"
    assert clean_image_url(f"{STORED}_thumb.jpg") == f"{STORED}_thumb.jpg"
    assert clean_image_url("") == ""
    for bad in [
        "javascript:alert(1)",
        "data:image/png;base64,xx",
        "ftp://x/y.png",
        "/etc/passwd",
        # Only the name of a stored picture: no other path on the site, no other kind of file.
        "/uploads/../../etc/passwd",
        "/uploads/../api/user/me",
        "/uploads/a.jpg",
        f"{STORED}.pdf",
        f"{STORED}.jpg?x=1",
    ]:
        with pytest.raises(InvalidInput):
            clean_image_url(bad)


def test_codes_must_be_six_digits():
    assert check_otp_format(" 012345 ") == "012345"
    for bad in ["12345", "1234567", "12345a", "١٢٣٤٥٦"]:
        with pytest.raises(InvalidInput):
            check_otp_format(bad)


def test_identifier_in_use_names_the_field():
    error = identifier_in_use(PHONE_FIELD)
    assert isinstance(error, Conflict)
    assert error.errors == {PHONE_FIELD: "This phone number already belongs to another account"}


def test_user_view_has_the_spec_fields_only():
    doc = {"_id": "u1", "name": "Ada", "email_id": "a@b.co", "secret": "x", "created_at": 5}
    assert user_view(doc) == {
        "_id": "u1",
        "name": "Ada",
        "image": "",
        "phone_number": None,
        "email_id": "a@b.co",
        "data": {"notifications_unseen_count": 0},
        "created_at": 5,
    }
