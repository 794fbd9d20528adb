"""The picture of a page's link preview (Open Graph ``og:image``): a 1200×630 PNG showing, for an
answer, the game, the question, the verdict and the citation, in the page's language (a game's
page and the start page put their title, summary and count in the same places).

Drawn with Pillow from the fonts shipped beside this module (DejaVu Sans: every letter of the
three languages, the same picture on every machine). A pure function of the preview's text.
"""
from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from . import Preview

WIDTH, HEIGHT = 1200, 630
_FONTS = Path(__file__).parent / "fonts"
# The site's light scheme (static/site.css): paper, ink, accent, the citation's background.
PAPER, INK, MUTED, ACCENT, CITE = "#fffdf8", "#1d1d1f", "#555555", "#8a2d1c", "#f3efe4"
MARGIN = 72
# Text sizes tried from large to small until the question and verdict fit their boxes.
QUESTION_SIZES = (60, 54, 48, 42, 38)
VERDICT_SIZES = (40, 36, 32, 29, 26)
# The citation names the page and, for another language's edition, that edition: it is shrunk to
# fit whole on two lines at most, never cut to a word that says nothing ("Rulebook p. 2 · Edizione").
CITATION_SIZES = (34, 30, 27, 24, 21)


@lru_cache(maxsize=32)
def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def _wrap(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> list[str]:
    """Words into lines no wider than ``width`` (a word wider than a line is cut)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if draw.textlength(candidate, font=font) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while draw.textlength(word, font=font) > width:
            cut = len(word)
            while cut > 1 and draw.textlength(word[:cut] + "…", font=font) > width:
                cut -= 1
            lines.append(word[:cut] + "…")
            word = ""
        line = word
    if line:
        lines.append(line)
    return lines


def _fit(draw, text: str, bold: bool, sizes, width: int, max_lines: int):
    """The largest size at which ``text`` takes at most ``max_lines`` lines; at the smallest,
    the last line ends in an ellipsis."""
    for size in sizes:
        font = _font(bold, size)
        lines = _wrap(draw, text, font, width)
        if len(lines) <= max_lines:
            return font, lines
    lines = lines[:max_lines]
    last = lines[-1]
    while last and draw.textlength(last + " …", font=font) > width:
        last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
    lines[-1] = last + " …"
    return font, lines


def _line_height(font) -> int:
    ascent, descent = font.getmetrics()
    return int((ascent + descent) * 1.12)


def card_png(preview: Preview, site_name: str) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    draw.rectangle((0, 0, WIDTH, 14), fill=ACCENT)

    y = 56
    small = _font(True, 28)
    if preview.game:
        draw.text((MARGIN, y), _wrap(draw, preview.game.upper(), small, inner)[0], font=small, fill=ACCENT)
    y += _line_height(small) + 18

    font, lines = _fit(draw, preview.question, True, QUESTION_SIZES, inner, 3)
    for line in lines:
        draw.text((MARGIN, y), line, font=font, fill=INK)
        y += _line_height(font)
    y += 22

    # The verdict sits in a band marked by the accent, like a quotation.
    foot_top = HEIGHT - 120
    room = max(1, (foot_top - 24 - y) // _line_height(_font(False, VERDICT_SIZES[-1])))
    font, lines = _fit(draw, preview.verdict, False, VERDICT_SIZES, inner - 36, min(4, room))
    while len(lines) * _line_height(font) > foot_top - 24 - y and len(lines) > 1:
        lines = lines[:-1]
        lines[-1] = lines[-1] + " …"
    band_bottom = y + len(lines) * _line_height(font)
    draw.rectangle((MARGIN, y, MARGIN + 8, band_bottom), fill=ACCENT)
    for line in lines:
        draw.text((MARGIN + 36, y), line, font=font, fill=INK)
        y += _line_height(font)

    # Foot: the citation on its tinted label, the site's name on the right.
    draw.rectangle((0, foot_top, WIDTH, HEIGHT), fill=CITE)
    cite_font, cite_lines = _fit(draw, preview.citation, True, CITATION_SIZES, inner - 360, 2)
    step = _line_height(cite_font)
    for i, line in enumerate(cite_lines):
        draw.text((MARGIN, foot_top + 60 + (i - (len(cite_lines) - 1) / 2) * step), line, font=cite_font, fill=INK, anchor="lm")
    site_font = _font(False, 28)
    draw.text((WIDTH - MARGIN, foot_top + 60), site_name, font=site_font, fill=MUTED, anchor="rm")

    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@lru_cache(maxsize=1)
def _drawing_version() -> str:
    """What the picture is drawn with: this module and its fonts (a change draws new pictures)."""
    digest = hashlib.blake2b(Path(__file__).read_bytes(), digest_size=8)
    for font in sorted(_FONTS.glob("*.ttf")):
        digest.update(font.read_bytes())
    return digest.hexdigest()


def card_version(preview: Preview, site_name: str) -> str:
    """Names the picture: the same text drawn the same way gives the same version."""
    parts = [_drawing_version(), site_name, preview.game, preview.question, preview.verdict, preview.citation]
    return hashlib.blake2b("\0".join(parts).encode(), digest_size=8).hexdigest()
