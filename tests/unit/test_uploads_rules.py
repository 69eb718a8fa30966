import dataclasses
import io
import struct
import zipfile
import zlib

import pytest
from PIL import Image

from agora.core.errors import Forbidden, InvalidInput
from agora.core.signing import sign
from agora.core.uploads import (
    FILE_TYPES,
    UPLOAD_MAX_BYTES,
    UPLOAD_TITLE_MAX_LENGTH,
    UploadGrant,
    check_content,
    clean_title,
    file_type,
    grant_token,
    read_grant,
    served_type,
    stored_name,
    thumbnail_name,
    upload_id_of,
    upload_limit,
)

UPLOAD_ID = "65f0c0ffee0123456789abcd"
JPEG, PNG, WEBP = (FILE_TYPES[f"image/{name}"] for name in ("jpeg", "png", "webp"))
PDF = FILE_TYPES["application/pdf"]
DOCX = FILE_TYPES["application/vnd.openxmlformats-officedocument.wordprocessingml.document"]
MP4 = FILE_TYPES["video/mp4"]
GRANT = UploadGrant(UPLOAD_ID, "user-1", "image/jpeg", 1000, expires_at=2_000)


def image_bytes(image_format, size=(640, 480), mode="RGB", color="teal", **options) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, color).save(out, image_format, **options)
    return out.getvalue()


def png_declaring(width: int, height: int) -> bytes:
    """A few bytes of PNG whose header claims width x height pixels."""
    data = bytearray(image_bytes("PNG", (1, 1), "L"))
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(data[12:29]))
    return bytes(data)


def docx_bytes(member: str = "word/document.xml") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(member, "<w:document/>")
    return out.getvalue()


@pytest.mark.parametrize(
    ("mime", "extension"),
    [
        ("image/jpeg", "jpg"),
        ("image/png", "png"),
        ("image/webp", "webp"),
        ("application/pdf", "pdf"),
        ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"),
        ("video/mp4", "mp4"),
        (" Image/JPEG ", "jpg"),
    ],
)
def test_accepted_types_map_to_their_stored_extension(mime, extension):
    assert stored_name(UPLOAD_ID, file_type(mime)) == f"{UPLOAD_ID}.{extension}"


@pytest.mark.parametrize(
    "mime", ["image/gif", "image/svg+xml", "text/html", "", "image/jpg", "audio/ogg", "text/plain"]
)
def test_other_types_are_refused_with_the_spec_text(mime):
    with pytest.raises(InvalidInput) as caught:
        file_type(mime)
    assert caught.value.errors == {
        "file_mime_type": "Invalid file type, allowed: jpeg, png, webp, pdf, docx, mp4"
    }


def test_only_images_and_video_are_shown_inline():
    assert [kind.extension for kind in FILE_TYPES.values() if kind.inline] == [
        "jpg",
        "png",
        "webp",
        "mp4",
    ]


def test_declared_size_bounds_the_link_and_may_not_pass_the_maximum():
    assert upload_limit(None) == UPLOAD_MAX_BYTES
    assert upload_limit(5000) == 5000
    with pytest.raises(InvalidInput) as caught:
        upload_limit(UPLOAD_MAX_BYTES + 1)
    assert caught.value.errors == {"file_size": "File too large, max is 15360KB"}
    with pytest.raises(InvalidInput):
        upload_limit(0)


@pytest.mark.parametrize(
    ("hint", "title"),
    [
        ("holiday.jpg", "holiday.jpg"),
        ("C:\\Users\\ada\\My  Photo.JPG", "My Photo.JPG"),
        ("../../etc/passwd", "passwd"),
        ("bad\x00name\n.pdf", "badname.pdf"),
        ("invoice\u202egpj.exe", "invoicegpj.exe"),
        (None, "file.jpg"),
        ("  ", "file.jpg"),
        ("..", "file.jpg"),
        ("dir/", "file.jpg"),
    ],
)
def test_titles_are_cleaned_file_names(hint, title):
    assert clean_title(hint, JPEG) == title


def test_long_titles_are_bounded():
    assert len(clean_title("x" * 500 + ".jpg", JPEG)) == UPLOAD_TITLE_MAX_LENGTH


def test_upload_links_round_trip_until_they_expire():
    token = grant_token("secret", GRANT)
    assert read_grant("secret", token, now_ms=1_999) == GRANT
    with pytest.raises(Forbidden, match="expired"):
        read_grant("secret", token, now_ms=2_000)


def test_tampered_or_foreign_links_are_refused():
    token = grant_token("secret", GRANT)
    payload, _, mac = token.partition(".")
    bigger = grant_token("secret", dataclasses.replace(GRANT, max_bytes=10**9))
    forged = [
        grant_token("other-secret", GRANT),
        f"{bigger.partition('.')[0]}.{mac}",
        f"{payload}.{mac[:-1]}{'0' if mac[-1] != '0' else '1'}",
        payload,
        "",
    ]
    for token in forged:
        with pytest.raises(Forbidden, match="not valid"):
            read_grant("secret", token, now_ms=0)


def test_links_beyond_what_the_edge_mints_are_refused_even_when_signed():
    """A link signed with a leaked secret still cannot carry more or live longer."""
    for grant in (
        dataclasses.replace(GRANT, max_bytes=UPLOAD_MAX_BYTES + 1),
        dataclasses.replace(GRANT, expires_at=10 * 365 * 24 * 3600 * 1000),
    ):
        with pytest.raises(Forbidden, match="not valid"):
            read_grant("secret", grant_token("secret", grant), now_ms=1_000)


def test_other_signed_values_do_not_pass_as_links():
    with pytest.raises(Forbidden):
        read_grant("secret", sign("secret", "guest_abc"), now_ms=0)


@pytest.mark.parametrize(
    ("name", "mime"),
    [
        (f"{UPLOAD_ID}.jpg", "image/jpeg"),
        (f"{UPLOAD_ID}.pdf", "application/pdf"),
        (thumbnail_name(UPLOAD_ID), "image/jpeg"),
        (f"{UPLOAD_ID}_thumb.png", None),
        (f"{UPLOAD_ID}.html", None),
        (f"{UPLOAD_ID}.exe", None),
        # Kept from a WhatsApp customer: served, though never accepted by an upload link.
        (f"{UPLOAD_ID}.ogg", "audio/ogg"),
        (f"{UPLOAD_ID}.txt", "text/plain"),
        (f"../{UPLOAD_ID}.jpg", None),
        (f"{UPLOAD_ID}.jpg/../../x", None),
        ("..", None),
        (".incoming-abc123", None),
        ("65F0C0FFEE0123456789ABCD.jpg", None),
    ],
)
def test_only_stored_file_names_are_served(name, mime):
    kind = served_type(name)
    assert (kind.mime_type if kind else None) == mime


def test_file_urls_name_their_upload():
    assert upload_id_of(f"/uploads/{UPLOAD_ID}.pdf") == UPLOAD_ID
    assert upload_id_of(f"/uploads/{UPLOAD_ID}_thumb.jpg") is None
    assert upload_id_of(f"https://evil.example/uploads/{UPLOAD_ID}.pdf") is None
    assert upload_id_of("/uploads/../secret") is None


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        (PDF, b"%PDF-1.7\n%..."),
        (DOCX, docx_bytes()),
        (MP4, b"\x00\x00\x00\x18ftypmp42" + b"\x00" * 32),
    ],
)
def test_documents_and_video_with_their_signature_are_kept_as_sent(kind, data):
    assert check_content(kind, data).content is None


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        (PDF, b"<html>%PDF-1.7"),
        (DOCX, docx_bytes("xl/workbook.xml")),
        (DOCX, b"PK\x03\x04 not really a zip"),
        (MP4, b"\x00\x00\x00\x18moov" + b"\x00" * 32),
        (JPEG, image_bytes("PNG")),
        (PNG, image_bytes("JPEG")),
        (WEBP, b"GIF89a" + b"\x00" * 64),
    ],
)
def test_bytes_that_are_not_the_granted_type_are_refused(kind, data):
    with pytest.raises(InvalidInput) as caught:
        check_content(kind, data)
    assert caught.value.errors == {"file_mime_type": "Mismatching mime types"}


def test_empty_and_broken_files_are_refused():
    with pytest.raises(InvalidInput, match="empty"):
        check_content(PDF, b"")
    with pytest.raises(InvalidInput) as caught:
        check_content(JPEG, image_bytes("JPEG")[:600])
    assert caught.value.errors == {"file": "Cannot Upload this file"}


# Below Pillow's own limit, at its warning, past its hard limit.
@pytest.mark.parametrize("size", [(7000, 7000), (10000, 10000), (20000, 20000)])
def test_images_declaring_too_many_pixels_are_refused_before_decoding(size):
    with pytest.raises(InvalidInput) as caught:
        check_content(PNG, png_declaring(*size))
    assert caught.value.errors == {"file": "Image is too large to process"}


def test_jpeg_is_turned_upright_and_stripped_of_metadata():
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90 degrees clockwise to display
    exif[0x010F] = "Camera maker"
    sent = image_bytes("JPEG", (800, 400), exif=exif, comment=b"private", xmp=b"<gps/>")
    checked = check_content(JPEG, sent)
    with Image.open(io.BytesIO(checked.content)) as stored:
        assert (stored.format, stored.size) == ("JPEG", (400, 800))
        assert not stored.getexif()
        assert {"exif", "xmp", "comment", "icc_profile"}.isdisjoint(stored.info)
    with Image.open(io.BytesIO(checked.thumbnail)) as thumbnail:
        assert (thumbnail.format, thumbnail.size) == ("JPEG", (200, 400))


@pytest.mark.parametrize(("kind", "image_format"), [(PNG, "PNG"), (WEBP, "WEBP")])
def test_png_and_webp_keep_their_format_and_transparency_without_metadata(kind, image_format):
    exif = Image.Exif()
    exif[0x010F] = "Camera maker"
    sent = image_bytes(image_format, (64, 32), "RGBA", (0, 128, 128, 100), exif=exif)
    checked = check_content(kind, sent)
    with Image.open(io.BytesIO(checked.content)) as stored:
        assert (stored.format, stored.mode, stored.size) == (image_format, "RGBA", (64, 32))
        assert not stored.getexif()
    with Image.open(io.BytesIO(checked.thumbnail)) as thumbnail:
        assert thumbnail.format == "JPEG"
