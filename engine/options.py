"""An option picked from a listed menu: by its letter, by its place, or "the last one".

A question that lists its options in order (an exercise's a) b) c), a placement question, a menu
of topics) is answered the way people point at a list: "b", "(b)", "I'd go with b", "the second
one", "number 3", "option 2", "#2", "the last one", "la segunda", "die zweite", "la deuxième",
"l'ultima". One reader for every flow and bot, in English, Spanish, French, German, Italian and
Portuguese. Ordinal words are read by text2num (its threshold at 0 reads "second" as "2nd",
"segunda" as "2ª", "zweite" as "2."); the words around a pick must say nothing else ("I train the
second week" picks nothing), so a pick is only read where the whole message is one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from text_to_num import alpha2digit

from engine.extract import Parser, choice, fold
from engine.numwords import LANGUAGES

# The first letters of ordinal words and of "last" in the six languages, folded: a message with
# none of them names no place, and text2num is spared six calls (most answers at a menu).
_ORDINAL_STEM = re.compile(
    r"(?<![a-z])(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last"
    r"|primer|segund|tercer|cuart|quint|sext|septim|octav|noven|decim|ultim"
    r"|premi|deuxi|troisi|quatri|cinqui|sixi|septi|huiti|neuvi|dixi|derni"
    r"|erst|zweit|dritt|viert|funft|sechst|siebt|acht|neunt|zehnt|letzt"
    r"|prim|terz|quart|sest|settim|ottav|nono|decim|penultim"
    r"|primeir|terceir)"
)
# what text2num leaves of an ordinal: "2nd", "3rd", "1st", "4th", "2ª", "1º", "2ème", "1ère", "1er", "2e", "2."
_ORDINAL = re.compile(r"(?<![\w.])(\d{1,2})(?:st|nd|rd|th|ª|º|o|a|ème|eme|ère|ere|er|e|\.)(?!\w)")
# a place said with a number: "number 3", "option 2", "#2", "no. 2", "nummer 2", "numéro 2"
_NUMBERED = re.compile(
    r"(?<!\w)(?:#\s*|(?:no|nr|n)\.?\s*|(?:number|option|choice|answer|nummer|numero|opcion|opcao|opzione|antwort"
    r"|respuesta|reponse|risposta|resposta)\s+(?:#\s*)?)(\d{1,2})(?!\w)"
)
_LAST = re.compile(
    r"(?<!\w)(?:the\s+)?(?:very\s+)?(?:last|ultimo|ultima|dernier|derniere|letzte|letzten|letzter|letztes)(?!\w)"
)
# words that may stand around a pick without saying anything else
_FILLER = frozenset(
    " ".join((
        "a the one ones option choice answer please pls i id i'd ill i'll would say go with pick choose take think",
        "guess maybe probably its it's it is that this one's will be my is hmm um uh ok okay so then number letter",
        "suppose believe",
        "el la lo los las un una opcion respuesta elijo escojo creo que es digo por favor supongo pienso",
        "le les l une reponse je choisis prends crois c'est c est dis s'il te plait pense",
        "der die das den dem ein eine antwort nehme ich wahle glaube ist bitte nummer denke",
        "il gli risposta scelgo prendo penso che dico per numero credo",
        "o os as um uma resposta escolho acho e eu",
    )).split()
)  # fmt: skip
_KEY_FIRST = re.compile(r"\(?([a-z])\s*[).:-]\s*(.*)")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def picked(text: str, options: Sequence[str] | Mapping[str, str]) -> str | None:
    """The option `text` picks from `options`, listed in this order, or None.

    `options` are keys, or keys with the text each one shows (`{"a": "1/5", "b": "1/6"}`). Read by
    the option's text ("1/6"), by its letter when the keys are letters ("b", "(b)", "option b",
    "I'd say b", "b) 1/6"), by its place ("the second one", "number 2", "la segunda") or as the
    last ("the last one").
    """
    keys = list(options)
    if not keys:
        return None
    t = fold(text).strip()
    labels = {k: fold(v).strip() for k, v in options.items()} if isinstance(options, Mapping) else {}
    by_text = [k for k, label in labels.items() if label and label == t]
    if len(by_text) == 1:
        return by_text[0]
    if all(len(k) == 1 and k.isalpha() for k in keys):
        key = _letter(t, keys, labels)
        if key is not None:
            return key
    place = _place(t, fold(text, accents=True).strip(), len(keys))
    if place is not None:
        return keys[place - 1]
    return _with_reason(text, options)


# where a pick ends and the reason for it starts: "c, the two sides are different", "b because …"
_REASON = re.compile(
    # a separator starts where the whitespace before it starts: searched from inside a long run of
    # spaces, each start would take the rest of the run again
    r"(?<!\s)\s*+[,;:?!.]++\s*+|(?<!\s)\s++[-–—]\s++|(?<!\s)\s++(?=(?:because|since|as|cause|cuz|porque"
    r"|parce que|weil|perche)\b)",
    re.I,
)


def _with_reason(text: str, options: Sequence[str] | Mapping[str, str]) -> str | None:
    """A pick, then why ("c, the two sides are different"): the pick, when the reason picks no other."""
    parts = _REASON.split(text.strip(), maxsplit=1)
    if len(parts) != 2 or not parts[1].strip():
        return None
    first = picked(parts[0], options)
    if first is None:
        return None
    rest = fold(parts[1])
    keys = list(options)
    letters = all(len(k) == 1 and k.isalpha() for k in keys)
    # a reason that names another option by letter ("a, or maybe b") leaves the pick open
    others = [k for k in keys if k != first and letters and re.search(rf"(?<![\w']){re.escape(k)}(?![\w'])", rest)]
    return first if not (others and any(k != "a" for k in others)) else None


def _letter(t: str, keys: Sequence[str], labels: Mapping[str, str]) -> str | None:
    """A letter key standing as a word ("b", "(b)", "b.", "option b"), the rest filler; or the
    letter first and the start of its option's text after it ("b) 1/6", "b: x³")."""
    m = _KEY_FIRST.match(t)
    if m and m.group(1) in labels and m.group(2) and labels[m.group(1)].startswith(m.group(2).strip()):
        return m.group(1)
    words = _WORD.findall(t.replace("(", " ").replace(")", " "))
    found = [w for w in words if w in keys]
    if len(found) != 1:
        # "a" is an English article as well: "option a" has one letter key and one filler "a"
        found = [w for w in found if w != "a"] if "a" in keys and len(found) == 2 else found
        if len(found) != 1:
            return None
    rest = [w for w in words if w != found[0]]
    return found[0] if all(w in _FILLER for w in rest) else None


def _place(t: str, accented: str, count: int) -> int | None:
    """The 1-based place `t` names among `count` listed options, when it names one and only that.
    `accented` is `t` with its accents, which text2num needs ("deuxième", "última")."""
    if _LAST.search(t) and _only_filler(_LAST.sub(" ", t)):
        return count
    numbered = _NUMBERED.findall(t)
    if len(numbered) == 1 and _only_filler(_NUMBERED.sub(" ", t)):
        return _within(int(numbered[0]), count)
    if not _ORDINAL_STEM.search(t) and not _ORDINAL.search(t):
        return None
    for said in _ordinal_readings(accented):
        places = _ORDINAL.findall(said)
        if len(places) == 1 and _only_filler(fold(_ORDINAL.sub(" ", said))):
            return _within(int(places[0]), count)
    return None


@lru_cache(maxsize=512)
def _ordinal_readings(t: str) -> tuple[str, ...]:
    """`t` with its ordinal words as digits, as each language reads them (the typed form first)."""
    out = [t]
    for lang in LANGUAGES:
        try:
            said = alpha2digit(t, lang, threshold=0)
        except (ValueError, IndexError):  # text2num refuses some mixes of words; they name no place
            continue
        if said not in out:
            out.append(said)
    return tuple(out)


def _only_filler(rest: str) -> bool:
    return all(w in _FILLER or (w.isdigit() and w == "1") for w in _WORD.findall(rest))


def _within(place: int, count: int) -> int | None:
    return place if 1 <= place <= count else None


def listed_choice(options: Mapping[str, Sequence[str]], cutoff: float = 0.75, fuzzy: bool = True) -> Parser:
    """`choice(options)` for a question that lists the options in this order: "the second one",
    "number 3" and "the last one" pick too, when no option is named."""
    named = choice(options, cutoff, fuzzy)
    keys = list(options)

    def rule(text: str) -> object:
        found = named.rule(text)
        return picked(text, keys) if found is None else found

    return Parser(rule, named.expects, named.llm_hint, named.greedy)
