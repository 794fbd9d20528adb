"""Content entries as the JSON API shows them (pure functions: no Flask, no request)."""
from __future__ import annotations

from .content import Game
from .content.bindings import statements, tally
from .content.citations import pages_value
from .content.model import ANCHOR_PREFIX, FACTS_ANCHOR
from .content.schema import Citation, Faq
from .content.versions import faq_version, rule_section_version
from .folding import fold
from .render import markdown_html, plain_text


def games_by_title(games, lang: str) -> list[Game]:
    """The games as a reader of ``lang`` looks for them: by their title in that language
    (Citadels under C, Ohne Furcht und Adel under O), case, umlauts and accents aside."""
    return sorted(games, key=lambda game: (fold(game.title(lang)), game.slug))


def permalink(lang: str, slug: str, faq_id: str) -> str:
    return f"/{lang}/{slug}/faq/{faq_id}"


# A common mistake in a result list: the false statement marked as such, then the correction.
REFUTED_WORDS = {"de": ("Irrtum", "Richtig"), "en": ("Mistake", "Correct"), "it": ("Errore", "Corretto")}
# Each language in its own words (language choices are read by those who speak it).
LANGUAGE_NAMES = {"de": "Deutsch", "en": "English", "it": "Italiano"}


# The parameters chats, mail and ads add to a shared link (the page is the same without them),
# in the regular-expression syntax Python and JavaScript read alike (the service worker's too).
TRACKING_PARAMETERS = r"^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_eid|igshid)$"


def game_url(lang: str, slug: str) -> str:
    return f"/{lang}/{slug}/"


def entry_url(kind: str, lang: str, slug: str, entry: str) -> str:
    """Where a search hit leads: the FAQ permalink, or the anchor on the game page."""
    if kind == "faq":
        return permalink(lang, slug, entry)
    if kind == "fact":
        return f"{game_url(lang, slug)}#{FACTS_ANCHOR}"
    return f"{game_url(lang, slug)}#{ANCHOR_PREFIX[kind]}{entry}"


def citation_json(game: Game, citation: Citation, lang: str) -> dict:
    return {
        "source": citation.source,
        "pages": pages_value(citation.pages),
        "section": citation.section.get(lang),
        "label": game.cite(citation, lang),
    }


def verification_status(faq: Faq, results, facts=()) -> str:
    """What the engine's checks say about an answer, in the four words of the badge.

    ``verified``: every statement about the rules is bound to a fact the engine checks;
    ``partial``: some are not (marked ``{.unchecked}``: the sources leave them open);
    ``assumption``: the sources are silent and the engine follows a stated reading;
    ``editorial``: no rule claim (``basis: editorial``, or a question the sources leave open);
    ``failed`` only if a check or a fact of the ruling fails, which the gate keeps from shipping.
    """
    if any(not r.ok for r in results) or any(not f.ok for f in facts):
        return "failed"
    return content_status(faq, played=bool(results))


def content_status(faq: Faq, played: bool) -> str:
    """The badge's status as the content states it (``played``: the engine ran its checks)."""
    if faq.basis == "editorial" or not played:
        return "editorial"
    if faq.basis == "assumption":
        return "assumption"
    if faq.ruling.verdict == "none":
        return "editorial"
    counted = tally(faq.de.answer)
    if counted.unchecked or counted.unbound:
        return "partial"
    return "verified"


def check_anchor(number: int) -> str:
    """The id of a check's situation on the answer page (checks count from 1)."""
    return f"check-{number}"


def fact_targets(faq: Faq, lang: str) -> dict[str, tuple[str, str]]:
    """Where each bound fact of an answer is checked: {fact: (#anchor, the situation in words)}."""
    checks = faq.checks
    targets = {}
    for fact in faq.ruling.facts:
        if fact.name and 1 <= fact.check <= len(checks):
            scenario = checks[fact.check - 1].scenario
            targets[fact.name] = (f"#{check_anchor(fact.check)}", scenario.get(lang) if scenario else "")
    return targets


def verified_json(faq: Faq, results, lang: str, facts=()) -> dict:
    """The badge's status, how many statements are checked, those left unchecked, and each
    check's scenario and outcome."""
    results, facts = list(results), list(facts)
    answer = faq.text(lang).answer
    counted = tally(answer)
    return {
        "status": verification_status(faq, results, facts),
        "basis": faq.basis,
        "statements": {"checked": counted.bound, "total": counted.claims},
        "unchecked": [s.text for s in statements(answer) if s.kind in ("unchecked", "unbound")],
        "checks": [
            {
                "probe": r.probe,
                "anchor": check_anchor(number),
                "scenario": r.check.scenario.get(lang) if r.check.scenario else None,
                "given": r.check.given,
                "expect": r.check.expect,
                "ok": r.ok,
            }
            for number, r in enumerate(results, 1)
        ],
        "facts": [
            {"value": f.fact.value, "check": f.fact.check, "where": f.fact.place, "ok": f.ok}
            for f in facts
        ],
    }


def faq_json(game: Game, faq: Faq, lang: str, results=(), facts=()) -> dict:
    text = faq.text(lang)
    return {
        "game": game.slug,
        "id": faq.id,
        "lang": lang,
        "question": text.question,
        "answer_html": str(markdown_html(text.answer)),
        "citation": citation_json(game, faq.citation, lang),
        "editions": list(faq.editions),
        "section": faq.section,
        "url": permalink(lang, game.slug, faq.id),
        "version": faq_version(faq),
        "verified": verified_json(faq, results, lang, facts),
    }


def section_json(game: Game, section, lang: str) -> dict:
    """A rules section as the API gives it: its text, where it is read, its version for changes."""
    return {
        "game": game.slug,
        "id": section.id,
        "lang": lang,
        "title": section.title(lang),
        "body_html": str(markdown_html(section.body(lang))),
        "url": entry_url("section", lang, game.slug, section.id),
        "version": rule_section_version(section),
    }


def game_summary_json(game: Game, lang: str) -> dict:
    return {"slug": game.slug, "title": game.title(lang), "url": game_url(lang, game.slug)}


def settling_url(game: Game, mistake_id: str, lang: str) -> str:
    """Where a common mistake is settled: its FAQ answer, else its rules section."""
    mistake = game.mistake_entry(mistake_id)
    if mistake is not None and mistake.faq:
        return permalink(lang, game.slug, mistake.faq)
    if mistake is not None and mistake.section:
        return entry_url("section", lang, game.slug, mistake.section)
    return entry_url("mistake", lang, game.slug, mistake_id)


def example_questions(library, lang: str) -> list[dict]:
    """Questions to try on the empty search page: the first two FAQ questions of each game."""
    return [{"game_title": game.title(lang), "question": entry.text(lang).question}
            for game in library for entry in game.faq[:2]]


def hit_view(hit, lang: str, game: Game | None, card: bool = True) -> dict:
    """A search hit as the page shows it: a mistake refuted (never a bare false statement), the
    best answer with its citation and badge (``card``: the API leaves those out)."""
    view = {
        "type": hit.kind, "game": hit.game, "game_title": game.title(lang) if game else hit.game,
        "id": hit.entry, "title": hit.title, "snippet": hit.snippet,
        "url": entry_url(hit.kind, lang, hit.game, hit.entry), "score": hit.score, "best": hit.best,
        "close": hit.close,
    }
    if game is None:
        return view
    if hit.kind == "mistake":
        mistake = game.mistake_entry(hit.entry)
        if mistake is not None:
            text = mistake.text(lang)
            view["mistake"], view["correction"] = plain_text(text.mistake), plain_text(text.correction)
            view["url"] = settling_url(game, hit.entry, lang)
    elif card and hit.kind == "faq" and (hit.best or hit.close):
        entry = game.faq_entry(hit.entry)
        if entry is not None:
            view["citation"] = game.cite(entry.citation, lang)
            view["badge"] = badge_json(entry, lang)
    return view


def badge_json(faq: Faq, lang: str) -> dict:
    """The badge's figures from the content alone (the gate keeps an answer whose checks fail
    from shipping): status, statements checked of those about the rules, situations played."""
    counted = tally(faq.text(lang).answer)
    return {"status": content_status(faq, played=bool(faq.checks)), "checked": counted.bound, "total": counted.claims,
            "situations": len(faq.checks)}


def hit_json(hit, lang: str, game: Game | None = None) -> dict:
    """A search hit in the API: a mistake's title states it as refuted, and it leads to the answer
    that settles it."""
    view = hit_view(hit, lang, game, card=False)
    shown = {key: view[key] for key in ("type", "game", "id", "title", "snippet", "url", "score", "best", "close")}
    if "mistake" in view:
        wrong, right = REFUTED_WORDS[lang]
        shown["title"] = f"✗ {wrong}: {view['mistake']} → ✓ {right}: {view['correction']}"
    return shown
