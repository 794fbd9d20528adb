"""What the change gate found, in the editor's language: each problem and hold reason that
carries a code (bindings.py, holds.py) is said in plain words, with what the text says, what the
engine says and how to fix it; the rest keep their message (the engine's own, or a mistake's)."""
from __future__ import annotations

from flask_babel import gettext as _
from markupsafe import Markup

from rules_index.present import LANGUAGE_NAMES


def _say(code: str, lang: str, p: dict) -> str | None:
    language = LANGUAGE_NAMES.get(lang or "", lang or "")
    if code == "value":
        return _("%(language)s: “%(words)s” does not say %(expected)s, which the engine gives in situation %(check)s for the fact %(fact)s. Write %(expected)s there, or bind the words to the fact they state.",
                 language=language, **p)
    if code == "opposite":
        return _("%(language)s: “%(words)s” says the opposite of what the engine gives in situation %(check)s for the fact %(fact)s. Turn the statement round, or bind it to the fact it states.",
                 language=language, **p)
    if code == "no-words":
        return _("%(language)s: the fact %(fact)s has no words of its own in this language (its value is %(expected)s). Give the fact its words (says) in the ruling.",
                 language=language, **p)
    if code == "unknown-fact":
        return _("%(language)s: “%(words)s” is bound to %(fact)s, which the ruling does not have. Correct the name, or add the fact with “Bind a statement to the engine”.",
                 language=language, **p)
    if code == "subject":
        return _("%(language)s: “%(words)s” stands apart from what it is about, “%(subject)s”. Name it in the same sentence, or for lists in the same item.",
                 language=language, **p)
    if code == "unbound":
        return _("%(language)s: “%(text)s” states a rule that no fact binds. Bind its words to a fact, mark it as editorial or as what the sources leave open, or remove it.",
                 language=language, **p)
    if code == "loose-number":
        return _("%(language)s: “%(text)s” states %(numbers)s outside a bound statement. Bind the number to the fact it counts, or remove it.",
                 language=language, **p)
    if code == "page":
        return _("%(language)s: the text names %(page)s, but the citation gives %(cited)s. Write the cited page.", language=language, **p)
    if code == "mark":
        return _("%(language)s: %(mark)s carries a mark this site does not know. Write {fact=name}, {.editorial} or {.unchecked}.",
                 language=language, **p)
    if code == "question":
        return _("%(language)s: the question asks about %(subject)s, which none of the entry's situations plays. Ask about what the checks play, or add a check.",
                 language=language, **p)
    if code == "new":
        return _("%(language)s: new or reworded: “%(text)s”", language=language, **p)
    if code == "dropped":
        return _("%(language)s: dropped or reworded: “%(text)s”", language=language, **p)
    if code == "structured":
        return _("The change touches %(fields)s: what the checks and facts mean is for a second editor to read.", **p)
    if code == "diverging":
        return _("%(language)s binds other facts than the other languages (%(facts)s).", language=language, **p)
    return None


def gate_text(item) -> str:
    """A gate problem or hold reason (an object, or a stored reason as a dict) in the editor's
    language where it has a code; else its message as it is."""
    if isinstance(item, dict):
        code, lang, params, message = item.get("code"), item.get("lang"), item.get("params") or {}, item.get("message", "")
    else:
        code, lang, message = getattr(item, "code", None), getattr(item, "lang", None), item.message
        params = dict(getattr(item, "params", ()) or ())
    said = _say(code, lang, params) if code else None
    return said if said is not None else message


def gate_markup(item) -> Markup:
    return Markup.escape(gate_text(item))
