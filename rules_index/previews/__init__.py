"""How an answer looks outside the site: the text of its link preview (meta and Open Graph
description), its quote for chats and forums, its oEmbed card and its preview picture.

Pure functions of the content; the web layer (``rules_index.web.previews``) serves them.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from rules_index.content import Game
from rules_index.content.bindings import ABBREVIATION
from rules_index.content.citations import page_text
from rules_index.content.schema import Faq
from rules_index.render import plain_text

# A sentence ends at . ! ? followed by a space, but not after a page's abbreviation ("S. 2",
# "p. 2", "pp. 2–3") or one of the others a rules text uses (``bindings.ABBREVIATION``).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# An opening this short is a bare verdict ("Nein.", "No.", "Sì.", "Ja, aber:"): the sentence
# after it says what the ruling is, so it is taken with it.
_BARE_VERDICT_WORDS = 3
VERDICT_LIMIT = 220


@dataclass(frozen=True)
class Preview:
    game: str        # the game's title in the page's language
    question: str
    verdict: str     # the answer's opening: its verdict and the sentence that gives it meaning
    citation: str    # "Rulebook p. 2" (source and page; the section where the source has no pages)

    @property
    def description(self) -> str:
        """Meta and Open Graph description: the verdict and where it is written. The question is
        the page's title, shown above it by search engines and chat apps alike."""
        return f"{self.verdict} ({self.citation})"


def _sentences(text: str) -> list[str]:
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        if not ABBREVIATION.search(text[max(start, end.start() - 6):end.start()]):
            sentences.append(text[start:end.start()])
            start = end.end()
    return [*sentences, text[start:]]


def verdict_sentence(answer_markdown: str, limit: int = VERDICT_LIMIT) -> str:
    """The answer's first sentence, with the next one when the first is only a verdict word."""
    sentences = _sentences(plain_text(answer_markdown, item_end=";"))
    taken = sentences[0]
    if len(taken.split()) <= _BARE_VERDICT_WORDS and len(sentences) > 1:
        taken = f"{taken} {sentences[1]}"
    return taken if len(taken) <= limit else shortened(taken, limit)


def shortened(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with "…": after its last item or clause (";" or ":")
    in the last third, else after its last whole word, never inside a word ("Or he disca…")."""
    cut = text[: limit - 1]
    clause = max(cut.rfind(";"), cut.rfind(":"))
    if clause >= len(cut) * 2 // 3:
        cut = cut[:clause]
    elif text[limit - 1:limit].strip() and " " in cut:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:–—(") + "…"


def short_citation(game: Game, faq: Faq, lang: str) -> str:
    """"Rulebook p. 2": the source and its page, with the edition's publisher and year where the
    page is of another language's edition (the reader's own rulebook may number pages otherwise)."""
    citation = faq.citation
    source = game.source(citation.source)
    label = source.label.get(lang) if source is not None else citation.source
    pages = page_text(citation.pages, lang)
    if not pages:
        return f"{label}: {citation.section.get(lang)}"
    edition = game.pages_edition(citation, lang)
    if edition is None:
        return f"{label} {pages}"
    made = " ".join(str(part) for part in (edition.publisher, edition.year) if part)
    return f"{label} {pages}, {made or edition.name.get(lang)}"


def answer_preview(game: Game, faq: Faq, lang: str) -> Preview:
    text = faq.text(lang)
    return Preview(game=game.title(lang), question=plain_text(text.question),
                   verdict=verdict_sentence(text.answer), citation=short_citation(game, faq, lang))


def game_preview(game: Game, lang: str, count: str) -> Preview:
    """A game page's picture: its other names above, its title, its summary, how many questions
    it answers (``count``, in the reader's words)."""
    return Preview(game=" · ".join(game.other_titles(lang)), question=game.title(lang),
                   verdict=game.info.summary.get(lang), citation=count)


def site_preview(games: list[Game], lang: str, heading: str, count: str) -> Preview:
    """The start page's picture: the site's heading, its games, how many questions it answers."""
    return Preview(game="", question=heading, verdict=" · ".join(game.title(lang) for game in games), citation=count)


def quote_text(preview: Preview, url: str | None) -> str:
    """The answer as a plain-text quote (chats that show text as typed)."""
    lines = [preview.question, preview.verdict, f"— {preview.citation} · {preview.game}"]
    if url:
        lines.append(url)
    return "\n".join(lines)


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def _md(text: str) -> str:
    """Text as Markdown that shows it as it is (Discord, forums, BoardGameGeek's Markdown mode)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def quote_markdown(preview: Preview, url: str | None) -> str:
    """The answer as a Markdown quote block: question in bold, verdict, citation linked."""
    source = f"[{_md(preview.citation)}]({url})" if url else _md(preview.citation)
    return "\n".join([f"> **{_md(preview.question)}**", f"> {_md(preview.verdict)}", f"> — {source} · {_md(preview.game)}"])


def card_html(preview: Preview, url: str, site_name: str) -> str:
    """The oEmbed card: a quote that works without scripts or frames (the site may not be framed)."""
    esc = html.escape
    return (
        f'<blockquote class="rules-answer" cite="{esc(url)}">'
        f"<p><strong>{esc(preview.question)}</strong></p>"
        f"<p>{esc(preview.verdict)}</p>"
        f'<p>— <a href="{esc(url)}">{esc(preview.citation)} · {esc(preview.game)}</a> ({esc(site_name)})</p>'
        "</blockquote>"
    )
