"""Draw the site's icons into static/icons/ (run again after changing the design):
favicon.ico (16, 32, 48 px), icon-192.png, icon-512.png, a maskable 512 px icon (its mark
inside the safe circle) and apple-touch-icon.png (180 px).

    .venv/bin/python scripts/make_icons.py
"""
from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "icons"
FONT = ROOT / "rules_index" / "previews" / "fonts" / "DejaVuSans-Bold.ttf"
ACCENT, PAPER = "#8a2d1c", "#fffdf8"


def icon(size: int, mark_share: float = 0.62, rounded: bool = True) -> Image.Image:
    """The paragraph sign of a rulebook, light on the site's accent colour."""
    scale = 4  # drawn large, then scaled down: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if rounded:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=ACCENT)
    else:
        draw.rectangle((0, 0, big, big), fill=ACCENT)
    font = ImageFont.truetype(str(FONT), int(big * mark_share))
    draw.text((big / 2, big / 2), "§", font=font, fill=PAPER, anchor="mm")
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    icon(192).save(OUT / "icon-192.png", optimize=True)
    icon(512).save(OUT / "icon-512.png", optimize=True)
    # Maskable: the platform cuts its own shape, so the colour fills the square and the mark
    # stays within the central 80 %.
    icon(512, mark_share=0.45, rounded=False).save(OUT / "icon-maskable-512.png", optimize=True)
    icon(180, rounded=False).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)
    icon(48).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])


if __name__ == "__main__":
    main()
