"""Upload rules: accepted types, names, signed upload links and checks of the received bytes."""

import base64
import io
import json
import re
import unicodedata
import warnings
import zipfile
from dataclasses import astuple, dataclass, field
from typing import Any

from PIL import Image, ImageOps, UnidentifiedImageError

from agora.core.errors import AgoraError, Forbidden, InvalidInput, PayloadTooLarge
from agora.core.signing import sign, unsign
from agora.core.text import without_format_characters

# The product spec's numbers for uploads (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
# Uploads (spec sections 5 and 9).
UPLOAD_MAX_BYTES = 15 * 1024 * 1024
# Mime type -> (stored file extension, name listed in 'Invalid file type, allowed: {types}').
UPLOAD_TYPES = {
    "image/jpeg": ("jpg", "jpeg"),
    "image/png": ("png", "png"),
    "image/webp": ("webp", "webp"),
    "application/pdf": ("pdf", "pdf"),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ("docx", "docx"),
    "video/mp4": ("mp4", "mp4"),
}
# Files kept from elsewhere (a WhatsApp customer's media) are served like uploads, but never
# accepted by an upload link. Anything else is kept as a plain file (offered as a download).
KEPT_FILE_TYPES = {
    "audio/ogg": ("ogg", "ogg"),
    "audio/mpeg": ("mp3", "mp3"),
    "audio/aac": ("aac", "aac"),
    "audio/mp4": ("m4a", "m4a"),
    "audio/amr": ("amr", "amr"),
    "video/3gpp": ("3gp", "3gp"),
    "text/plain": ("txt", "txt"),
    "application/msword": ("doc", "doc"),
    "application/vnd.ms-excel": ("xls", "xls"),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ("xlsx", "xlsx"),
    "application/vnd.ms-powerpoint": ("ppt", "ppt"),
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": ("pptx", "pptx"),
    "application/octet-stream": ("bin", "file"),
}
UPLOADS_PATH = "/uploads/"
UPLOAD_PUT_PATH = "/uploads/put/"
UPLOAD_URL_TTL_SECONDS = 15 * 60
UPLOAD_URLS_PER_USER = 120
UPLOAD_TITLE_MAX_LENGTH = 120
UPLOAD_READ_CHUNK_BYTES = 64 * 1024
# A file being received stays in memory up to this, then spills to a temporary file.
UPLOAD_SPOOL_BYTES = 1024 * 1024
# Decoded pixels, checked before decoding: a few KB of PNG can declare gigabytes of pixels.
UPLOAD_MAX_PIXELS = 40_000_000
# Quality of the lossy re-encodings (JPEG, WebP, thumbnails).
UPLOAD_IMAGE_QUALITY = 85
UPLOAD_THUMBNAIL_PX = 400
# Uploads checked at once per edge: decoding an image may hold several copies of its pixels.
UPLOAD_CHECK_JOBS = 2
UPLOAD_PENDING = "pending"
UPLOAD_RECEIVING = "receiving"
UPLOAD_STORED = "stored"
# No message names it any more (all that did were deleted) and no post ever did: its files are
# deleted, and it can be attached no more.
UPLOAD_DELETED = "deleted"


@dataclass(frozen=True)
class FileType:
    mime_type: str
    extension: str
    label: str

    @property
    def is_image(self) -> bool:
        return self.mime_type.startswith("image/")

    @property
    def inline(self) -> bool:
        """Browsers may show (or play) it in the page; anything else is only offered as a
        download."""
        return self.mime_type.startswith(("image/", "video/", "audio/"))


FILE_TYPES = {mime: FileType(mime, ext, label) for mime, (ext, label) in UPLOAD_TYPES.items()}
KEPT_TYPES = {
    **FILE_TYPES,
    **{mime: FileType(mime, ext, label) for mime, (ext, label) in KEPT_FILE_TYPES.items()},
}
ANY_FILE = KEPT_TYPES["application/octet-stream"]
_BY_EXTENSION = {kind.extension: kind for kind in KEPT_TYPES.values()}
THUMBNAIL_TYPE = FILE_TYPES["image/jpeg"]

# The only names ever written under the uploads directory; anything else is not served.
_STORED_NAME = re.compile(r"(?P<id>[0-9a-f]{24})(?P<thumb>_thumb)?\.(?P<ext>[a-z0-9]{2,5})")


def file_type(mime_type: str) -> FileType:
    kind = FILE_TYPES.get(mime_type.strip().lower())
    if kind is None:
        allowed = ", ".join(known.label for known in FILE_TYPES.values())
        raise InvalidInput({"file_mime_type": f"Invalid file type, allowed: {allowed}"})
    return kind


def kept_file_type(mime_type: str) -> FileType:
    """The type a file kept from elsewhere is stored and served as (its parameters, such as
    `; codecs=opus`, dropped); an unknown type is a plain file."""
    return KEPT_TYPES.get(mime_type.split(";")[0].strip().lower(), ANY_FILE)


def mismatching() -> InvalidInput:
    return InvalidInput({"file_mime_type": "Mismatching mime types"})


def _too_large_text(max_bytes: int) -> str:
    return f"File too large, max is {-(-max_bytes // 1024)}KB"


def too_large(max_bytes: int) -> PayloadTooLarge:
    return PayloadTooLarge({"file_size": _too_large_text(max_bytes)})


def upload_limit(declared_size: int | None) -> int:
    """The most bytes the upload link will accept: the declared size when the client gave one."""
    if declared_size is None:
        return UPLOAD_MAX_BYTES
    if declared_size <= 0:
        raise InvalidInput({"file_size": "The file is empty"})
    if declared_size > UPLOAD_MAX_BYTES:
        raise InvalidInput({"file_size": _too_large_text(UPLOAD_MAX_BYTES)})
    return declared_size


def clean_title(hint: str | None, kind: FileType) -> str:
    """A display name from the client's hint: its last path part, without control or
    direction-override characters (which can disguise 'exe.pdf' as 'fdp.exe')."""
    name = re.split(r"[\\/]", hint or "")[-1]
    name = "".join(ch for ch in without_format_characters(name) if unicodedata.category(ch) != "Cc")
    name = " ".join(name.split())[:UPLOAD_TITLE_MAX_LENGTH].rstrip()
    return name if name.strip(".") else f"file.{kind.extension}"


def stored_name(upload_id: str, kind: FileType) -> str:
    return f"{upload_id}.{kind.extension}"


def thumbnail_name(upload_id: str) -> str:
    return f"{upload_id}_thumb.{THUMBNAIL_TYPE.extension}"


def url_of(name: str) -> str:
    return UPLOADS_PATH + name


def served_type(name: str) -> FileType | None:
    """The type of a stored file by its name; None for any other name (paths included)."""
    match = _STORED_NAME.fullmatch(name)
    kind = _BY_EXTENSION.get(match["ext"]) if match else None
    if match and match["thumb"] and kind is not THUMBNAIL_TYPE:
        return None
    return kind


def upload_id_of(url: str) -> str | None:
    """The upload a public file url names; None for thumbnails and foreign urls."""
    if not url.startswith(UPLOADS_PATH):
        return None
    match = _STORED_NAME.fullmatch(url.removeprefix(UPLOADS_PATH))
    return match["id"] if match and not match["thumb"] else None


def media_item(upload: dict[str, Any]) -> dict[str, Any]:
    """A stored upload as posts and messages carry it (spec section 3, Media item)."""
    return {
        "url": upload["file_url"],
        "mime_type": upload["mime_type"],
        "thumbnail": upload["thumbnail"],
        "title": upload["title"],
        "size": upload["size"],
    }


# Upload links -----------------------------------------------------------------

_GRANT_PURPOSE = "upload"


@dataclass(frozen=True)
class UploadGrant:
    """What an upload link allows: one file of this type and size, for this upload, until then."""

    upload_id: str
    user_id: str
    mime_type: str
    max_bytes: int
    expires_at: int


def grant_token(secret: str, grant: UploadGrant) -> str:
    """URL-safe and signed; the purpose inside keeps other signed values from passing as links."""
    fields = json.dumps([_GRANT_PURPOSE, *astuple(grant)], separators=(",", ":"))
    return sign(secret, base64.urlsafe_b64encode(fields.encode()).decode().rstrip("="))


def read_grant(secret: str, token: str, now_ms: int) -> UploadGrant:
    value = unsign(secret, token)
    grant = _decode_grant(value) if value else None
    # Bounds as the edge mints them, checked too: a link signed with a leaked secret still
    # cannot carry a bigger file or live longer than any real one.
    ceiling = now_ms + UPLOAD_URL_TTL_SECONDS * 1000
    if grant is None or grant.max_bytes > UPLOAD_MAX_BYTES or grant.expires_at > ceiling:
        raise Forbidden("This upload link is not valid")
    if grant.expires_at <= now_ms:
        raise Forbidden("This upload link has expired, please upload the file again")
    return grant


def _decode_grant(value: str) -> UploadGrant | None:
    try:
        purpose, *fields = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
        return UploadGrant(*fields) if purpose == _GRANT_PURPOSE else None
    except (ValueError, TypeError):
        return None


# Received bytes ---------------------------------------------------------------


@dataclass(frozen=True)
class CheckedFile:
    """What to store: `content` replaces the received bytes when set; `thumbnail` is optional."""

    content: bytes | None = None
    thumbnail: bytes | None = None


def check_content(kind: FileType, data: bytes) -> CheckedFile:
    """Refuses bytes that are not what the link was granted for. CPU-heavy for images."""
    if not data:
        raise InvalidInput({"file": "The file is empty"})
    if kind.is_image:
        return clean_image(kind, data)
    if not _SIGNATURES[kind.mime_type](data):
        raise mismatching()
    return CheckedFile()


def _is_pdf(data: bytes) -> bool:
    return data.startswith(b"%PDF-")


def _is_mp4(data: bytes) -> bool:
    return data[4:8] == b"ftyp"


def _is_docx(data: bytes) -> bool:
    # Only the zip's directory is read; no member is inflated, so zip bombs cost nothing.
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "word/document.xml" in archive.namelist()
    except (zipfile.BadZipFile, ValueError, EOFError):
        return False


_SIGNATURES = {
    "application/pdf": _is_pdf,
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": _is_docx,
    "video/mp4": _is_mp4,
}


@dataclass(frozen=True)
class _ImageCodec:
    decoded_as: tuple[str, ...]
    save_as: str
    keeps_alpha: bool
    options: dict[str, Any] = field(default_factory=dict)


# JPEGs with several pictures (phone cameras write them) decode as Pillow's "MPO".
_CODECS = {
    "image/jpeg": _ImageCodec(("JPEG", "MPO"), "JPEG", False, {"quality": UPLOAD_IMAGE_QUALITY}),
    "image/png": _ImageCodec(("PNG",), "PNG", True),
    "image/webp": _ImageCodec(("WEBP",), "WEBP", True, {"quality": UPLOAD_IMAGE_QUALITY}),
}
# Only these parsers ever see uploaded bytes.
_DECODERS = ("JPEG", "PNG", "WEBP")


def image_too_large() -> InvalidInput:
    return InvalidInput({"file": "Image is too large to process"})


def clean_image(kind: FileType, data: bytes) -> CheckedFile:
    """The picture upright and re-encoded without metadata (EXIF can carry a GPS position),
    with a thumbnail."""
    codec = _CODECS[kind.mime_type]
    try:
        # Pillow's own bomb checks run inside open, far above our cap; as errors they are a
        # second line behind the pixel check, which refuses before anything is decoded.
        with (
            warnings.catch_warnings(action="error", category=Image.DecompressionBombWarning),
            Image.open(io.BytesIO(data), formats=_DECODERS) as image,
        ):
            if image.format not in codec.decoded_as:
                raise mismatching()
            if image.width * image.height > UPLOAD_MAX_PIXELS:
                raise image_too_large()
            return _reencoded(image, codec)
    except AgoraError:
        raise
    except UnidentifiedImageError as exc:
        raise mismatching() from exc
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise image_too_large() from exc
    except Exception as exc:
        # Decoders raise many kinds of errors on broken or hostile bytes; none may be a 500.
        raise InvalidInput({"file": "Cannot Upload this file"}) from exc


def _reencoded(image: Image.Image, codec: _ImageCodec) -> CheckedFile:
    ImageOps.exif_transpose(image, in_place=True)
    has_alpha = codec.keeps_alpha and image.has_transparency_data
    pixels = image.convert("RGBA" if has_alpha else "RGB")
    # The encoders copy EXIF, XMP, ICC profiles and comments from here; only pixels remain.
    pixels.info.clear()
    content = _encoded(pixels, codec.save_as, **codec.options)
    pixels.thumbnail((UPLOAD_THUMBNAIL_PX, UPLOAD_THUMBNAIL_PX))
    thumbnail = _encoded(_on_white(pixels), "JPEG", quality=UPLOAD_IMAGE_QUALITY)
    return CheckedFile(content=content, thumbnail=thumbnail)


def _on_white(image: Image.Image) -> Image.Image:
    """JPEG has no transparency; transparent parts would otherwise turn black."""
    if image.mode != "RGBA":
        return image
    flat = Image.new("RGB", image.size, "white")
    flat.paste(image, mask=image.getchannel("A"))
    return flat


def _encoded(image: Image.Image, image_format: str, **options: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, image_format, **options)
    return out.getvalue()
