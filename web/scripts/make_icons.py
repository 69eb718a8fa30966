"""Draws the app icons of the web manifest (run again after changing the brand colour).

`.venv/bin/python web/scripts/make_icons.py` writes web/public/icons/: 192 and 512 px
icons (a rounded tile, like favicon.svg) and a 512 px maskable one (a full-bleed tile whose
letter stays inside the 80 % safe zone that launchers may crop to).
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

BRAND = (5, 150, 105)  # #059669, the theme colour
OUT = Path(__file__).resolve().parent.parent / "public" / "icons"


def icon(size: int, maskable: bool) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, size, size), fill=BRAND)
    else:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 4, fill=BRAND)
    # The letter is smaller on the maskable icon, within its safe zone.
    font = ImageFont.load_default(size=int(size * (0.45 if maskable else 0.6)))
    draw.text((size / 2, size / 2), "A", font=font, fill="white", anchor="mm")
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    icon(192, False).save(OUT / "icon-192.png", optimize=True)
    icon(512, False).save(OUT / "icon-512.png", optimize=True)
    icon(512, True).save(OUT / "icon-maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
