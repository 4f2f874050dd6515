"""Reading what a user eats: the diet, with its exceptions kept beside it ("no red meat" is an
omnivore's exception, not a diet of its own; "flexitarian" is a vegetarian with exceptions), and
food allergies without their lead words ("lactose intolerant" -> "lactose").
"""

from __future__ import annotations

import re

from engine.extract import Invalid, Parser, choice, fold
from flows.fitness.readers import ACK, is_none, items, plain
from flows.fitness.words import any_of, no_some_meat, words

_DIETS: dict[str, list[str]] = {
        "omnivore": ["anything", "everything", "no restrictions", "normal", "regular", "omnivorous", "all of it",
                     "eat meat", "a bit of everything"],
        "vegetarian": ["veggie", "no meat"],
        "vegan": ["plant-based", "plant based"],
        "pescatarian": ["pescetarian", "fish but no meat", "no meat but fish"],
        "keto": ["ketogenic", "low carb", "low-carb"],
        "paleo": ["paleolithic"],
        "mediterranean": ["med diet"],
}  # fmt: skip
_DIET_WORDS = choice(_DIETS)
_DIET_NAMED = choice(_DIETS, fuzzy=False)


def _diet(text: str) -> object:
    t = fold(text)
    t = re.sub(r"\b(?:don'?t|do not|never) eat meat\b", "no meat", t)
    # "vegetarian, but I eat fish" is one diet with a name of its own
    t = re.sub(r"\bvegetarian\b[^.;!?]*\b(?:but|plus|and|also|except)\b[^.;!?]*\bfish\b", "pescatarian", t)
    for word, diet in words().flexible_diets.items():
        if re.search(any_of([word]), t):
            return diet
    # "no red meat", "anything but pork": leaving out one meat leaves an omnivore (its spelling is
    # not guessed: "no red meat" is close to "no meat")
    if no_some_meat().search(t):
        rest = no_some_meat().sub(" ", t)
        named = _DIET_NAMED(rest)
        return named if named is not None else "omnivore"
    return _DIET_WORDS(t)


def flexible(text: str) -> bool:
    """Whether `text` names a diet with exceptions by a word of its own ("flexitarian")."""
    return re.search(any_of(list(words().flexible_diets)), fold(text)) is not None


read_diet = Parser(_diet, "one of: omnivore, vegetarian, vegan, pescatarian, keto, paleo, mediterranean")
DIET_CUE = re.compile(
    r"\b(?:i'm|i am|i eat|i follow|i'm on|i am on|i went|i've gone|i have gone)\s+(?:a |an |the )?"
    r"(vegetarian|vegan|pescatarian|pescetarian|keto|paleo|mediterranean|veggie|plant[- ]based)\b"
)
_ALLERGY_CUE = re.compile(r"\b(?:i'm|i am) allergic to ([^.;!?]+)|\ballerg(?:y|ies) to ([^.;!?]+)")


def allergies_in(text: str) -> list[str] | None:
    m = _ALLERGY_CUE.search(fold(text))
    if not m:
        return None
    # the list ends where a new clause starts: "nuts and I prefer mornings" -> ["nuts"]
    listed = re.split(r"\s*(?:,|\band\b|\bbut\b)?\s*\b(?:i|i'm|i am|my|but|please)\b", m.group(1) or m.group(2))[0]
    return items(listed) or None


# the words around a food that say how it disagrees: "lactose intolerant", "allergic to peanuts"
_ALLERGY_WORDS = re.compile(
    r"^(?:i'm |i am |im )?(?:(?:allergic|intolerant|sensitive) to|an? (?:allergy|intolerance) to)\s+"
    r"|\s+(?:intolerant|intolerance|allergy|allergies|sensitivity|free)$"
)


def parse_allergies(text: str) -> object:
    """Allergies as a list ("nuts and shellfish" -> ["nuts", "shellfish"]); [] for none."""
    if is_none(text):
        return []
    if plain(text) in ACK:
        return Invalid("Which foods? For example “nuts, shellfish”, or say “none”.")
    listed = allergies_in(text) or items(text)
    foods = [_ALLERGY_WORDS.sub("", item).strip() for item in listed]
    return [f for f in foods if f] or None
