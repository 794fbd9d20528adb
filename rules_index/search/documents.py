"""The search documents of the content: one per entry (FAQ, rule section, mistake, glossary term)
and language, with the reader-facing text and the words players use for it, plus one "at a
glance" document per game and language with the facts players ask for (player count, playing
time, age, the components from the rules' material sections).

A game's names are in its "at a glance" document only: in every entry they would outweigh the
words of the question (a query names the game to pick it; see ``query.GameNames``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator

from rules_index.content import LANGS, Game, Library
from rules_index.content.marks import unmarked
from rules_index.render import plain_text

from . import schema as f
from .analysis import language_analyzer

KINDS = ("faq", "fact", "section", "mistake", "glossary")
FACTS_ID = "facts"
COMPONENTS_ID = "components"
CREDITS_ID = "credits"

# The words of the "at a glance" documents, per language. Their ``…asked`` are players' ways of
# asking for them, as an FAQ entry's ``asked`` are: the leading answers are weighed by how near one
# comes to the words asked (``searcher.ASKED_WEIGHT``). They are not indexed: common words such as
# "game" would let the facts match every question.
FACT_WORDS = {
    "de": {
        "title": "Spielerzahl, Spieldauer, Alter",
        "components": "{game}: Spielmaterial",
        "players": "Spielerzahl: {min} bis {max} Personen.", "players_from": "Spielerzahl: ab {min} Personen.",
        "duration": "Spieldauer: {min} bis {max} Minuten.", "age": "Alter: ab {age} Jahren.",
        "silent": "Die Quelle nennt keine Spielerzahl.", "silent_duration": "Eine Spieldauer nennt die Quelle nicht.",
        "silent_age": "Ein Mindestalter nennt die Quelle nicht.",
        "keywords": ["Spielerzahl", "Spieleranzahl", "Personen", "Spieler", "Mitspieler", "Spieldauer", "wie lange",
                     "dauert", "Minuten", "Alter", "wie alt", "Jahren"],
        "credits": "{game}: Autor, Verlag, Erscheinungsjahr",
        "designers": "Autor: {names}.", "publishers": "Verlag: {names}.", "year": "Erschienen: {year}.",
        "silent_credits": "Autor, Verlag und Erscheinungsjahr nennt die Quelle nicht.",
        "traditional": "Ein traditionelles Spiel ohne bekannten Autor und ohne Verlag.",
        "credits_keywords": ["Autor", "Spieleautor", "Erfinder", "erfunden", "ausgedacht", "entworfen", "Verlag",
                             "erschienen", "herausgebracht", "Jahr"],
        "asked": ["Für wie viele Spieler ist das Spiel?", "Wie viele Personen können mitspielen?", "Wie viele Spieler braucht man?",
                  "Wie lange dauert eine Partie?", "Ab welchem Alter ist das Spiel geeignet?",
                  "Welches Mindestalter hat das Spiel?", "Ist das Spiel schon etwas für Kinder?"],
        "credits_asked": ["Wer hat das Spiel erfunden?", "In welchem Verlag ist das Spiel erschienen?",
                          "Seit wann gibt es das Spiel?"],
        "components_asked": ["Was ist in der Schachtel?", "Wie viele Karten gehören zum Spiel?",
                             "Was gehört zum Spielmaterial?"],
        "components_keywords": ["Material", "Spielmaterial", "Anzahl", "Schachtel", "Schachtelinhalt", "Teile"],
    },
    "en": {
        "title": "Number of players, playing time, age",
        "components": "{game}: components",
        "players": "{min} to {max} players.", "players_from": "From {min} players.",
        "duration": "Playing time: {min} to {max} minutes.", "age": "Ages {age} and up.",
        "silent": "The source does not give a player count.", "silent_duration": "The source gives no playing time.",
        "silent_age": "The source gives no minimum age.",
        "keywords": ["players", "player count", "number of players", "playing time", "how long", "minutes", "age",
                     "how old"],
        "credits": "{game}: designer, publisher, year",
        "designers": "Designed by {names}.", "publishers": "Published by {names}.", "year": "First published: {year}.",
        "silent_credits": "The source names no designer, publisher or year.",
        "traditional": "A traditional game, with no known designer and no publisher.",
        "credits_keywords": ["designer", "designed", "invented", "inventor", "author", "created", "publisher",
                             "published", "year"],
        "asked": ["How many players is the game for?", "How many people can play?", "How many players do you need?",
                  "How long does a game take?",
                  "What age is the game for?", "What is the minimum age?",
                  "Is the game all right for children?"],
        "credits_asked": ["Who designed the game?", "Who publishes the game?", "When did the game come out?"],
        "components_asked": ["What is in the box?", "How many cards come with the game?",
                             "What components does the game have?"],
        "components_keywords": ["components", "material", "pieces", "box contents", "how many"],
    },
    "it": {
        "title": "Numero di giocatori, durata, età",
        "components": "{game}: materiale",
        "players": "Da {min} a {max} giocatori.", "players_from": "Da {min} giocatori in su.",
        "duration": "Durata: da {min} a {max} minuti.", "age": "Età: dai {age} anni.",
        "silent": "La fonte non indica il numero di giocatori.", "silent_duration": "La fonte non indica la durata.",
        "silent_age": "La fonte non indica l'età minima.",
        "keywords": ["giocatori", "numero di giocatori", "in quanti si gioca", "durata", "quanto dura", "minuti", "età", "anni"],
        "credits": "{game}: autore, editore, anno",
        "designers": "Autore: {names}.", "publishers": "Editore: {names}.", "year": "Pubblicato nel {year}.",
        "silent_credits": "La fonte non indica autore, editore né anno.",
        "traditional": "Un gioco tradizionale, senza un autore noto né un editore.",
        "credits_keywords": ["autore", "inventato", "inventore", "ideato", "creato", "editore", "pubblicato", "anno"],
        "asked": ["Per quanti giocatori è il gioco?", "In quanti si può giocare?", "In quanti si gioca?",
                  "Quanti giocatori servono?", "Quanto dura una partita?",
                  "Da che età è adatto il gioco?", "Qual è l'età minima?",
                  "Il gioco va bene per i bambini?"],
        "credits_asked": ["Chi ha inventato il gioco?", "Chi pubblica il gioco?", "Quando è uscito il gioco?"],
        "components_asked": ["Cosa c'è nella scatola?", "Quante carte ha il gioco?", "Quali componenti ha il gioco?"],
        "components_keywords": ["materiale", "componenti", "contenuto", "scatola", "confezione", "pezzi"],
    },
}
# A list item of a stored text ends in this unless it ends in a sign of its own: snippets read
# "4 players: 2 face up; 5 players: 1 face up", not items run together.
ITEM_END = ";"


@dataclass
class Document:
    kind: str
    game: str
    entry: str
    lang: str
    title: str
    body: str
    keywords: list[str] = field(default_factory=list)
    named: list[str] = field(default_factory=list)  # every name of what the question names
    asked: list[str] = field(default_factory=list)  # players' ways of asking an answer's question

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.game}:{self.entry}:{self.lang}"


@lru_cache(maxsize=None)
def _analyzer(lang: str):
    return language_analyzer(lang)


def _tokens(text: str, lang: str) -> set[str]:
    return {t.text for t in _analyzer(lang)(text)}


def concept_words(term) -> list[str]:
    """Every name of a glossary term: its word, aliases and players' words in every language
    (other editions' names among them). One concept: a German card name in an English question
    finds the English answer."""
    return list(dict.fromkeys(w for lang in LANGS for w in term.text(lang).names()))


class GlossaryMatcher:
    """Finds the glossary terms an entry's text mentions, to add the players' other words for them
    (in every language)."""

    def __init__(self, game: Game):
        self.terms = {
            lang: [(frozenset(_tokens(g.text(lang).term, lang)), concept_words(g)) for g in game.glossary]
            for lang in LANGS
        }

    def words_for(self, text: str, lang: str) -> list[str]:
        present = _tokens(text, lang)
        found: list[str] = []
        for tokens, words in self.terms[lang]:
            if tokens and tokens <= present:
                found.extend(words)
        return found


def game_names(game: Game) -> list[str]:
    """Every name that picks the game in a question: titles, other editions' titles, short titles."""
    names = [game.info.title.get(lang) for lang in LANGS] + game.info.alt_titles.all() + game.info.short_titles.all()
    return list(dict.fromkeys(names))


def facts_documents(game: Game, lang: str) -> Iterator[Document]:
    """The game's facts as answers: player count, playing time and age (each said not to be given
    where the source is silent); who designed and published it, and when; and the components."""
    words = FACT_WORDS[lang]
    info = game.info
    lines = []
    players = info.players
    if players and players.min and players.max:
        lines.append(words["players"].format(min=players.min, max=players.max))
    elif players and players.min:
        lines.append(words["players_from"].format(min=players.min))
    else:
        lines.append(words["silent"])
    if info.duration_minutes and info.duration_minutes.min and info.duration_minutes.max:
        lines.append(words["duration"].format(min=info.duration_minutes.min, max=info.duration_minutes.max))
    else:
        lines.append(words["silent_duration"])
    lines.append(words["age"].format(age=info.age_min) if info.age_min else words["silent_age"])
    lines.append(info.summary.get(lang) or "")
    # No game's names among the words: a name picks its game (``query.GameNames``), and the name
    # alone is answered by these facts; a word of a name ("König" of "Kardinal & König") in
    # another game's question must not rank this game's facts.
    yield Document("fact", game.slug, FACTS_ID, lang, words["title"].format(game=game.title(lang)),
                   " ".join(line for line in lines if line), words["keywords"], asked=words["asked"])
    credits = [words[key].format(names=", ".join(names)) for key, names in
               (("designers", info.designers), ("publishers", info.publishers)) if names]
    if info.year:
        credits.append(words["year"].format(year=info.year))
    # Who made it is asked of every game: where the source is silent, the answer says so (as the
    # game page does), rather than the question landing on some other answer.
    if not credits:
        credits.append(words["traditional"] if info.traditional else words["silent_credits"])
    yield Document("fact", game.slug, CREDITS_ID, lang, words["credits"].format(game=game.title(lang)),
                   " ".join(credits), words["credits_keywords"], asked=words["credits_asked"])
    material = " ".join(plain_text(s.body(lang), ITEM_END) for s in game.sections if s.meta.kind == "material")
    if material:
        yield Document("fact", game.slug, COMPONENTS_ID, lang, words["components"].format(game=game.title(lang)),
                       material, words["components_keywords"], asked=words["components_asked"])


def faq_document(game: Game, faq, lang: str, glossary: GlossaryMatcher) -> Document:
    text = faq.text(lang)
    body = plain_text(text.answer, ITEM_END)
    # The situations its checks play ("The Thief tries to rob the Assassin: the rules refuse
    # it") are how players ask: they tell what happened at the table rather than name the rule.
    situations = [check.scenario.get(lang) for check in faq.checks if check.scenario]
    words = [*faq.keywords.get(lang), *glossary.words_for(f"{text.question} {body}", lang), *faq.asked.get(lang), *situations]
    return Document("faq", game.slug, faq.id, lang, text.question, body, words, glossary.words_for(text.question, lang),
                    [phrasing for phrasing in faq.asked.get(lang) if "\n" not in phrasing])


def section_document(game: Game, section, lang: str, glossary: GlossaryMatcher) -> Document:
    title, body = section.title(lang), plain_text(section.body(lang), ITEM_END)
    asked, named = section.meta.asked.get(lang), glossary.words_for(title, lang)
    return Document("section", game.slug, section.id, lang, title, body, [*named, *asked], named,
                    [phrasing for phrasing in asked if "\n" not in phrasing])


def mistake_document(game: Game, mistake, lang: str, glossary: GlossaryMatcher, faq_keywords: dict) -> Document:
    text = mistake.text(lang)
    linked = faq_keywords.get(mistake.faq) if mistake.faq else None
    words = [*(linked.get(lang) if linked else []), *glossary.words_for(text.mistake, lang)]
    return Document("mistake", game.slug, mistake.id, lang, plain_text(text.mistake), plain_text(text.correction), words)


def glossary_document(game: Game, term, lang: str) -> Document:
    text = term.text(lang)
    return Document("glossary", game.slug, term.id, lang, text.term, plain_text(text.definition, ITEM_END),
                    [w for w in concept_words(term) if w != text.term])


def game_documents(game: Game) -> Iterator[Document]:
    glossary = GlossaryMatcher(game)
    faq_keywords = {f.id: f.keywords for f in game.faq}
    for lang in LANGS:
        yield from facts_documents(game, lang)
        for faq in game.faq:
            yield faq_document(game, faq, lang, glossary)
        for section in game.sections:
            yield section_document(game, section, lang, glossary)
        for mistake in game.mistakes:
            yield mistake_document(game, mistake, lang, glossary, faq_keywords)
        for term in game.glossary:
            yield glossary_document(game, term, lang)


def entry_documents(game: Game, kind: str, entry_id: str) -> list[Document]:
    """The documents that change with one FAQ entry or rules section, in every language: its
    own, the game's facts (components come from the material sections) and, for a FAQ entry,
    the mistakes that borrow its keywords. Empty for an entry the game no longer has."""
    glossary = GlossaryMatcher(game)
    faq_keywords = {f.id: f.keywords for f in game.faq}
    docs: list[Document] = []
    for lang in LANGS:
        docs.extend(facts_documents(game, lang))
        if kind == "faq":
            docs.extend(faq_document(game, faq, lang, glossary) for faq in game.faq if faq.id == entry_id)
            docs.extend(mistake_document(game, m, lang, glossary, faq_keywords) for m in game.mistakes if m.faq == entry_id)
        elif kind == "section":
            docs.extend(section_document(game, s, lang, glossary) for s in game.sections if s.id == entry_id)
        else:
            raise ValueError(f"unknown entry kind {kind!r}")
    return docs


def library_documents(library: Library) -> Iterator[Document]:
    for game in library:
        yield from game_documents(game)


def document_fields(doc: Document) -> dict:
    """The index fields of one search document (the one mapping every index writer uses)."""
    keywords = " ".join(doc.keywords)
    return {
        f.KEY: doc.key, f.KIND: doc.kind, f.GAME: doc.game, f.ENTRY: doc.entry, f.LANG: doc.lang,
        f.TITLE_TEXT: doc.title, f.BODY_TEXT: doc.body, f.NAMED: " ".join(doc.named), f.ASKED: "\n".join(doc.asked),
        f.title_field(doc.lang): doc.title,
        f.keywords_field(doc.lang): keywords,
        f.body_field(doc.lang): doc.body,
        f.PREFIXES: f"{doc.title} {keywords} {doc.body}",
        f.words_field(doc.lang): f"{doc.title} {keywords} {doc.body}",
    }


def faq_german_texts(faq, asked: bool = False):
    """A FAQ entry's German texts that make the vocabulary of compounds; with ``asked``, players'
    ways of asking it too, for split verbs (``verb_texts``)."""
    yield from (faq.de.question, unmarked(faq.de.answer), " ".join(faq.keywords.de))
    yield from (faq.asked.get("de") if asked else ())


def section_german_texts(section, asked: bool = False):
    """A rules section's German texts, as ``faq_german_texts``."""
    yield from (section.title("de"), section.body("de"))
    yield from (section.meta.asked.get("de") if asked else ())
