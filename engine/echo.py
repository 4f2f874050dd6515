"""A yes or a no said by echoing the question: "it didn't help" at "Did reinstalling the app help?".

`read_yes_no` reads a message on its own, so it settles only answers that open with a yes or a
no ("nope, still crashes"). People often answer a yes/no question with its own words instead:

- its auxiliary, with or without a negation: "it did", "it didn't", "it is not", "I haven't";
  counted only when nothing but the question's own words follows it in the clause ("it did
  crash again" at "Did reinstalling help?" says something else);
- a description of what the question asks about closed by a yes, with no negation in it: "there's
  a red mark next to it yeah" (not at an outcome question: "i reinstalled it yeah" says no outcome);
- for a question about an outcome (did it help, work, fix, solve?), any verb of outcome,
  negated or not: "tried that already, didnt help", "worked!", "that fixed it", "no luck";
  "still crashes", "same problem" say the outcome was none.

- at a question whether something was done ("Have you exported …?"), the thing said as already done:
  "already downloaded everything last night", "did that already";
- at a question asking "more than once", how many times: "twice" says yes, "only once" no.

A clause that says both ("it helped a bit but it still crashes") settles nothing: asked again.
"""

from __future__ import annotations

import re
from functools import cache

from engine.extract import fold
from engine.yesno import read_yes_no

_AUX = ("did", "does", "do", "is", "are", "was", "were", "has", "have", "had", "can", "could", "will", "would")
# the spellings of an auxiliary's negation: "didn't", "didnt", "did not", "won't", "can't"
_NEGATED = {"will": ("won't", "wont", "will not"), "can": ("can't", "cant", "cannot", "can not")}
# verbs that say whether something had the effect asked about
_OUTCOME = r"(?:help|work|fix|solv|resolv)\w*|sorted|did the trick|made (?:a|any|no) difference"
# a negation just before the outcome verb: "didnt help", "did not really help", "never worked"
_NOT = re.compile(
    r"\b(?:not|never|no longer|cannot|(?:did|does|do|is|are|was|were|has|have|had|could|would|should|wo|ca)n'?t)"
    r"\s+(?:\w+\s+)?$"
)
# a request or a question back, not an answer: "can you help me?"
_ASKS = re.compile(r"\?|\b(?:can|could|would) (?:you|u)\b|\b(?:please|pls|need|want|wanna|hope|wish)\b")
# "there's a red mark next to it yeah": a description closed by a yes, and no negation in it
_LAST_YES = re.compile(r"\b(?:yes|yeah|yep|yup)\W*$")
_ANY_NO = re.compile(r"\b(?:no|not|nope|nah|never|nothing|\w+n'?t)\b")
_CONTRACTED = {"it's": "it is", "that's": "that is", "there's": "there is", "i've": "i have", "they're": "they are"}
_NO_OUTCOME = re.compile(
    r"\b(?:still (?:\w+ing|crash\w*|broken|the same|happen\w*|there|(?:does|do|is|won'?t|doesn'?t|isn'?t|can'?t)\b)|"
    r"same (?:problem|issue|thing|error)|no (?:luck|change|difference|dice)|nothing changed|made no difference)"
)
# a thing already done, at a question whether it was done ("already downloaded everything" at "Have you
# exported ...?"): a yes, when nothing in the clause says no
_DONE_ALREADY = re.compile(
    r"^(?:(?:yes|yeah|yep|yup)\s+)?(?:i(?:'ve| have)?\s+)?(?:already\s+(?:\w+ed|did|done|have)\b"
    r"|(?:did|done) (?:that|it|this) already$)"
)
_DONE_ASKED = frozenset({"have", "has", "did"})
# how many times, against a question asking "more than once": "charged twice" says yes, "only once" no
_MORE_THAN_ONCE = re.compile(r"\bmore than (?:once|one time)\b")
_ONCE = re.compile(r"^(?:\w+\s+){0,3}?(?:only|just)?\s*(?:once|one time)\b")
_SEVERAL_TIMES = re.compile(r"\b(?:twice|two times|2 times|three times|3 times|\d+ times|several times|a few times)\b")
# words an echo may end on that add nothing: "it didn't help at all", "it did, thanks"
_FILLER = frozenset({"at", "all", "really", "though", "either", "unfortunately", "sadly", "thanks", "thank", "you",
                     "much", "a", "bit", "lol", "already", "honestly", "yet", "so", "far", "it", "that"})  # fmt: skip
# words any question and answer share: they name nothing the question asks about
_COMMON = frozenset({*_AUX, "the", "and", "you", "your", "for", "any", "that", "this", "with", "there", "yes",
                     "yeah", "yep", "yup", "its", "it's", "not", "but", "what", "which", "when", "how"})  # fmt: skip
_SUBJECT = r"(?:(?:yes|yeah|yep|no|nope|nah)\s+)?(?:it|that|this|i|they|he|she|we|you|there)?\s*"
# the auxiliary as the verb of a doing, its object after it: "did that already" says the thing was done,
# not that it helped ("it did" does)
_DOING = re.compile(r"\A\s*+(?:that|it|this|those|these|them|everything|all)\b")


@cache
def _reading(question: str) -> tuple[re.Pattern[str] | None, frozenset[str], bool]:
    """The question's auxiliary echo pattern, its own words, and whether it asks about an outcome."""
    q = fold(question)
    words = re.findall(r"[a-z']+", q)
    aux = words[0] if words and words[0] in _AUX else None
    pattern = None
    if aux is not None:
        negated = _NEGATED.get(aux, (f"{aux}n't", f"{aux}nt", f"{aux} not"))
        neg = "|".join(re.escape(n) for n in negated)
        pattern = re.compile(rf"^(?P<subject>{_SUBJECT})(?:(?P<no>{neg})|{aux})\b(?P<rest>.*)$")
    return pattern, frozenset(words), bool(re.search(rf"\b(?:{_OUTCOME})", q))


def _clauses(text: str) -> list[str]:
    t = re.sub(r"\b(?:it|that|there|i|they)'(?:s|ve|re)\b", lambda m: _CONTRACTED.get(m.group(), m.group()), fold(text))
    return [c.strip() for c in re.split(r"[,.;:!?]++|(?<!\s)\s++(?:but|and|though|however)\s++|\s-\s", t) if c.strip()]


def echoed(question: str, text: str) -> bool | None:
    """The yes or no `text` says by echoing `question`'s auxiliary or outcome verb; None when it says
    neither, or both."""
    pattern, own, outcome = _reading(question)
    folded = fold(text)
    if not outcome and _LAST_YES.search(folded) and not _ANY_NO.search(folded) and "?" not in folded:
        # a yes closing a description of what the question asks about ("a red thing ... yeah" at "a red
        # mark?"); at an outcome question, "i reinstalled it yeah" says what was done, not that it helped
        stems = {w[:4] for w in own if len(w) >= 3 and w not in _COMMON}
        if any(w[:4] in stems for w in re.findall(r"[a-z]{3,}", folded) if w not in _COMMON):
            return True
    said: set[bool] = set()
    q = fold(question)
    for clause in _clauses(text):
        if _MORE_THAN_ONCE.search(q) and (_ONCE.search(clause) or _SEVERAL_TIMES.search(clause)):
            said.add(_ONCE.search(clause) is None)
            continue
        # at an outcome question, what was done says nothing of the outcome ("already reinstalled it, did not help")
        done = not outcome and pattern is not None and q.split()[0] in _DONE_ASKED and _DONE_ALREADY.search(clause)
        if done and not _ANY_NO.search(clause):
            said.add(True)
            continue
        if pattern is not None and (m := pattern.match(clause)) is not None and not _DOING.match(m.group("rest")):
            rest = [w for w in re.findall(r"[a-z']+", m.group("rest")) if w not in _FILLER]
            if all(w in own for w in rest):
                said.add(m.group("no") is None)
                continue
        if not outcome or _ASKS.search(folded):
            continue
        if _NO_OUTCOME.search(clause):
            said.add(False)
            continue
        verb = re.search(rf"\b(?:{_OUTCOME})", clause)
        if verb is not None:
            said.add(not _NOT.search(clause[: verb.start()]))
    return said.pop() if len(said) == 1 else None


def read_yes_no_to(question: str, text: str) -> bool | None:
    """A yes or a no to `question`: said as one (`read_yes_no`), or by echoing the question's words. A name the
    question holds a "not" in ("Do Not Disturb") takes nothing back when the answer repeats it: "yes, do not
    disturb is on" is a yes."""
    said = read_yes_no(text)
    if said is None and (plain := _without_named_negations(question, text)) != text:
        said = read_yes_no(plain)
    return said if said is not None else echoed(question, text)


# a negation inside a name: the word, with a word of the question on each side ("do not disturb")
_NAMED_NEGATION = re.compile(r"\b(\w+) (not|no|don't|dont) (\w+)\b")


@cache
def _named_negations(question: str) -> tuple[str, ...]:
    """The names of `question` that hold a negation: three words of it, folded, the middle one a "not" ("do not
    disturb" in "Is a Focus mode (such as Do Not Disturb or Sleep) turned on?")."""
    return tuple(m.group(0) for m in _NAMED_NEGATION.finditer(fold(re.sub(r"[^\w\s']", " ", question))))


def _without_named_negations(question: str, text: str) -> str:
    """`text` (folded) with each negation-holding name of `question` it repeats said as "it"."""
    t = fold(text)
    for name in _named_negations(question):
        t = re.sub(rf"\b{re.escape(name)}\b", "it", t)
    return t if t != fold(text) else text
