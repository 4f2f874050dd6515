"""Reading what a user eats: the diet, with its exceptions kept beside it ("no red meat" is an
omnivore's exception, not a diet of its own; "flexitarian" is a vegetarian with exceptions; a
vegetarian who eats fish is a pescatarian), and food allergies without their lead words
("lactose intolerant" -> "lactose").
"""

from __future__ import annotations

import re
from functools import cache

from pydantic import BaseModel, ConfigDict, TypeAdapter
from wordfreq import zipf_frequency

from engine.extract import Invalid, Parser, choice, fold
from engine.gloss import in_english
from engine.tables import alternation, and_words, i_am_words
from flows.fitness.profile import Diet
from flows.fitness.readers import acknowledges, is_none, items, only_none
from flows.fitness.words import (
    any_of,
    no_some_food,
    qualifier,
    refused_foods,
    whole_diet_negation,
    without_trailing_fillers,
    words,
)


class DietAnswer(BaseModel):
    """A diet answer as read: the diet, and whether the words say more than its name (they are
    then kept beside it, so a meal plan can honour "fish sometimes" or "no pork")."""

    model_config = ConfigDict(frozen=True)
    diet: Diet
    qualified: bool


_DIET: TypeAdapter[Diet] = TypeAdapter(Diet)


def _diet_table() -> dict[str, tuple[str, ...]]:
    return {str(diet): names for diet, names in words().diets.items()}


@cache
def _diet_words() -> Parser:
    return choice(_diet_table())


@cache
def _diet_named() -> Parser:
    # out of a restriction's remainder a diet is named, never guessed: "no red meat" is close to "no meat"
    return choice(_diet_table(), fuzzy=False)


def _named(t: str) -> object:
    """The diet `t` names, before what else it says is eaten is weighed."""
    if excluded(t):
        return None  # "no dairy for me", "kein Zucker": what is not eaten, no diet (nor pescatarian for "no fish")
    for word, diet in words().flexible_diets.items():
        if re.search(any_of([word]), t):
            return diet
    if no_some_food().search(t):
        if _refuses_meat(t):  # "no dairy or meat": the meat in the list makes it vegetarian
            return "vegetarian"
        rest = no_some_food().sub(" ", t)
        named = _diet_named()(rest)
        return named if named is not None else "omnivore"
    return _diet_words()(t)


# Leaving out a food in the six languages ("no dairy", "sin lácteos", "kein Zucker", "pas de gluten", "senza
# glutine", "sem açúcar"), said alone, maybe "for me": what is not eaten. Unless the food is meat of some kind ("no
# red meat", "no pork": the rest of meat is eaten, an omnivore's exception), it says nothing of a diet: meat, fish,
# everything else may be eaten or not, so the diet is asked with the exclusion kept beside it
_LEAVING_OUT = r"(?:no|without|zero|sin|nada de|sans|pas de|pas d'|kein|keine|keinen|ohne|senza|niente|sem|nada de)"
_FOR_ME = r"(?:\s+(?:for me|please|thanks|para mi|pour moi|fur mich|per me|para mim|bitte|por favor|merci|grazie))*"


# sugar, which no allergy table holds, in the six languages
_SUGAR = ("sugar", "azucar", "sucre", "zucker", "zucchero", "acucar")


@cache
def _exclusion() -> re.Pattern[str]:
    named = {fold(n) for names in FOODS.values() for n in names} | {
        fold(f) for f in (*words().some_foods, *words().animal_products, *words().fish_foods, *_SUGAR)
    }
    foods = any_of(sorted(named - {fold(f) for f in words().meat_foods}, key=len, reverse=True))
    one = rf"(?:{_LEAVING_OUT}\s+(?:any\s+)?{foods}|{foods}[- ]free)"
    # a list of foods left out is joined as any list is, or by the negative "nor" of each language ("sin gluten
    # ni lácteos", "no dairy nor sugar", "kein Zucker noch Milch"; accents are folded: "né" is "ne")
    joined = (
        r"\s*(?:,|\band\b|\bor\b|\by\b|\bund\b|\bet\b|\be\b|\bo\b|\bou\b|\boder\b"
        r"|\bnor\b|\bni\b|\bnoch\b|\bne\b|\bnem\b)\s*"
    )
    # or the list opens with the first half of its "neither ... nor" ("neither dairy nor sugar", "weder Zucker noch
    # Milch", "ni gluten ni lácteos", "né glutine né lattosio", "nem glúten nem lactose"): left out only when the
    # list goes on, since "ne"/"ni" alone are other words
    neither = rf"(?:neither|weder|ni|ne|nem)\s+{foods}(?={joined}{foods})"
    # French repeats its partitive after "ni" ("pas de gluten ni de lactose")
    return re.compile(rf"(?:{one}|{neither})(?:{joined}(?:{one}|(?:de\s+|d')?{foods}))*{_FOR_ME}")


def excluded(text: str) -> bool:
    """Whether `text` only says which foods, none of them meat, are not eaten ("no dairy for me", "no sugar",
    "sin lácteos", "kein Zucker", "no fish"): an exclusion, no diet."""
    return _exclusion().fullmatch(fold(text).strip(" .!")) is not None


def _refuses_meat(t: str) -> bool:
    """Whether a refusal's list holds meat as such, not just some meats ("no dairy or meat")."""
    some = re.compile(any_of(words().some_foods))
    return any(re.search(any_of(["meat"]), some.sub(" ", m.group())) for m in refused_foods().finditer(t))


def _eaten(t: str, foods: tuple[str, ...]) -> bool:
    """Whether `t` says one of `foods` is eaten: named, and not in a refusal's list ("no meat or fish")."""
    kept = refused_foods().sub(" ", t)
    return re.search(any_of(foods), kept) is not None


def _beside(diet: Diet, t: str) -> Diet:
    """`diet` as what else `t` says is eaten makes it: a plant-based diet with fish is pescatarian,
    with meat now and then flexitarian (vegetarian), with meat as a rule omnivore, a vegan one
    with eggs or dairy vegetarian."""
    if diet not in ("vegetarian", "vegan"):
        return diet
    if _eaten(t, words().meat_foods):
        return "vegetarian" if re.search(any_of(words().now_and_then), t) else "omnivore"
    if _eaten(t, words().fish_foods):
        return "pescatarian"
    if diet == "vegan" and _eaten(t, words().animal_products):
        return "vegetarian"
    return diet


def diet_answer(text: str, named: Diet | None = None) -> DietAnswer | Invalid | None:
    """The diet `text` gives (or `named`, a diet said out of turn, as the rest of `text` makes it);
    Invalid when it asks back; None when it names none."""
    return _answer(fold(text), named)


def _answer(t: str, named: Diet | None) -> DietAnswer | Invalid | None:
    said = named if named is not None else _named(t)
    if isinstance(said, Invalid):
        return said
    if said is None:
        if _eaten(t, words().meat_foods):
            return DietAnswer(diet="omnivore", qualified=True)
        if _eaten(t, words().fish_foods):
            # fish alone does not say whether meat is eaten too: that is the whole difference
            # (a yes takes the suggestion; "no, meat too" is read as an omnivore's answer)
            return Invalid("You eat fish: and no meat, so pescatarian? Or meat too?", suggestion="pescatarian")
        return None
    diet = _DIET.validate_python(said)
    eats = _beside(diet, t)
    return DietAnswer(diet=eats, qualified=eats != diet or says_more(t))


def says_more(text: str) -> bool:
    """Whether a diet answer says more than a diet's name: an exception, a hedge, a restriction."""
    t = whole_diet_negation().sub(" ", fold(text))
    return qualifier().search(t) is not None or flexible(t) or no_some_food().search(t) is not None


def _diet(text: str) -> object:
    found = diet_answer(text)
    if found is None and excluded(text):
        # what is left out is kept (`diet_said`); the diet is still to say
        return Invalid("Noted, I'll leave that out of your meals. And apart from it?")
    return found.diet if isinstance(found, DietAnswer) else found


def flexible(text: str) -> bool:
    """Whether `text` names a diet with exceptions by a word of its own ("flexitarian")."""
    return re.search(any_of(list(words().flexible_diets)), fold(text)) is not None


# the diets' names in six languages, so that one typed a letter off reads as the diet ("vegnao" is "vegano")
read_diet = Parser(
    _diet,
    "one of: omnivore, vegetarian, vegan, pescatarian, keto, paleo, mediterranean",
    known=frozenset(w for names in _diet_table().values() for name in names for w in name.split()),
)
DIET_CUE = re.compile(
    r"\b(?:i'm|i am|i eat|i follow|i'm on|i am on|i went|i've gone|i have gone)\s+(?:a |an |the )?"
    r"(vegetarian|vegan|pescatarian|pescetarian|keto|paleo|mediterranean|veggie|plant[- ]based)\b"
)
_ALLERGY_CUE = re.compile(r"\b(?:i'm|i am) allergic to ([^.;!?]+)|\ballerg(?:y|ies) to ([^.;!?]+)")
# the same said in another language, as the glossary writes it: "soy alérgico al maní" -> "soy allergic to maní"
_ALLERGY_OPENS = re.compile(r"^(?:\w+\s+){0,2}allergic to ([^.;!?]+)")


_CLAUSE_START = re.compile(r"(?<!\s)\s*+(?:,|\band\b|\bbut\b)?\s*+\b(?:i|i'm|i am|my|but|please)\b")


# the foods people cannot eat, as the allergies are kept, by what they are called in six languages
FOODS: dict[str, tuple[str, ...]] = {
    # coeliac disease is an intolerance of gluten ("soy celíaca", "ich habe Zöliakie")
    "gluten": ("gluten", "glúten", "glutine", "wheat", "trigo", "weizen", "blé", "frumento", "celiac", "coeliac",
               "celíaca", "celíaco", "celiaca", "celiaco", "cœliaque", "coeliaque", "zöliakie"),
    "lactose": ("lactose", "laktose", "lactosa", "lattosio", "dairy", "milk", "lácteos", "laticínios", "latticini",
                "produits laitiers", "milchprodukte"),
    "nuts": ("nuts", "nut", "nüsse", "nuss", "nueces", "noci", "nozes", "tree nuts", "frutos secos", "frutta secca",
             "frutta a guscio", "fruits à coque", "schalenfrüchte", "frutos de casca rija", "castanhas", "noix"),
    "peanuts": ("peanuts", "peanut", "erdnüsse", "cacahuetes", "maní", "arachidi", "amendoim", "cacahuètes"),
    "shellfish": ("shellfish", "shrimp", "shrimps", "prawns", "mariscos", "crustacés", "frutti di mare",
                  "fruits de mer", "meeresfrüchte", "frutos do mar", "marisco", "camarones", "gambas",
                  "crevettes", "garnelen", "gamberi", "camarão", "camarões"),
    "eggs": ("eggs", "egg", "eier", "huevos", "uova", "ovos", "œufs", "oeufs"),
    "soy": ("soy", "soja", "soia"),
    "fish": ("fish", "pescado", "poisson", "fisch", "pesce", "peixe"),
}  # fmt: skip


def allergies_in(text: str) -> list[str] | None:
    m = _ALLERGY_CUE.search(fold(text))
    if not m:
        return None
    # the list ends where a new clause starts: "nuts and I prefer mornings" -> ["nuts"]
    listed = re.split(_CLAUSE_START, m.group(1) or m.group(2))[0]
    return items(listed) or None


# the words around a food that say how it disagrees: "lactose intolerant", "allergic to peanuts",
# and the "I'm" before either ("I'm lactose intolerant and allergic to peanuts")
_ALLERGY_WORDS = re.compile(
    r"^(?:i'm |i am |im )?(?:(?:allergic|intolerant|sensitive) to|an? (?:allergy|intolerance) to)\s+"
    r"|^(?:i'm|i am|im)\s+|(?<!\s)\s++(?:intolerant|intolerance|allergy|allergies|sensitivity|free)$"
)


# the foods' names in six languages, so that one typed a letter off reads as the food ("penuts", "lactsa")
FOOD_WORDS = frozenset(w for names in FOODS.values() for name in names for w in name.split())


def parse_allergies(text: str) -> object:
    """Allergies as a list ("nuts and shellfish" -> ["nuts", "shellfish"]); [] for none."""
    if is_none(text):
        return []
    if acknowledges(text):
        return Invalid("Which foods? For example “nuts, shellfish”, or say “none”.")
    # "lactose intolerant, that's it": the words closing the list are no food
    if only_none(without_trailing_fillers(text)):
        return []  # "não, nenhuma": a no and a none
    # the allergy said in the user's language ("soy alérgico al maní": "allergic to" in English)
    listed = allergies_in(text) or _abroad(text) or items(without_trailing_fillers(text))
    foods = [_known_food(_ALLERGY_WORDS.sub("", piece).strip()) for item in listed for piece in _and_split(item)]
    return [f for f in foods if f] or None


def _abroad(text: str) -> list[str] | None:
    """The foods after "allergic to" said in another language at the start of the answer."""
    english = in_english(text)
    m = _ALLERGY_OPENS.search(fold(english)) if english != text else None
    return (items(re.split(_CLAUSE_START, m.group(1))[0]) or None) if m else None


# "and" of the six languages (engine/data/and.yaml: the glossary leaves "e" out, "é" folds to it); a run of spaces
# taken from its first, possessively: tried at each space of a long run it was quadratic
_AND = re.compile(rf"(?<!\s)\s++{alternation(and_words().all())}\s++")


def _and_split(item: str) -> list[str]:
    """`item` as the foods it joins with another language's "and" ("noci e arachidi"), when each is one
    the table knows; as it is otherwise."""
    pieces = _AND.split(item)
    if len(pieces) > 1 and all(
        _known_food(p) != p or zipf_frequency(p, "en", wordlist="small") >= _ENGLISH_WORD for p in pieces
    ):
        return pieces
    return [item]


def _known_food(item: str) -> str:
    """A food by the name the allergies are kept under, when it is one said in another language ("Nüsse" ->
    "nuts"); anything else as listed (an allergy the table does not know is still one)."""
    folded = fold(item)
    # a name the table writes with accents is no English word, whatever its letters spell folded ("maní")
    foreign = next((f for f, names in FOODS.items() if any(fold(n) == folded != n for n in names)), None)
    if foreign is not None:
        return foreign
    if zipf_frequency(folded, "en", wordlist="small") >= _ENGLISH_WORD:
        return item  # an English name is kept as said ("milk" stays milk, not lactose)
    found = _food_named(folded)
    if found is None:
        # "soy celíaca", "ich bin laktoseintolerant", "Laktoseintoleranz": the food inside what the user says they are
        bare = _COMPOUND.sub("", _I_AM.sub("", folded))
        found = _food_named(bare) if bare != folded else None
    return found or item


def _food_named(folded: str) -> str | None:
    return next((food for food, names in FOODS.items() if any(fold(n) == folded for n in names)), None)


# "I am" (engine/data/i_am.yaml) or German's "I have" before a food or a condition ("soy" alone is the food)
_I_AM = re.compile(rf"^{alternation([*i_am_words().all(), 'ich habe'])}\s+(?=\w)")
# German runs the food and the disagreement into one word ("Laktoseintoleranz", "Nussallergie")
_COMPOUND = re.compile(r"(?<=\w)(?:intoleranz|intolerant|allergie|allergisch|unvertraglichkeit)$")


# how often a word is used in English (wordfreq's zipf scale) to be an English word ("milk" 5.2, "nusse" 0)
_ENGLISH_WORD = 3.0
