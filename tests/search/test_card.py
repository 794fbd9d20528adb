"""The answer card: shown only when the first answer clearly leads, else the close answers side by side."""
import pytest

from rules_index.search.query import asks_what_it_is, question_kinds
from rules_index.search.searcher import CARD_MARGIN, SECTION_LEAD, TERM_LEAD, answer_confidence, section_leads, term_asked

A, B, C = ("faq", "g", "a"), ("faq", "g", "b"), ("faq", "g", "c")


def leads_and_puts_nothing_forward(index, lang: str, query: str, key: tuple) -> None:
    """The first hit is ``key`` (kind, game, entry), and no answer is put forward: no card, none
    side by side."""
    hits = index.search(query, lang, limit=10).hits
    assert (hits[0].kind, hits[0].game, hits[0].entry) == key, [(h.kind, h.entry) for h in hits[:3]]
    assert not any(h.best or h.close for h in hits)


def test_a_clear_lead_is_the_card():
    assert answer_confidence([(A, 100.0), (B, 100.0 * CARD_MARGIN - 0.1)]) == (A, frozenset())
    assert answer_confidence([(A, 10.0)]) == (A, frozenset())
    assert answer_confidence([]) == (None, frozenset())


def test_close_answers_are_listed_and_none_is_the_card():
    best, close = answer_confidence([(A, 100.0), (B, 99.0), (C, 95.0), (("faq", "g", "d"), 94.0)])
    assert best is None and close == {A, B, C}  # three at most
    best, close = answer_confidence([(A, 100.0), (B, 99.0), (C, 10.0)])
    assert best is None and close == {A, B}


def test_a_lead_under_the_margin_is_no_card():
    assert answer_confidence([(A, 100.0), (B, 100.0 * CARD_MARGIN + 0.1)]) == (None, frozenset({A, B}))


def test_search_shows_the_close_answers_first(index):
    result = index.search("game end", "en", limit=10)
    close = [h for h in result.hits if h.close]
    assert not any(h.best for h in result.hits) and len(close) >= 2
    assert result.hits[:len(close)] == close and {h.entry for h in close} == {"game-end"}
    assert len({h.game for h in close}) == len(close)


def test_a_glossary_term_far_ahead_of_every_answer_is_what_was_asked():
    term = (("glossary", "g", "warlord"), 30.0)
    assert term_asked([(A, 30.0 / TERM_LEAD), (B, 5.0), term]) == term
    assert term_asked([(A, 30.0 / TERM_LEAD + 0.1), term]) is None
    assert term_asked([(A, 10.0), (("section", "g", "s"), 90.0)]) is None  # a rules section is no term
    assert term_asked([term]) == term


@pytest.mark.parametrize("lang,query,term", [
    ("en", "mercenary", "warlord"),     # another edition's name of the Warlord
    ("it", "mercenario", "warlord"),
    ("en", "murderer", "assassin"),
])
def test_a_term_asked_alone_leads_with_its_glossary_entry_and_puts_no_answer_forward(index, lang, query, term):
    hits = index.search(query, lang, limit=10).hits
    assert (hits[0].kind, hits[0].entry) == ("glossary", term)
    assert not any(h.best or h.close for h in hits)


def test_a_rules_section_far_ahead_of_every_answer_puts_no_answer_forward():
    section = (("section", "g", "goal"), 30.0)
    assert section_leads([(A, 30.0 / SECTION_LEAD), (B, 5.0), section]) == section
    assert section_leads([(A, 30.0 / SECTION_LEAD + 0.1), section]) is None
    assert section_leads([(A, 10.0), (("glossary", "g", "t"), 90.0)]) is None  # a term is term_asked's
    assert section_leads([section]) is None  # no answer to hold back


def test_a_rules_section_asked_just_as_players_ask_it_leads_unless_an_answer_is_asked_so_too():
    section, other = (("section", "g", "goal"), 10.0), (("section", "g", "end"), 12.0)
    chosen = [(A, 30.0), (B, 5.0), section, other]
    assert section_leads(chosen) is None
    assert section_leads(chosen, lambda: frozenset({section[0]})) == section  # not the higher "end": not asked so
    assert section_leads(chosen, lambda: frozenset({section[0], B})) is None  # an answer is asked just so
    assert section_leads(chosen, lambda: frozenset({A})) is None
    asked = []
    far_ahead = (("section", "g", "goal"), 90.0)
    assert section_leads([(A, 30.0), far_ahead], lambda: asked.append(1) or frozenset()) == far_ahead
    assert asked == []  # worked out only when the scores do not decide
    # Of two sections far ahead, the one asked just so ("Explain the game" before "board explained").
    board = (("section", "g", "board"), 95.0)
    assert section_leads([(A, 30.0), far_ahead, board], lambda: frozenset({far_ahead[0]})) == far_ahead
    assert section_leads([(A, 30.0), far_ahead, board], frozenset) == board


@pytest.mark.parametrize("text,asks", [
    ("Was macht eigentlich der Prediger?", True), ("what does the thief do", True), ("What's a joker for?", True),
    ("che cosa fa il mago", True), ("Cos'è la riserva?", True), ("wofür ist das Kloster gut", True),
    ("Was passiert, wenn der Dieb gefangen wird?", False), ("what happens to the crown", False),
    ("does the merchant get gold", False), ("il ladro cosa fa?", False),  # asked first, not last
    # What is in or on a place: "What's in the box?" made the cash box the lead.
    ("What's in the box of Hoity Toity?", False), ("Was ist in der Schachtel?", False), ("what is on the card", False),
    ("erklär mir den Dieb", True), ("explain the joker", True), ("spiegami il commissario", True),
])
def test_a_question_asking_what_a_thing_is_or_does(text, asks):
    assert asks_what_it_is(text) is asks


@pytest.mark.parametrize("lang,query,term", [
    ("de", "Was macht der Prediger bei Ohne Furcht und Adel?", ("ohne-furcht-und-adel", "bishop")),
    ("en", "what does the assassin do in citadels", ("ohne-furcht-und-adel", "assassin")),
    ("it", "che cosa fa il condottiero", ("ohne-furcht-und-adel", "warlord")),
    ("en", "what can the Kommissar do", ("keine-ehre-unter-dieben", "commissar")),
])
def test_a_question_what_a_thing_does_leads_with_its_glossary_entry(index, lang, query, term):
    """"What does the Warlord do?" is what its glossary entry says (his ability), not the ruling on
    complete cities that the asked words also find."""
    leads_and_puts_nothing_forward(index, lang, query, ("glossary", *term))


@pytest.mark.parametrize("lang,query", [("en", "what does the thief do"), ("de", "was macht der dieb")])
def test_a_term_of_several_games_asked_with_no_game_named_asks_which_game(index, lang, query):
    """Citadels and Hoity Toity each have a thief: both glossary entries come first, nothing is put
    forward and the reader is asked which game (Hoity Toity's alone led)."""
    result = index.search(query, lang, limit=10)
    first = {(h.kind, h.game, h.entry) for h in result.hits[:2]}
    assert first == {("glossary", "adel-verpflichtet", "thief"), ("glossary", "ohne-furcht-und-adel", "thief")}, first
    assert not any(h.best or h.close for h in result.hits)
    assert result.subject


@pytest.mark.parametrize("lang,query,section", [
    ("de", "Erklär mir kurz den Aufbau von Ohne Furcht und Adel", ("ohne-furcht-und-adel", "setup")),
    ("en", "walk me through setting up web of power", ("kardinal-und-koenig", "setup")),
    ("it", "come si prepara adel verpflichtet", ("adel-verpflichtet", "setup")),
    ("de", "worum geht es bei keine ehre unter dieben", ("keine-ehre-unter-dieben", "goal")),
    ("en", "what's the aim in citadels", ("ohne-furcht-und-adel", "goal")),
    ("de", "wie läuft eine runde bei adel verpflichtet ab", ("adel-verpflichtet", "round")),
    ("it", "come funziona il punteggio finale di kardinal und könig", ("kardinal-und-koenig", "final-scoring")),
    # "How are the points counted?" asks how scoring works, not about one of the answers on points.
    ("de", "Wie werden bei Kardinal & König eigentlich die Punkte gezählt?", ("kardinal-und-koenig", "final-scoring")),
    ("it", "come si contano i punti a cittadelle", ("ohne-furcht-und-adel", "scoring")),
])
def test_a_question_about_the_rules_at_large_leads_with_its_section(index, lang, query, section):
    """"How do you set it up?" is answered by the rules summary's section, whose ways of asking
    (``asked`` in sections.yaml) fit it; no one FAQ entry is put forward as its answer."""
    leads_and_puts_nothing_forward(index, lang, query, ("section", *section))


@pytest.mark.parametrize("lang,query,section", [
    ("en", "how do you win web of power", ("kardinal-und-koenig", "goal")),
    ("de", "wie gewinnt man ohne furcht und adel", ("ohne-furcht-und-adel", "goal")),
    ("it", "come si vince a kardinal & könig", ("kardinal-und-koenig", "goal")),
])
def test_a_section_asked_just_as_players_ask_it_leads_though_an_answer_scores_more(index, lang, query, section):
    """"How do you win?" is one of the goal's ways of asking; the tie-break answer holds "win" in
    its question, keywords and text, scored more, and was the card."""
    leads_and_puts_nothing_forward(index, lang, query, ("section", *section))


@pytest.mark.parametrize("lang,query,game", [
    ("de", "Darf der Meuchler sich selbst nennen", "ohne-furcht-und-adel"),
    ("en", "is the display refilled after swapping web of power", "kardinal-und-koenig"),
    ("de", "wer wird der nächste anführer keine ehre", "keine-ehre-unter-dieben"),
    ("it", "Cittadelle: il Condottiero può distruggere i propri quartieri?", "ohne-furcht-und-adel"),
    # No game named: "warlord" is Citadels' alone, so its open question is what was asked.
    ("en", "can the warlord destroy his own district", "ohne-furcht-und-adel"),
    # Asked in a players' word ("Gebäude"): the way of asking in the rulebook's ("Bauwerke") fits.
    ("de", "Darf der Söldner seine eigenen Gebäude zerstören", "ohne-furcht-und-adel"),
])
def test_a_question_the_sources_leave_open_leads_with_the_section_that_says_so(index, lang, query, game):
    """"May the Assassin name himself?" got the Thief's card ("Who can't the Thief steal from?"):
    the open questions' section has players' ways of asking each of them."""
    leads_and_puts_nothing_forward(index, lang, query, ("section", game, "open-questions"))


def test_a_narrow_question_keeps_its_answer_ahead_of_the_section_on_its_subject(index):
    """The section on the game's end holds every word of "when does it end"; the FAQ entry that
    asks just that stays the card."""
    hits = index.search("wann endet kardinal und könig", "de", limit=10).hits
    assert [(h.kind, h.entry) for h in hits if h.best] == [("faq", "game-end")]


@pytest.mark.parametrize("lang,query", [("de", "Regeln")])
def test_a_question_about_the_rules_at_large_gets_no_card(index, lang, query):
    """"Regeln" matched one answer's "verbietet die Regel" a little better than the others: a
    card for the Thief, while the rules summary's sections matched three times as well."""
    hits = index.search(query, lang, limit=10).hits
    assert hits and not any(h.best or h.close for h in hits), [(h.kind, h.entry, h.score, h.best) for h in hits]


def test_players_ways_of_asking_an_answer_weigh_like_its_question(index, monkeypatch):
    """Of sibling answers whose texts share the asked words, the one players ask that way leads:
    each answer's nearest `asked` phrasing raises it as its own question does."""
    from apptools import real_library
    from rules_index.search import searcher

    game = real_library().game("keine-ehre-unter-dieben")
    entry = game.faq_entry("when-leader-can-stop")
    key = ("faq", game.slug, entry.id)
    gen = index.generation()
    raised = []
    for phrasing in entry.asked.get("en")[:4]:
        raw = index._rank(gen, phrasing, "en", None, 10, {})
        assert key in raw, phrasing
        with_asked = index._weigh_questions(gen, raw, phrasing, index.words(gen, phrasing, "en"), None)[key]
        monkeypatch.setattr(searcher, "ASKED_WEIGHT", 0.0)
        without = index._weigh_questions(gen, raw, phrasing, index.words(gen, phrasing, "en"), None)[key]
        monkeypatch.undo()
        raised.append(with_asked / without)
    assert min(raised) >= 1 + searcher.ASKED_WEIGHT * 0.4, raised


@pytest.mark.parametrize("lang,query", [("en", "terms of service"), ("en", "privacy policy")])
def test_an_answer_that_only_mentions_the_words_is_no_card(index, lang, query):
    """"terms of service" matched one answer alone, through "served" in its text: it was the
    card, though nothing in its question or players' words is what was asked."""
    hits = index.search(query, lang, limit=10).hits
    assert hits and not any(h.best for h in hits), [(h.kind, h.entry, h.score, h.best) for h in hits]


def test_the_card_answer_holds_an_asked_word_in_its_question_or_players_words(index):
    gen = index.generation()
    thief = ("faq", "ohne-furcht-und-adel", "thief-forbidden-targets")
    assert index.names_what_was_asked(gen, thief, index.words(gen, "can the thief rob the assassin", "en"))
    assert index.search("can the thief rob the assassin", "en").hits[0].best
    # Italian words of its question count for an English reader too (one concept, every language).
    assert index.names_what_was_asked(gen, thief, index.words(gen, "ladro", "en"))
    assert not index.names_what_was_asked(gen, thief, index.words(gen, "terms of service", "en"))


def test_an_answer_gains_for_the_share_of_the_asked_words_it_holds(index, monkeypatch):
    """Of two sibling answers, the one holding more of the asked words fits better: a rare word
    both hold ("castle" in most answers of one game) outscored the words only one of them held."""
    from rules_index.search import searcher

    assert searcher.WORDS_WEIGHT > 0
    monkeypatch.setattr(searcher, "QUESTION_WEIGHT", 0.0)
    monkeypatch.setattr(searcher, "ASKED_WEIGHT", 0.0)
    monkeypatch.setattr(searcher, "WORDS_WEIGHT", 0.5)
    gen = index.generation()
    key = ("faq", "ohne-furcht-und-adel", "thief-forbidden-targets")
    for asked, held in (("thief assassin rob", 1.0), ("thief assassin rob qqzzxv", 3 / 4)):
        raw = index._rank(gen, asked, "en", None, 10, {})
        assert key in raw
        weighed = index._weigh_questions(gen, raw, asked, index.words(gen, asked, "en"), None)[key]
        assert weighed / raw[key] == pytest.approx(1 + 0.5 * held), asked


@pytest.mark.parametrize("lang,query", [("en", "rules"), ("en", "setup"), ("en", "thanks"), ("de", "Startseite"),
                                        ("it", "regole"), ("it", "grazie")])
def test_a_word_alone_that_names_no_game_gets_no_card(index, lang, query):
    """One word and no game is a subject, not a question: "rules" made one game's answer about its
    editions the card, "thanks" an answer whose players say "no thanks"."""
    hits = index.search(query, lang, limit=10).hits
    assert hits and not any(h.best for h in hits), [(h.kind, h.entry, h.score, h.best) for h in hits]


@pytest.mark.parametrize("lang,query,entry", [("en", "citadels tie", "tie-break"),
                                              ("de", "Kardinal und König Spielende", "game-end")])
def test_a_word_with_the_games_name_is_a_question_of_that_game(index, lang, query, entry):
    card = [h for h in index.search(query, lang, limit=10).hits if h.best]
    assert [h.entry for h in card] == [entry]


@pytest.mark.parametrize("lang,query", [("en", "contact"), ("it", "contatti"), ("it", "ladro"), ("de", "ladro")])
def test_a_word_alone_puts_no_answers_of_one_game_nor_unasked_ones_side_by_side(index, lang, query):
    """"Three answers fit" claims as much as a card: "contact" put three scoring answers side by
    side, "ladro" three of one game's thieves while another game's Ladro came eighth."""
    hits = index.search(query, lang, limit=10).hits
    assert hits and not any(h.best or h.close for h in hits), [(h.entry, h.score, h.close) for h in hits]


def test_a_word_alone_puts_the_answers_of_different_games_side_by_side(index):
    close = [h for h in index.search("Gleichstand", "de", limit=10).hits if h.close]
    assert len(close) >= 2 and len({h.game for h in close}) == len(close) and not any(h.best for h in close)


@pytest.mark.parametrize("query", ["Spielende", "Regeln"])
def test_a_word_alone_for_a_part_of_every_games_rules_puts_nothing_forward(index, query):
    """Every game's rules have their end: the word asks for a part of the rules of a game left
    open, so no game's section is shown first and no answer is put forward."""
    hits = index.search(query, "de", limit=10).hits
    assert hits and not any(h.best or h.close for h in hits)


@pytest.mark.parametrize("lang,query", [("en", "tie breaker"), ("en", "what happens on a tie")])
def test_one_question_answered_by_several_games_under_other_ids_gets_no_card(index, lang, query):
    """Each game's answer on ties has an id of its own: the one game's answer that came first by a
    little was the card, for a question no game was named in."""
    hits = index.search(query, lang, limit=10).hits
    close = [h for h in hits if h.close]
    assert not any(h.best for h in hits) and len({h.game for h in close}) >= 2, [(h.game, h.entry, h.score) for h in hits]
    named = [h for h in index.search("citadels " + query, lang, limit=10).hits if h.best]
    assert [(h.game, h.entry) for h in named] == [("ohne-furcht-und-adel", "tie-break")]


def test_answers_side_by_side_are_each_asked_about_most_asked_words(index, monkeypatch):
    from rules_index.search import searcher

    thief = ("faq", "ohne-furcht-und-adel", "thief-forbidden-targets")
    tie = ("faq", "ohne-furcht-und-adel", "tie-break")
    monkeypatch.setattr(searcher, "answer_confidence", lambda answers: (None, frozenset({thief, tie})))
    hits = index.search("citadels thief tie", "en", limit=10).hits
    assert {h.entry for h in hits if h.close} == {"thief-forbidden-targets", "tie-break"}
    # One of the two asked about too few of the asked words: it is not put forward, and one alone is
    # no pair.
    index.results.clear()
    share = searcher.SearchIndex.asked_share
    monkeypatch.setattr(searcher.SearchIndex, "asked_share",
                        staticmethod(lambda gen, key, asked, *fields: searcher.CARD_ASKED_SHARE * 0.9 if key == tie
                                     else share(gen, key, asked, *fields)))
    hits = index.search("citadels thief tie", "en", limit=10).hits
    assert not any(h.close for h in hits), [(h.entry, h.close) for h in hits]


def test_the_same_question_of_another_game_further_behind_leaves_the_game_open(index):
    """"wer gewinnt bei gleichstand" made the tie-break of Ohne Furcht und Adel the card, though
    Kardinal & König answers the same question otherwise (at 0.63 of its score): the asker named
    no game and no word of theirs belongs to one."""
    hits = index.search("wer gewinnt bei gleichstand", "de", limit=10).hits
    assert not any(h.best for h in hits)
    assert {(h.game, h.entry) for h in hits if h.close} == {("ohne-furcht-und-adel", "tie-break"), ("kardinal-und-koenig", "tie-break")}
    # A word of one game's alone ("Bauwerke") names it.
    card = [h for h in index.search("Bauwerke gleichstand wer gewinnt", "de", limit=10).hits if h.best]
    assert [(h.game, h.entry) for h in card] == [("ohne-furcht-und-adel", "tie-break")]


def test_a_word_held_by_one_games_documents_alone_tells_the_games_apart(index):
    gen = index.generation()
    ofua, kk = "ohne-furcht-und-adel", "kardinal-und-koenig"
    assert index.tells_games_apart(gen, ofua, {kk}, index.words(gen, "Bauwerke", "de"))
    assert not index.tells_games_apart(gen, ofua, {kk}, index.words(gen, "gleichstand gewinnt", "de"))
    assert index.tells_games_apart(gen, kk, {ofua}, index.words(gen, "Kloster", "de"))


@pytest.mark.parametrize("lang,query,game", [("it", "Adel Verpflichtet ha un'app per smartphone?", "adel-verpflichtet"),
                                             ("en", "xylophon quokka citadels", "ohne-furcht-und-adel")])
def test_a_game_named_with_words_it_does_not_hold_shows_the_game_at_a_glance(index, lang, query, game):
    """A question naming a game whose other words nothing of it holds found nothing at all."""
    hits = index.search(query, lang, limit=10).hits
    assert [(h.kind, h.game, h.entry) for h in hits][:1] == [("fact", game, "facts")]
    assert not any(h.best or h.close for h in hits)


@pytest.mark.parametrize("lang,query,game,first,card", [
    ("it", "di chi è Cittadelle?", "ohne-furcht-und-adel", "credits", True),
    ("de", "Von wem stammt Ohne Furcht und Adel?", "ohne-furcht-und-adel", "credits", False),  # "stammt": no word of it
    ("de", "Wie viele bei Kardinal & König?", "kardinal-und-koenig", "facts", True),
    ("en", "Web of Power", "kardinal-und-koenig", "facts", True),
])
def test_a_games_name_with_question_words_alone_is_answered_by_what_players_ask_so(index, lang, query, game, first, card):
    """A game's name and question words only: the facts, the credits and the components at a glance,
    first the one that players ask the kind of question asked ("who": the credits)."""
    hits = index.search(query, lang, limit=10).hits
    assert [(h.kind, h.game, h.entry) for h in hits][:1] == [("fact", game, first)], [(h.entry, h.score) for h in hits]
    assert hits[0].best is card


@pytest.mark.parametrize("text,kinds", [
    ("Wie viele Räte passen in ein Land?", {"count"}), ("wieviel Gold bekommt der Händler", {"count"}),
    ("How much does the Warlord pay?", {"count"}), ("in quanti si gioca", {"count"}),
    ("Wer bekommt die Krone?", {"who"}), ("whose exhibition wins", {"who"}), ("chi prende la corona", {"who"}),
    ("wann kommt der Dieb frei", {"when"}), ("When do I get the gold?", {"when"}), ("quando esce il ladro", {"when"}),
    ("Darf der Dieb den Mörder bestehlen?", set()), ("can the thief rob the assassin", set()), ("dieb meuchler", set()),
    ("Who gets how many points?", {"who", "count"}),
])
def test_question_words_tell_the_kind_of_answer_asked_for(text, kinds):
    assert question_kinds(text) == kinds


def test_an_answer_asked_the_same_kind_of_question_gains(index, monkeypatch):
    """Of sibling answers holding the same words, the one whose question asks what the asked words
    ask (how many, who, when) fits better: "in quanti si gioca" is how many play, not how two play."""
    from rules_index.search import searcher

    assert searcher.KIND_WEIGHT > 0
    for weight in ("QUESTION_WEIGHT", "ASKED_WEIGHT", "WORDS_WEIGHT"):
        monkeypatch.setattr(searcher, weight, 0.0)
    monkeypatch.setattr(searcher, "KIND_WEIGHT", 0.5)
    gen = index.generation()
    key = ("faq", "kardinal-und-koenig", "council-limit")  # "How many councillors may stand in one land at most?"
    for asked, gain in (("how many councillors in a land", 1.5), ("councillors in a land", 1.0), ("when councillors land", 1.0)):
        raw = index._rank(gen, asked, "en", None, 10, {})
        assert key in raw
        weighed = index._weigh_questions(gen, raw, asked, index.words(gen, asked, "en"), None)[key]
        assert weighed / raw[key] == pytest.approx(gain), asked


@pytest.mark.parametrize("lang,query,card,not_card", [
    ("de", "wie viele räte in einem land", "council-limit", None),
    ("it", "adel verpflichtet in quanti si gioca", None, "two-player-variants"),
])
def test_the_kind_of_question_asked_picks_among_sibling_answers(index, lang, query, card, not_card):
    hits = index.search(query, lang, limit=10).hits
    best = [h.entry for h in hits if h.best]
    if card:
        assert best == [card], [(h.entry, h.score, h.best) for h in hits]
    if not_card:
        assert not_card not in best, [(h.entry, h.score, h.best) for h in hits]


@pytest.mark.parametrize("lang,query", [
    ("en", "how does the robber work in catan"),
    ("de", "Wie funktioniert die Straßenwertung bei Carcassonne?"),
    ("en", "best strategy for the warlord in citadels"),
    ("de", "welche taktik ist beim Söldner am besten"),
    # A common word held by an answer's question, the word asked about by none ("borrow", "Kredit",
    # "horse", "giullare"): the share of the asked words is weighed by how much each tells.
    ("en", "Can the thief borrow gold from the bank in Citadels?"),
    ("de", "Darf der Dieb einen Kredit bei der Bank aufnehmen?"),
    ("en", "Does the warlord get a horse?"),
    ("it", "Cosa fa il giullare in Cittadelle?"),
])
def test_a_question_the_content_does_not_answer_gets_no_answer_put_forward(index, lang, query):
    """Another game's rules, a strategy: the answers that share one word of it are listed, but none
    is put forward as the answer, alone or side by side (``CARD_ASKED_SHARE``)."""
    hits = index.search(query, lang, limit=10).hits
    assert hits and not any(h.best or h.close for h in hits), [(h.entry, h.best, h.close) for h in hits]


@pytest.mark.parametrize("lang,query", [
    ("en", "Is Hoity Toity still in print?"),
    ("it", "Esiste un'espansione di Keine Ehre unter Dieben?"),
    ("de", "Wie viel kostet Adel Verpflichtet gebraucht?"),
])
def test_no_card_whose_own_question_does_not_fit_what_was_asked(index, lang, query):
    """A question about the game as a product: an answer that leads on words of its text ("print",
    "gebraucht") while its own question, players' ways of asking it and the kind of question barely
    fit is no answer card (``CARD_FIT``)."""
    hits = index.search(query, lang, limit=10).hits
    assert hits and not any(h.best for h in hits), [(h.entry, h.score, h.best) for h in hits]


def test_a_facts_ways_of_asking_are_its_question(index):
    """A game's facts have a label for a title ("Numero di giocatori, durata, età"), not a question:
    players' ways of asking them fit what was asked as an answer's question does (``CARD_FIT``)."""
    hits = index.search("Mio nipote ha 7 anni, Kardinal & König è adatto?", "it", limit=10).hits
    best = [(h.kind, h.game, h.entry) for h in hits if h.best]
    assert best == [("fact", "kardinal-und-koenig", "facts")], [(h.entry, h.score, h.best) for h in hits]


def test_an_asked_word_weighs_more_the_fewer_documents_hold_it(index):
    """``word_weight``: a word no document holds tells the most, a word of one character's answers
    more than one of most answers of every game; a compound that no document holds tells as much
    as a word none holds, though many hold one of its parts."""
    gen = index.generation()
    with gen.borrowed():
        none, rare, common = (index.words(gen, word, "en")[0] for word in ("zeppelin", "assassin", "card"))
        held = [len(gen.word_postings(word).ids) for word in (rare, common)]
        weights = [gen.word_weight(word) for word in (none, rare, common)]
        compound, part = (index.words(gen, word, "de")[0] for word in ("Zeppelinwertung", "Wertung"))
        assert gen.word_postings(part) is not None
        assert gen.word_weight(compound) == weights[0] > gen.word_weight(part)
    assert gen.word_postings(none) is None and held[0] < held[1], held
    assert weights[0] > weights[1] > weights[2], weights


@pytest.mark.parametrize("query,game", [
    ("Wie baut man Ohne Furcht und Adel auf?", "ohne-furcht-und-adel"),
    ("wie bereitet man kardinal und könig vor", "kardinal-und-koenig"),
    ("Wie baut man Keine Ehre unter Dieben auf?", "keine-ehre-unter-dieben"),
])
def test_a_german_verb_split_in_two_asks_what_the_whole_verb_means(index, query, game):
    """"Wie baut man … auf?" is "aufbauen" (to set up): "baut" alone made the Architect's
    building answer the card, and "bereitet … vor" found nothing of the setup."""
    leads_and_puts_nothing_forward(index, "de", query, ("section", game, "setup"))


@pytest.mark.parametrize("lang,query,game", [
    ("de", "Wie funktioniert Kardinal & König?", "kardinal-und-koenig"),
    ("en", "How does Web of Power work?", "kardinal-und-koenig"),
    ("it", "Come funziona Kardinal & König?", "kardinal-und-koenig"),
])
def test_a_game_named_is_what_a_way_of_asking_calls_the_game(index, lang, query, game):
    """"How does Web of Power work?" is the goal section's "How does the game work?": the
    joker's answer ("How does the joker work?") was the card."""
    leads_and_puts_nothing_forward(index, lang, query, ("section", game, "goal"))


def test_a_way_of_asking_fits_exactly_only_a_question_of_its_kind(index):
    """"wertung" is one of the scoring section's ways of asking; "Wie viele Wertungen?" holds its
    words and no others, but asks how many ("In quanti si gioca?" is no "Come si gioca?")."""
    from rules_index.search.searcher import SearchIndex

    gen = index.generation()
    scoring = ("section", "adel-verpflichtet", "scoring")
    with gen.borrowed():
        assert SearchIndex.asked_exactly(gen, [scoring], "Wertung", "adel-verpflichtet") == {scoring}
        assert SearchIndex.asked_exactly(gen, [scoring], "Wie viele Wertungen?", "adel-verpflichtet") == set()


@pytest.mark.parametrize("lang,query", [
    ("de", "wie läuft ein zug ab"),  # Citadels' and Kardinal & König's turn sections
    ("en", "how does scoring work"),  # a way of asking of two games' scoring sections
    ("it", "come si prepara la partita"),
])
def test_the_rules_at_large_of_no_game_named_ask_which_game(index, lang, query):
    """Several games' sections are what was asked: they come first, no answer is put forward (the
    Keine Ehre scoring answer was the card of "how does scoring work"), and the reader is asked
    which game."""
    result = index.search(query, lang, limit=10)
    assert result.hits[0].kind == "section", [(h.kind, h.game, h.entry) for h in result.hits[:3]]
    assert not any(h.best or h.close for h in result.hits)
    assert result.subject and len(set(result.subject_games)) >= 2


@pytest.mark.parametrize("lang,query", [("en", "how do I win"), ("en", "who wins"), ("it", "chi vince"), ("it", "come si vince"),
                                         ("de", "wer fängt an"), ("en", "who goes first")])
def test_a_question_asked_just_so_of_several_games_asks_which_game(index, lang, query):
    """Players ask several games' answers or sections just as asked ("How do you win?": Hoity
    Toity's answer on the game's end, the other games' goal; "Who goes first?": Hoity Toity's
    answer that nobody does, the others' setup): which game is open, those hits come
    first, and no answer is put forward (two games' tie-breaks were side by side for "how do I win")."""
    result = index.search(query, lang, limit=10)
    asked_so = {("faq", "adel-verpflichtet", "game-end-winner"), *(("section", game, "goal") for game in (
        "ohne-furcht-und-adel", "kardinal-und-koenig", "keine-ehre-unter-dieben")),
        ("faq", "adel-verpflichtet", "no-start-player"), *(("section", game, "setup") for game in (
        "ohne-furcht-und-adel", "kardinal-und-koenig"))}
    first = [(h.kind, h.game, h.entry) for h in result.hits[:3]]
    assert set(first) <= asked_so, first
    assert not any(h.best or h.close for h in result.hits)
    assert result.subject and len(set(result.subject_games)) >= 2


@pytest.mark.parametrize("lang,query,game", [
    ("en", "how do you play web of power", "kardinal-und-koenig"), ("de", "wie spielt man kardinal und könig", "kardinal-und-koenig"),
    ("it", "come si gioca ad adel verpflichtet", "adel-verpflichtet"), ("en", "how to play citadels", "ohne-furcht-und-adel"),
    # Asked just so, before a section that scores more on the words: the board's "board explained".
    ("en", "explain web of power", "kardinal-und-koenig"), ("de", "erklär mir keine ehre unter dieben", "keine-ehre-unter-dieben"),
])
def test_how_a_named_game_is_played_leads_with_its_goal(index, lang, query, game):
    """"How do you play X?" asks for the game at large: its goal section ("How does the game
    work?") leads, with no answer put forward (Kardinal & König's joker pair was the card of "wie
    spielt man kardinal und könig", two player-count answers side by side of the English)."""
    result = index.search(query, lang, limit=10)
    assert (result.hits[0].kind, result.hits[0].game, result.hits[0].entry) == ("section", game, "goal")
    assert not any(h.best or h.close for h in result.hits)


@pytest.mark.parametrize("lang,query", [("de", "was passiert wenn die karten ausgehen"), ("en", "what happens on a tie")])
def test_answers_side_by_side_come_higher_score_first(index, lang, query):
    """The first of them is the right one more often than a fixed order's first (``searcher``)."""
    close = [h for h in index.search(query, lang, limit=10).hits if h.close]
    assert len(close) >= 2
    assert [h.score for h in close] == sorted((h.score for h in close), reverse=True), [(h.entry, h.score) for h in close]
