"""Reading fitness answers as people type them: levels, limitations, goals, weights, days,
minutes, equipment, diets, allergies, times of day and weekdays.

Each reader returns the value, None when it cannot tell (a model may try), or `Invalid`
with what to fix; none of them knows the flow's slots.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from wordfreq import zipf_frequency

from engine.cues import Glossary
from engine.extract import (
    EMPTY,
    RULED_OUT_CUES,
    Invalid,
    Parser,
    bounded,
    choice,
    declines,
    fold,
    free_text,
    integer,
    numbers,
    said_number,
)
from engine.weekdays import day_set
from engine.yesno import hedged, read_yes_no
from flows.fitness.profile import WEEKDAYS, Goal, Weekday
from flows.fitness.weights import unit_alone, wanted_change, weigh, with_digits
from flows.fitness.words import any_of, comment_edges, refusal, words

# -- parsers ------------------------------------------------------------------------------

# "No" in its many forms, with what it is about and the politeness around it:
# "none", "nope, none, thanks", "no injuries at all", "not that I know of", "I'm healthy".
_NONE_WORDS = (
    r"(?:no|none|nope|nah|nothing|zero|n/?a|not really|not any|all good|i'?m (?:fine|good|healthy|ok|okay)"
    r"|healthy|not that i know of|(?:i )?don'?t have (?:any|one)|i have none|no thanks)"
)
_NONE_ANSWER = re.compile(
    rf"(?:{_NONE_WORDS}(?: (?:injur(?:y|ies)|limitations?|problems?|issues?|food|allerg(?:y|ies)|intolerances?"
    rf"|target|equipment|at all|really|whatsoever))* ?)+"
)
_POLITE = re.compile(r"\b(?:thanks|thank you|thx|please|so far|i think)\b|[^\w\s'/]")
# Bare acknowledgements that answer "do you have any ...?" without saying what.
ACK = frozenset({"yes", "yeah", "yep", "yup", "y", "sure", "ok", "okay", "k", "some", "a few", "a couple"})


def plain(text: str) -> str:
    """Folded, punctuation and politeness removed: what an answer says."""
    return " ".join(_POLITE.sub(" ", fold(text)).split())


def is_none(text: str) -> bool:
    t = plain(text)
    if _NONE_ANSWER.fullmatch(t) is not None or re.fullmatch(any_of(words().none_words), t) is not None:
        return True
    if declines(t):
        return True  # the engine's none in six languages ("nenhuma alergia", "pas d'allergie", "keine Verletzungen")
    # a bare no of any language the engine's yes/no reader knows ("nein", "não"): none
    if " " not in t:
        return read_yes_no(text) is False
    # and such a no before a none ("não, nenhuma", "nein, keine", "no, nada")
    head, rest = t.split(" ", 1)
    return read_yes_no(head) is False and is_none(rest)


def acknowledges(text: str) -> bool:
    """A yes that names nothing ("yes", "some", and "ja", "oui", "sim" of the engine's yes/no reader):
    which ones is still to be asked, never the words themselves as the answer."""
    t = plain(text)
    return t in ACK or (" " not in t and read_yes_no(text) is True)


_LEVEL_WORDS = choice(
    {
        "beginner": ["novice", "newbie", "new to this", "just starting", "starting out", "unfit", "out of shape",
                     "couch potato", "sedentary"],
        "intermediate": ["medium", "average", "moderate", "somewhat fit", "in between", "okay shape", "fairly fit",
                         "pretty fit", "quite fit", "reasonably fit", "decent shape", "good shape"],
        "advanced": ["expert", "very fit", "athlete", "experienced", "pro", "great shape", "competitive"],
    },
    fuzzy=False,
)  # fmt: skip
# Only the three level words are corrected for spelling ("intermidiate"): a fuzzy match of a
# description ("pretty fit" ~ "very fit") would be a guess.
_LEVEL_TYPOS = choice({"beginner": [], "intermediate": [], "advanced": []}, cutoff=0.8)


# A beginner told by experience, not by a level word: never having trained, or not for years
# ("never really did before", "haven't worked out in ages"). Years of training say no level: asked.
_WORKED_OUT = (
    r"(?:work(?:ed)? out|trained|exercised|lifted|(?:been|gone) to (?:a|the) gym|done (?:any )?sports?"
    r"|(?:set foot|been) in (?:a|the) gym|stepped (?:in|into) (?:a|the) gym|done any (?:exercise|training|workouts?))"
)
# a long time: years (said with a number or not), ages, a long while, forever; not weeks or months
_LONG = (
    r"(?:(?:like |about |around |over |almost |nearly |more than |at least )?(?:\w+ )?years?"
    r"|ages|a (?:long )?(?:time|while)|forever|decades?)"
)
NEW_TO_IT = re.compile(
    rf"\bnever (?:really |properly |seriously |ever )?(?:{_WORKED_OUT}|did (?:it |this |that |any |much )?before|"
    rf"done (?:it |this |that |any |much )?before)|\bfirst time (?:working out|training|exercising|at (?:a|the) gym)\b|"
    rf"\b(?:haven'?t|have not|hadn'?t) (?:really |properly |even )?{_WORKED_OUT} (?:in|for|since) {_LONG}|"
    rf"\b(?:years|ages) since i (?:last )?{_WORKED_OUT}"
)


# what fitness users say in their own language that these readers look for in English
ABROAD = Glossary(Path(__file__).parent / "data" / "abroad.yaml", "fitness phrases abroad")


def new_to_it(text: str) -> bool:
    """Never having trained, or not for years, in any of six languages ("nunca he hecho ejercicio")."""
    return _new_to_it(plain(text), text)


def _new_to_it(said: str, text: str) -> bool:
    """`new_to_it(text)`, with `said`, the plain words of `text`, made once by the caller."""
    if NEW_TO_IT.search(said):
        return True
    english = ABROAD.in_english(text)
    # no phrase of another language in it: its English is the words just read, not folded and searched again
    return english != text and NEW_TO_IT.search(plain(english)) is not None


def _level(text: str) -> object:
    said = plain(text)  # folded once: the level words and the never-trained reader both read it
    # a negated description says the opposite: "not very fit" is no expert; "not a pro" says nothing
    t = re.sub(r"\bnot (?:very |that |really |so |particularly |super )?(?:fit|sporty|active|athletic|in shape)\b",
               "unfit", said)  # fmt: skip
    t = re.sub(r"\bnot (?:an? )?(?:pro|expert|athlete|advanced|beginner|newbie|novice)\b", "", t)
    found = _LEVEL_WORDS(t)
    # never having trained says beginner whatever level word is beside it; a level word that says beginner
    # ("beginner", "newbie": most answers) needs no asking whether the user never trained (nor the glossary)
    if found == "beginner" or _new_to_it(said, text):
        return "beginner"
    return found if found is not None else _LEVEL_TYPOS(t)


read_level = Parser(_level, "one of: beginner, intermediate, advanced")


_GOALS: dict[str, list[str]] = {
        "fat_loss": ["fat loss", "lose weight", "weight loss", "lose fat", "burn fat", "slim down", "get lean", "cut",
                     "belly fat", "lose some weight", "drop weight", "drop some weight", "slim", "slimmer",
                     "lose a few kilos", "lose a few pounds", "drop fat", "shed fat", "shed weight",
                     "shed pounds", "shed some pounds", "get rid of fat", "reduce fat", "lose body fat",
                     "shredded", "get shredded", "shred", "cutting", "lean out", "leaner", "lose my belly",
                     "lose the belly", "lose my gut", "beer belly"],
        "muscle_gain": ["muscle gain", "build muscle", "gain muscle", "bulk", "bulk up", "get stronger", "strength",
                        "muscle", "muscles", "tone", "tone up", "toned", "get toned", "get bigger"],
        "endurance": ["stamina", "cardio", "run a marathon", "marathon", "half marathon", "run longer", "triathlon",
                      "running", "run faster", "5k", "10k", "cycling"],
        "general_health": ["general health", "health", "stay healthy", "be healthier", "feel better", "get fit",
                           "healthier", "wellbeing", "well-being", "fitness", "get fitter", "fitter",
                           "get in shape", "in shape", "back in shape", "get back in shape"],
}  # fmt: skip
# what the goals are called in the other languages users answer in (engine/gloss.py keeps to generic words)
_GOALS_ABROAD: dict[str, list[str]] = {
        "fat_loss": ["perder peso", "bajar de peso", "adelgazar", "perder grasa", "perdre du poids", "maigrir",
                     "perdre de la graisse", "abnehmen", "gewicht verlieren", "fett verlieren", "perdere peso",
                     "dimagrire", "emagrecer", "perder gordura", "quemar grasa", "mincir", "kilos verlieren",
                     "fett abbauen", "schlanker werden", "perdere grasso", "bruciare grassi", "queimar gordura"],
        "muscle_gain": ["ganar musculo", "ganar masa muscular", "prendre du muscle", "prise de masse",
                        "masse musculaire", "muskelaufbau", "muskeln aufbauen", "muskeln", "massa muscolare",
                        "aumentare la massa", "ganhar musculo", "ganhar massa", "hipertrofia",
                        # putting on mass, as people say it ("mettere su massa", "fare massa", "ganar masa")
                        "mettere su massa", "mettere massa", "fare massa", "ganar masa", "prendre de la masse",
                        "masse aufbauen", "ganhar volume"],
        "endurance": ["resistencia", "ausdauer", "resistenza", "kondition", "correr", "courir", "correre"],
        "general_health": ["salud", "sante", "gesundheit", "salute", "saude", "ponerme en forma", "estar en forma",
                           "etre en forme", "fit werden", "fitter werden", "stare in forma", "ficar em forma",
                           "gesund bleiben", "rester en forme", "rimettermi in forma"],
}  # fmt: skip
_GOALS = {goal: [*names, *_GOALS_ABROAD.get(goal, [])] for goal, names in _GOALS.items()}
_GOAL_WORDS = choice(_GOALS)
# out of turn a goal is named, never guessed from a spelling ("drop to 11 stone" ~ "tone")
_GOAL_NAMED = choice(_GOALS, fuzzy=False)
# the engine's words that rule out what follows ("not", "i dont want to", "rather than", in six languages)
_RULED_OUT = re.compile(rf"(?<![\w'])(?:{RULED_OUT_CUES})\s+[^,;.!?]*")


def _by_amount(text: str) -> Goal | None:
    """Losing or gaining an amount of weight names the goal ("want to lose about 5 kg", "drop 10 lbs")."""
    change = wanted_change(text)
    return "fat_loss" if change < 0 else "muscle_gain" if change > 0 else None


def without_ruled_out(text: str) -> str:
    """`text` folded, without what the user rules out: "not lose weight, build muscle" is "build
    muscle"; "i dont want to bulk" says no goal."""
    return _RULED_OUT.sub(" ", fold(text))


def _goal(text: str) -> object:
    t = without_ruled_out(text)
    found = _GOAL_WORDS(t)
    return found if found is not None else _by_amount(t)


def goal_named(text: str) -> object:
    """The goal `text` names by one of its words, without spelling guesses."""
    t = without_ruled_out(text)
    found = _GOAL_NAMED(t)
    return found if found is not None else _by_amount(t)


read_goal = Parser(_goal, "one of: fat loss, muscle gain, endurance, general health")
GOAL_NAMES: dict[Goal, str] = {
    "fat_loss": "fat loss",
    "muscle_gain": "muscle gain",
    "endurance": "endurance",
    "general_health": "general health",
}

_NO_TARGET = re.compile(
    r"\bno (?:target|goal weight)\b|\bdon'?t have (?:one|a target)\b|\bmaintain\b|\bkeep (?:my|the same) weight\b"
    r"|\bstay (?:the same|as i am)\b"
)
WEIGHT_EXPECTS = "a weight with its unit (72 kg or 160 lb), or “none”"


def parse_weight(text: str, known_unit: str | None = None) -> object:
    """The target weight in kilograms ("72 kg", "160 lb", "11 stone"), EMPTY for no target, or a reason.

    Of several weights the one marked as the target wins ("I weigh 90 kg and want to get to
    80" -> 80, in the unit of the 90); a current weight alone, an amount to lose or a number
    without a unit is asked about again rather than guessed, unless the user wrote an earlier
    weight with one (`known_unit`: "I weigh 200 lbs", then "180").
    """
    if is_none(text):
        return EMPTY
    # no unit said nor known: the one the numbers can only be in ("88": kg), said back with it
    found = weigh(text, known_unit or unit_alone(text))
    if not found.mentions:
        t = fold(text)
        # the target is optional: a refusal is no target, as "none" is
        if _NO_TARGET.search(t) or refusal().search(t):
            return EMPTY
        if not numbers(with_digits(text)):
            said = read_yes_no(text)
            if said is False:  # "not yet", "nope, not really"
                return EMPTY
            if said is True and not hedged(text):  # "i guess so": a yes that says no weight
                return Invalid("What weight would you like to reach? For example “72 kg” or “160 lb”.")
            return None  # "yes but not sure": cannot decide; asked again (a model may read it)
        if numbers(with_digits(text)):
            return Invalid("Please add the unit, kg or lb (for example “72 kg” or “160 lb”).")
        return None
    target = found.target
    if target is None:
        unmarked = found.of("unmarked")
        if len(unmarked) > 1:
            return Invalid("I read more than one weight there. Which one is your target? For example “72 kg”.")
        if not unmarked:
            if found.relative_verb:
                return Invalid(
                    f"That's how much to {found.relative_verb}. What weight would you like to reach? "
                    "For example “72 kg” or “160 lb”."
                )
            return Invalid("That sounds like your current weight. What's your target? For example “72 kg”, or “none”.")
        target = unmarked[0]
    if not 30 <= target.kg <= 300:
        converted = "" if target.unit.startswith("k") else f"{target.kg} kg, "
        return Invalid(f"{target.written} is {converted}outside 30-300 kg. Please check the number and unit.")
    return target.kg


_DAYS_CUE = re.compile(
    r"\b(\d|one|two|three|four|five|six|seven)\s*(?:days?|times?|x)\s*(?:a|per|each|/|every|in a)\s*week\b"
    r"|\b(once|twice)\s+(?:a|per|each|every)\s+week\b|\b(every ?day|daily|each day)\b"
)
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "once": 1, "twice": 2}


def days_in(text: str) -> int | None:
    """Days a week a sentence states: "3 times a week", "twice a week", "every day", "every day
    except sunday" (6)."""
    m = _DAYS_CUE.search(fold(text))
    if m is None:
        return None
    if m.group(3):
        return len(day_set(fold(text)).days) or 7  # "every day except sunday": the days left
    word = m.group(1) or m.group(2)
    cued = _WORD_NUMBERS.get(word) or int(word)
    # "three, maybe four days a week": the cue's number may be the one hedged; the engine reads the number said
    said = said_number(text)
    return int(said[0]) if len(said) == 1 and said[0] != cued and said[0] in range(1, 8) else cued


def days_per_week_rule(text: str) -> object:
    found = days_in(text)
    if found is not None:
        return found
    if m := re.fullmatch(r"(\d)\s*x", fold(text).strip(" .!")):  # "3x"
        return integer(1, 7, "days a week")(m.group(1))
    return integer(1, 7, "days a week")(text)


def days_named(text: str) -> int | None:
    """How many weekdays a message with no number names: "mon wed fri" to "how many days a week?" is 3,
    "weekends only" 2; a choice between them ("mon or tue") names none. Only at that question: a change
    of the days named later changes which days, not how many (the correction reader keeps them apart)."""
    if re.search(r"\d", text):
        return None
    return len(named) if (named := weekdays_said(text)) else None


_MINUTES_CUE = re.compile(r"\b(\d{1,3})\s*(?:min|mins|minutes)\b")
_HOURS_CUE = re.compile(
    r"\b(?:((?:an? )?half(?: an)?[ -]?hour)|(?:an? )?(hour and a half)|(an hour)|(\d(?:[.,]\d+)?)\s*(?:h|hrs?|hours?)"
    r"(?:\s*(?:and\s*)?(\d{1,2})\s*(?:m|min|mins|minutes)\b|(\d{2}))?)(?!\w)"
)


def minutes_in(text: str) -> int | None:
    """Minutes a sentence states: "45 minutes", "an hour", "1 hr 30 min", "an hour and a half"; the first
    length said that is not only the most it may be ("45 minutes, an hour max": 45)."""
    t = fold(with_digits(text))
    said: list[tuple[int, int, int]] = []  # (where, minutes, where it ends)
    for m in _HOURS_CUE.finditer(t):
        if m.group(1):
            minutes = 30
        elif m.group(2):
            minutes = 90
        elif m.group(3):
            minutes = 60
        else:
            minutes = round(float(m.group(4).replace(",", ".")) * 60) + int(m.group(5) or m.group(6) or 0)
        said.append((m.start(), minutes, m.end()))
    taken = [(a, b) for a, _, b in said]
    for m in _MINUTES_CUE.finditer(t):
        if not any(a <= m.start() < b for a, b in taken):
            said.append((m.start(), int(m.group(1)), m.end()))
    said.sort()
    free = [
        minutes
        for start, minutes, end in said
        # a length said as the most it may be ("an hour max", "up to 60 min"): the answer only when it is alone
        if not bounded(t, start, end)
    ]
    if free:
        return free[0]
    return said[0][1] if said else None


def parse_minutes(text: str) -> object:
    found = minutes_in(text)
    return found if found is not None else integer(10, 240, "minutes")(fold(with_digits(text)))


EQUIPMENT: dict[str, tuple[str, ...]] = {
    # with what they are called in the other languages users answer in (the flow's own vocabulary)
    "dumbbells": (
        "dumbbell",
        "dumbbells",
        "free weights",
        "weights",
        "mancuernas",
        "halteres",
        "hanteln",
        "manubri",
        "kurzhanteln",
        "pesas",
    ),
    "barbell": ("barbell", "barbells", "langhantel", "bilanciere"),
    "kettlebell": ("kettlebell", "kettlebells", "kugelhantel"),
    "resistance bands": (
        "band",
        "bands",
        "resistance band",
        "resistance bands",
        "bandas elasticas",
        "bandas",
        "elastiques",
        "elastico",
        "elasticos",
        "elastici",
        "widerstandsbander",
        "fitnessbander",
    ),
    "pull-up bar": (
        "pull-up bar",
        "pullup bar",
        "pull up bar",
        "chin-up bar",
        "chin up bar",
        "klimmzugstange",
        "barra de dominadas",
        "barre de traction",
    ),
    "bench": ("bench", "hantelbank", "trainingsbank", "banco", "panca", "banc", "banc de musculation"),
    "treadmill": ("treadmill", "laufband", "cinta de correr", "tapis de course", "tapis roulant", "esteira"),
    "exercise bike": ("bike", "stationary bike", "exercise bike", "spin bike", "heimtrainer", "cyclette"),
    "rowing machine": ("rower", "rowing machine", "rudergerat", "rameur", "vogatore"),
    "yoga mat": (
        "mat",
        "yoga mat",
        "esterilla",
        "colchoneta",
        "tapis",
        "matte",
        "yogamatte",
        "tappetino",
        "tapete",
        "gymnastikmatte",
    ),
    "jump rope": ("jump rope", "skipping rope", "springseil", "comba", "corde a sauter"),
    "squat rack": ("rack", "squat rack", "power rack"),
    "suspension trainer": ("trx", "suspension trainer", "suspension straps"),
    # a gym at home or in the building is its equipment, not a full gym ("home gym w/ barbell")
    "home gym": ("home gym", "garage gym", "apartment gym", "building gym"),
    "full gym": ("gym", "gym membership", "fitness studio", "fitnessstudio", "gimnasio", "salle de sport", "palestra"),
}
# how often an English word is used (wordfreq's zipf scale) to be a word and not a misspelt name
_A_WORD = 3.0
_EQUIPMENT_WORDS = {w: name for name, words in EQUIPMENT.items() for w in words if " " not in w and len(w) >= 5}
_BODYWEIGHT = re.compile(
    r"\b(?:bodyweight|body weight|just my body|no equipment|nothing"
    # the body alone, in the other languages users answer in ("solo mi cuerpo", "Eigengewicht", "corpo libero")
    r"|(?:solo|so|nur|juste|seulement) (?:mi|mon|mein|meinen|meu|o meu|il mio) (?:cuerpo|corps|korper|corpo)"
    r"|peso corporal|propio peso|poids du corps|poids de corps|eigengewicht|korpergewicht|corpo libero)\b"
)
_NEGATED = re.compile(r"\b(?:no|not|without|don't have|do not have)\s+(?:an?\s+|any\s+)?(?:\w+\s+)?$")


def items(text: str) -> list[str]:
    """The items a list names, each without the comment around it ("lactose, sadly" -> ["lactose"])."""
    kept = _parts(text)
    # a none in the list is no item of it: a bare no before the items, a none closing them ("lactose, sonst nichts"
    # once the none reads as one, "não, nenhuma")
    return [p for p in kept if not is_none(p)][:8]


def only_none(text: str) -> bool:
    """Whether a list says only that there is none, in pieces ("não, nenhuma"): [] where `items` finds nothing."""
    kept = _parts(text)
    return bool(kept) and all(is_none(p) for p in kept)


def _parts(text: str) -> list[str]:
    parts = re.split(r",|;|/|\band\b|\bplus\b|&|\+", fold(text).strip(" .!"))
    kept = (comment_edges().sub("", p.strip()).strip() for p in parts)
    return [p for p in kept if p]


_EQUIPMENT_PHRASES = sorted((w for words in EQUIPMENT.values() for w in words), key=len, reverse=True)


def _inside_longer(word: str, at: int, t: str) -> bool:
    """Whether `word` at `at` is part of a longer equipment name written there."""
    for longer in _EQUIPMENT_PHRASES:
        if len(longer) > len(word) and word in longer:
            start = t.rfind(longer, 0, at + len(longer))
            if start != -1 and start <= at and at + len(word) <= start + len(longer):
                return True
    return False


def parse_equipment(text: str) -> object:
    """Known equipment by name ("a pair of dumbbells" -> dumbbells); [] for none; anything else as listed."""
    t = fold(text)
    if is_none(text) or only_none(text):
        return []
    if acknowledges(text):
        return Invalid("Which equipment? For example “dumbbells and a mat”, or “none”.")

    def has(word: str) -> bool:
        # "no gym, just bands": a negated item is not equipment the user has; "gym" inside "home gym" is not a gym
        return any(
            not _NEGATED.search(t[: m.start()]) and not _inside_longer(word, m.start(), t)
            for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", t)
        )

    found = [name for name, words in EQUIPMENT.items() if any(has(w) for w in words)]
    # a misspelled name ("dumbells", "kettlebel") is close to one word only; short words are not
    # guessed ("mat" ~ "hat")
    for token in re.findall(r"[a-z-]{5,}", t):
        if token in _EQUIPMENT_WORDS or zipf_frequency(token, "en", wordlist="small") >= _A_WORD:
            continue  # a name as written, or an English word: "matter" is no misspelt German "Matte"
        close = difflib.get_close_matches(token, _EQUIPMENT_WORDS, n=1, cutoff=0.85)
        if close and _EQUIPMENT_WORDS[close[0]] not in found and not _NEGATED.search(t[: t.index(token)]):
            found.append(_EQUIPMENT_WORDS[close[0]])
    known = [name for name in EQUIPMENT if name in found]
    if known:
        return known
    # "bodyweight only", "nothing": none, unless something is named beside it ("a pull up bar, otherwise nothing")
    if _BODYWEIGHT.search(t):
        return []
    if isinstance(_IN_WORDS(text), Invalid):  # "bla bla", "asdfgh": no equipment named at all
        return Invalid("I couldn't make out any equipment there. Which do you have? For example “dumbbells”.")
    return [item for item in items(text) if not isinstance(_IN_WORDS(item), Invalid)] or None


# the engine's free-text reader: what equipment it names must be words, not "bla bla"
_IN_WORDS = free_text(min_chars=1)


read_time = choice(
    {
        "morning": ["mornings", "early", "before work", "sunrise", "before breakfast"],
        "midday": ["noon", "lunch", "lunchtime", "lunch break", "middle of the day"],
        "afternoon": ["afternoons", "after school"],
        "evening": ["evenings", "after work", "night", "tonight", "late"],
        "anytime": ["any time", "whenever", "no preference", "flexible", "doesn't matter", "don't mind"],
    },
    cutoff=0.8,  # a typo ("mornign") is read; a different word ("soon" ~ "noon") is not
)  # fmt: skip
_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|h)?\b")


TIME_EXPECTS = "morning, midday, afternoon, evening or any time (or a clock time like 7am)"


def parse_time_of_day(text: str) -> object:
    """morning / midday / afternoon / evening, or "anytime"; a clock time ("7am", "18:30") picks its part of the day."""
    m = _CLOCK.search(fold(text))
    if m and (m.group(2) or m.group(3)):
        hour = int(m.group(1))
        if m.group(3) in ("am", "pm"):
            if not 1 <= hour <= 12:
                return Invalid("That isn't a time of day; say morning, midday, afternoon or evening.")
            hour = hour % 12 + (12 if m.group(3) == "pm" else 0)
        if not 0 <= hour <= 23:
            return Invalid("That isn't a time of day; say morning, midday, afternoon or evening.")
        if 4 <= hour < 11:
            return "morning"
        if 11 <= hour < 14:
            return "midday"
        return "afternoon" if 14 <= hour < 17 else "evening"  # late night counts as evening
    return read_time(text)


# the letters a class timetable uses: "mwf", "t/th"
_SHORTHANDS: dict[str, tuple[int, ...]] = {
    "mwf": (0, 2, 4), "m/w/f": (0, 2, 4), "m-w-f": (0, 2, 4), "mw": (0, 2), "m/w": (0, 2),
    "tth": (1, 3), "tuth": (1, 3), "t/th": (1, 3), "tu/th": (1, 3), "tr": (1, 3),
}  # fmt: skip
_SHORTHAND_RE = re.compile(
    r"(?<![\w/-])(" + "|".join(re.escape(k) for k in sorted(_SHORTHANDS, key=len, reverse=True)) + r")(?![\w/-])"
)


def weekdays_said(text: str) -> list[Weekday]:
    """The weekdays `text` names as days to train on; a choice between them ("mon or tue") names none."""
    named = weekdays_in(text)
    return [] if len(named) > 1 and re.search(r"\b(?:or|oder|ou|o)\b", fold(text)) else named


def weekdays_in(text: str) -> list[Weekday]:
    """Every weekday `text` names as a day to train on: one day alone counts ("monday"), "any day" is all
    seven, "move it to the weekend" Saturday and Sunday, "tue-thu" three, "every day except sunday" six.
    The days are the engine's reading (engine/weekdays.py, which study-pal's plans over several days read
    too: it also says whether they recur, which this question does not ask); the class timetable's letters
    ("mwf", "t/th") are read here."""
    t = fold(text)
    days = {WEEKDAYS[i] for m in _SHORTHAND_RE.finditer(t) for i in _SHORTHANDS[m.group(1)]}
    days |= {WEEKDAYS[i] for i in day_set(t).days}
    return [d for d in WEEKDAYS if d in days]
