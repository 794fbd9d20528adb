"""What the change gate found, in the editor's language: each problem and hold reason that
carries a code (bindings.py, holds.py) is said in plain words, with what the text says, what the
engine says and how to fix it; the rest keep their message (the engine's own, or a mistake's)."""
from __future__ import annotations

import re

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from rules_index.present import LANGUAGE_NAMES


def _say(code: str, lang: str, p: dict) -> str | None:
    language = LANGUAGE_NAMES.get(lang or "", lang or "")
    if code == "value":
        return _("%(language)s: “%(words)s” does not say %(expected)s, which the engine gives in situation %(check)s for the fact %(fact)s. Write %(expected)s there, or bind the words to the fact they state.",
                 language=language, **p)
    if code == "opposite":
        return _("%(language)s: “%(words)s” says the opposite of what the engine gives in situation %(check)s for the fact %(fact)s. Turn the statement round, or bind it to the fact it states.",
                 language=language, **p)
    if code == "reversed-denied":
        return _("%(language)s: “%(words)s” is now denied, where the checked text affirms it (fact %(fact)s): the opposite of what the engine checked. Keep what the statement says, or change the ruling.",
                 language=language, **p)
    if code == "reversed-affirmed":
        return _("%(language)s: “%(words)s” is now affirmed, where the checked text denies it (fact %(fact)s): the opposite of what the engine checked. Keep the denial, or change the ruling.",
                 language=language, **p)
    if code == "reversed-word":
        return _("%(language)s: “%(words)s” says “%(said)s” where the checked text says “%(checked)s” (fact %(fact)s): the opposite of what the engine checked. Keep “%(checked)s”, or change the ruling.",
                 language=language, **p)
    if code == "verdict-opens":
        return _("%(language)s: the answer opens with “%(said)s”, but the entry's verdict is “%(verdict)s”. Open with the verdict, or change the verdict.",
                 language=language, **p)
    if code == "verdict-open":
        return _("%(language)s: the answer opens with “%(said)s”, but the entry's verdict leaves the question open. Do not open with a verdict word, or change the verdict.",
                 language=language, **p)
    if code == "repository":
        return _("Not saved: the content repository did not take the change (%(cause)s). Nothing was stored, and your text is kept below: save again in a moment.", **p)
    if code == "uncommitted":
        return _("Not saved: %(cause)s hold edits made by hand and not committed to the content repository. Nothing was stored, and your text is kept below: save again once those edits are committed or dropped.", **p)
    if code == "verdict-missing":
        return _("%(language)s: the answer does not open with “%(verdict)s”, the entry's verdict. Open with it.",
                 language=language, **p)
    if code == "verdict-number":
        return _("%(language)s: the first number of the answer is %(first)s, but the entry's verdict is %(verdict)s. Give the verdict's number first.",
                 language=language, **p)
    if code == "verdict-phrase":
        return _("%(language)s: the first paragraph of the answer does not name “%(verdict)s”, the entry's verdict. Name it there.",
                 language=language, **p)
    if code == "mistake":
        return _("%(language)s: the answer restates the common mistake “%(mistake)s”, which the engine refutes in %(check)s. %(scenario)s",
                 language=language, **p).strip()
    if code == "obligation":
        return _("%(language)s: “%(words)s” says that something must be done, but situation %(check)s shows only whether the engine allows it (fact %(fact)s). Say what the check shows, or give the fact the words it checks (says).",
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
        return _("%(language)s: “%(text)s” states %(numbers)s, which no check counts (a number in a yes/no statement is not checked). Bind the number to the fact it counts, or remove it.",
                 language=language, **p)
    if code == "page":
        return _("%(language)s: the text names %(page)s, but the citation gives %(cited)s. Write the cited page.", language=language, **p)
    if code == "mark":
        return _("%(language)s: %(mark)s carries a mark this site does not know. Write {fact=name}, {.editorial} or {.unchecked}.",
                 language=language, **p)
    if code == "span-lines":
        return _("%(language)s: the marked words %(mark)s run over a line break. Put a marked span on one line.",
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
    if code == "schema":
        return _schema(p)
    if code == "statement-count":
        return _("%(language)s: %(checked)s of %(total)s statements about the rules are checked, in the other languages %(other_checked)s of %(other_total)s, so the answer's badge would differ between languages. Split or join its sentences as the other languages do.",
                 language=language, **p)
    if code == "diverging":
        return _("%(language)s binds other facts than the other languages (%(facts)s).", language=language, **p)
    return None


_NO_VALID = re.compile(r"(?P<value>'.*') is no valid \w+$")


def _yaml_problem(problem: str) -> str:
    """The YAML parser's most common complaints in plain words; any other as the parser says it."""
    if problem.startswith("mapping values are not allowed"):
        return _("a colon followed by a space starts a key here; put a text that holds one in quotes")
    if problem in ("could not find expected ':'", "did not find expected key", "did not find expected '-' indicator"):
        return _("a line does not fit the indentation or lacks its “key: value” colon")
    if "tab character" in problem:
        return _("a tab character; indent with spaces")
    if problem.startswith("did not find expected ','"):
        return _("a list or mapping in brackets is not closed, or its items lack a comma")
    if problem == "found unexpected end of stream":
        return _("the text ends inside quotes or brackets that are not closed")
    if (value := _NO_VALID.match(problem)) is not None:  # content.yaml12.ContentLoader.construct_object
        return _("%(value)s reads as a date, number or yes/no but is none; put it in quotes to keep it as text",
                 value=value["value"])
    return problem


def yaml_syntax_error(exc) -> str:
    """A refused YAML field (``content.submitted_yaml.SubmittedYamlError``, reason "syntax") in the
    editor's language, with where the parser stopped."""
    problem = _yaml_problem(exc.problem or exc.detail)
    if exc.line is None:
        return _("Not valid YAML: %(problem)s.", problem=problem)
    return _("Not valid YAML in line %(line)d, column %(column)d: %(problem)s.", line=exc.line, column=exc.column,
             problem=problem)


# The content schema's own refusals (``content.schema``, pydantic's PydanticCustomError), by kind.
SCHEMA_RULES = {
    "page_form": _l("a page is a number or a range like 5-6"),
    "page_zero": _l("pages start at 1"),
    "page_order": _l("a page range goes upwards, like 5-6"),
    "range_order": _l("max is smaller than min"),
    "fact_place": _l("a fact names exactly one of output or given"),
    "verdict_form": _l("write the verdict as yes, no, none, a number or a phrase per language"),
    "editorial_check": _l("an editorial entry (basis: editorial) states no rule and carries no check"),
    "mistake_target": _l("a mistake links to exactly one of faq or section"),
}


def _schema(p: dict) -> str:
    """A value of the entry the content's schema refuses, by the kind of refusal."""
    kind, where = p.get("type"), p.get("where", "")
    if kind == "missing":
        return _("%(where)s is missing.", where=where)
    if kind == "extra_forbidden":
        return _("%(where)s is not a field here: remove it or check its spelling.", where=where)
    if kind == "string_type":
        return _("%(where)s: write a text.", where=where)
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return _("%(where)s: write a whole number.", where=where)
    if kind in ("bool_type", "bool_parsing"):
        return _("%(where)s: write true or false.", where=where)
    if kind in ("list_type", "tuple_type"):
        return _("%(where)s: write a list.", where=where)
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return _("%(where)s: write keys with values (key: value).", where=where)
    if kind in ("literal_error", "enum") and p.get("expected"):
        return _("%(where)s: write one of %(expected)s.", where=where, expected=p["expected"])
    if kind == "page_beyond":
        return _("%(where)s: page %(page)s is beyond the %(pages)s pages of the source. Cite a page it has.", where=where,
                 page=p.get("page", ""), pages=p.get("pages", ""))
    if kind == "fact_names_twice":
        return _("%(where)s: each fact needs a name of its own; used more than once: %(names)s", where=where,
                 names=p.get("names", ""))
    custom = SCHEMA_RULES.get(kind)
    return _("%(where)s: %(message)s", where=where, message=custom or p.get("message", ""))


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
