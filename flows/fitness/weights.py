"""Body weights in a sentence, as people write them: "I weigh 95 kg and want to get to 85",
"currently 210 lbs, aiming for 180", "from 14 stone down to 12", "11 st 4 lb".

Each weight mentioned gets a role from the words before it (current, target, an amount to
lose or gain, or unmarked) and is converted to kilograms with `pint`. A number written
without a unit borrows the unit of the nearest weight that has one ("95 kg ... to 85" is
85 kg), so it is only read as a weight beside one that has a unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from engine.cues import load_cue_lists
from engine.extract import fold
from engine.numwords import spelled_out

if TYPE_CHECKING:
    import pint

Role = Literal["current", "target", "relative", "unmarked"]

# pint knows kilogram, pound (lb, lbs, pounds) and stone; these are the spellings people also use
# and what they are called in the other languages users answer in ("65 quilos", "70 chili", "150 libras")
_ALIASES = (
    "@alias kilogram = kilo = kilos = kgs = kilogramme = kilogrammes = quilo = quilos = chilo = chili",
    "@alias stone = st",
    "@alias pound = libra = libras = livre = livres = pfund = libbra = libbre",
)
_UNIT = (
    r"kg|kgs|kilos?|kilogram(?:me)?s?|quilos?|chil[oi]|lbs?|pounds?|libras?|livres?|pfund|libbr[ae]|stones?"
    r"|(?<=[\d\s])st"
)
# "11 st 4 lb", and "12 stone 4": after stone a small number alone is its pounds
_POUNDS = r"\s*(\d+)\s*(?:lbs?|pounds?)\b|(?:(?<=st)|(?<=stone)|(?<=stones))\s+(\d{1,2})(?![\w.,]|\s*(?:%|x\b|kg|kilo))"
# a number right after a foot mark is the inches of a height: "5'10"
_MENTION = re.compile(rf"(?<![\w.'’\"])(\d+(?:[.,]\d+)?)(?:\s*({_UNIT})\b(?:{_POUNDS})?)?")
# a bare number followed by one of these counts something else: "3 days", "45 min", "5x", "2025", a time
# ("7:30"); a smiley after it ("je vise 68 :)") is no time
_NOT_WEIGHT_AFTER = re.compile(
    r"(?<!\s)\s*+(?:%|x\b|times?\b|days?\b|weeks?\b|months?\b|years?\b|yrs?\b|min|h\b|hrs?\b|hours?\b|am\b|pm\b|:(?=\d)|st\b|nd\b"
    r"|rd\b|th\b|cm\b|m\b|ft\b|feet\b|foot\b|inch|'|\")"
)
# the words that give a weight its role, in the six languages fitness reads ("quiero llegar a 80", "je vise 68",
# "68 kg wäre super", "ich wiege 85"): flows/fitness/data/weight_cues.yaml, read through engine/cues.py
CUES = load_cue_lists(Path(__file__).parent / "data" / "weight_cues.yaml")
_ABOUT = rf"(?: {CUES.alternation('approximately')})?\s*$"
# an arrow between two weights points at the one wished for: "100kg -> 90kg", "95 → 85"; an arrow's
# dashes are taken from the first of a run (tried at every dash of "-----", the run was scanned quadratically)
_TARGET_MARK = re.compile(rf"(?:\b{CUES.alternation('target_before')}|(?:(?<!-)-++>|→|=>)){_ABOUT}")
# a weight wished for, said after it
_TARGET_AFTER = re.compile(rf"(?<!\s)\s*+{CUES.alternation('target_after')}\b")
_CURRENT_MARK = re.compile(rf"\b{CUES.alternation('current_before')}{_ABOUT}")
# a weight said to be the one of now by a word after it ("92 now", "95 ahora", "88 jetzt")
_NOW_AFTER = re.compile(
    r"(?<!\s)\s*+(?:kg\s+|lbs?\s+)?(?:now|rn|right now|at the moment|currently|ahora|actualmente|jetzt|aktuell"
    r"|maintenant|actuellement|agora|atualmente|adesso|attualmente)\b"
)
# "im 29, 175 cm and 80 kg": a number said as what the user is, with no unit and ending its clause, is an age
_AGE = re.compile(r"(?:^|[,;.!?]\s*|\band\s+)(?:i'm|im|i am)\s+$")


def _age(t: str, m: re.Match[str]) -> bool:
    if float(m.group(1).replace(",", ".")) >= 100:
        return False
    # only the words right before the number: a message of many numbers is not read again for each
    lo = max(0, m.start() - 16)
    return _AGE.search(("x" if lo else "") + t[lo : m.start()]) is not None


# a change still to make, and which way: the weight to reach is the current one moved by it
_TOWARDS = {"lose": -1, "loose": -1, "drop": -1, "shed": -1, "gain": 1, "put on": 1}  # "loose": as often typed
_RELATIVE_MARK = re.compile(
    r"\b(lose|loose|drop|shed|gain|put on|lost|gained)(?: (?:about|around|roughly|another|like|some|maybe))?\s*$"
)


def wanted_change(text: str) -> int:
    """-1 or +1 when the text says the user wants to lose or gain an amount of weight ("want to lose
    about 5 kg", "gain 3 kg of muscle"), 0 otherwise (a weight lost already, or no amount)."""
    said = weigh(text)
    if said.relative_verb not in _TOWARDS or not any(w.role == "relative" for w in said.mentions):
        return 0
    return _TOWARDS[said.relative_verb]


@cache
def _units() -> pint.UnitRegistry[float]:
    # built on first use: loading pint's definitions takes a few hundred milliseconds, and
    # importing pint as much again, which every process paid at start (each test worker too)
    import pint

    registry: pint.UnitRegistry[float] = pint.UnitRegistry()
    for alias in _ALIASES:
        registry.define(alias)
    return registry


def to_kg(value: float, unit: str, pounds: float = 0.0) -> float:
    """`value` `unit` (+ `pounds`, for "11 st 4 lb") in kilograms, to one decimal."""
    ureg = _units()
    mass = ureg.Quantity(value, ureg.parse_units(unit)) + ureg.Quantity(pounds, ureg.pound)
    return round(float(mass.to(ureg.kilogram).magnitude), 1)


@dataclass(frozen=True)
class Weight:
    kg: float
    role: Role
    written: str  # as typed, for messages ("900 lb")
    unit: str  # the unit as typed, or borrowed from a neighbour


@dataclass(frozen=True)
class Weights:
    mentions: list[Weight] = field(default_factory=list)
    relative_verb: str | None = None  # "lose" in "lose 10 kg"

    def of(self, role: Role) -> list[Weight]:
        return [w for w in self.mentions if w.role == role]

    @property
    def current(self) -> Weight | None:
        found = self.of("current")
        return found[-1] if found else None

    @property
    def target(self) -> Weight | None:
        found = self.of("target")
        return found[-1] if found else None


def _after_feet(t: str, end: int) -> bool:
    """Whether `t[:end]` ends with feet ("5 ft ", "6 feet"): a number after it is inches. Read
    back from `end`, not searched for with `$` over the whole text before each number (a message
    of 2,000 numbers rescanned it 2,000 times)."""
    i = end
    while i > 0 and t[i - 1].isspace():
        i -= 1
    unit = next((u for u in ("feet", "foot", "ft") if t.endswith(u, 0, i)), None)
    if unit is None:
        return False
    i -= len(unit)
    while i > 0 and t[i - 1].isspace():
        i -= 1
    return i > 0 and t[i - 1].isdecimal()


def weigh(text: str, known_unit: str | None = None) -> Weights:
    """Every weight `text` mentions, in kg, each with its role.

    Two weights of which one is marked take the other role for the second ("95 kg, want 85":
    the first is current); several unmarked ones stay unmarked (the caller asks which).
    `known_unit`: the unit the user wrote an earlier weight in; a message whose numbers have
    none ("180" after "I weigh 200 lbs") is read in it.
    """
    t = fold(with_digits(text))
    raw: list[tuple[re.Match[str], str | None]] = []
    said = list(_MENTION.finditer(t))
    with_unit = [float(m.group(1).replace(",", ".")) for m in said if m.group(2)]
    for m in said:
        unit = m.group(2)
        # "i'm 92 now so 82" once the user's unit is known, "75kg, i'm 82 at the moment" beside a weight with
        # one near it: a weight of now, not an age ("i'm 30 now, 80 kg" is an age: far from the weight)
        value = float(m.group(1).replace(",", "."))
        weight_now = _NOW_AFTER.match(t, m.end()) is not None and (
            known_unit is not None or any(w / 2 <= value <= w * 2 for w in with_unit)
        )
        if unit is None and (
            _NOT_WEIGHT_AFTER.match(t, m.end()) or _after_feet(t, m.start()) or (_age(t, m) and not weight_now)
        ):
            continue
        raw.append((m, unit))
    if not any(unit for _, unit in raw):
        if known_unit is None or not raw:
            return Weights()
        raw = [(m, known_unit) for m, _ in raw]
    mentions: list[Weight] = []
    relative: str | None = None
    prev_end = 0
    for i, (m, unit) in enumerate(raw):
        borrowed = unit or _nearest_unit(raw, i)
        before = t[prev_end : m.start()]
        marked = _CURRENT_MARK.search(before) is not None or _RELATIVE_MARK.search(before) is not None
        if unit is None and not marked and not _near(float(m.group(1).replace(",", ".")), raw, i):
            continue  # "34, 92 kg": a bare number far off the weight beside it is no weight (an age)
        prev_end = m.end()
        role: Role = "unmarked"
        if r := _RELATIVE_MARK.search(before):
            role, relative = "relative", r.group(1)
        elif _TARGET_MARK.search(before):
            role = "target"
        elif _CURRENT_MARK.search(before):
            role = "current"
        elif _TARGET_AFTER.match(t, m.end()):
            role = "target"
        elif _NOW_AFTER.match(t, m.end()):
            role = "current"
        kg = to_kg(float(m.group(1).replace(",", ".")), borrowed, float(m.group(3) or m.group(4) or 0))
        written = m.group().strip() if m.group(2) else f"{m.group(1)} {borrowed}"
        mentions.append(Weight(kg=kg, role=role, written=written, unit=borrowed))
    absolute = [w for w in mentions if w.role != "relative"]
    if len(absolute) == 2:
        a, b = absolute
        other: dict[Role, Role] = {"current": "target", "target": "current"}
        if a.role in other and b.role == "unmarked":
            mentions[mentions.index(b)] = Weight(b.kg, other[a.role], b.written, b.unit)
        elif b.role in other and a.role == "unmarked":
            mentions[mentions.index(a)] = Weight(a.kg, other[b.role], a.written, a.unit)
    current, change = [w for w in mentions if w.role == "current"], [w for w in mentions if w.role == "relative"]
    if (
        relative in _TOWARDS
        and len(current) == 1
        and len(change) == 1
        and not any(w.role == "target" for w in mentions)
    ):
        # "want to lose about 10 kg, currently 95": the weight to reach is the one now less (or more) the change
        now, by = current[0], change[0]
        kg = round(now.kg - by.kg if _TOWARDS[relative] < 0 else now.kg + by.kg, 1)
        amount = float(now.written.split()[0].rstrip("kglbst")) if now.written[:1].isdigit() else None
        step = float(by.written.split()[0].rstrip("kglbst")) if by.written[:1].isdigit() else None
        shown = (
            f"{amount + _TOWARDS[relative] * step:g} {now.unit}"
            if amount is not None and step is not None
            else f"{kg:g} kg"
        )
        mentions.append(Weight(kg=kg, role="target", written=shown, unit=now.unit))
    return Weights(mentions=mentions, relative_verb=relative)


# a body weight an adult may have or want, in kg: a number said without a unit at a weight question is read in
# the one unit of the question's two (kg, lb) that makes every such number one ("88" is 88 kg: 88 lb is 40 kg;
# "210" is 210 lb: 210 kg is out of it); where both do ("150"), the unit is asked for
_PLAUSIBLE_KG = (40.0, 200.0)


def unit_alone(text: str) -> str | None:
    """The unit an answer to a weight question means when it names none: the one of kg and lb in which every
    weight it gives is a plausible body weight, when only one does; None when the message names a unit, gives
    no weight, or could mean either."""
    if weigh(text).mentions:
        return None  # a unit is said: the weights read with it
    fits = []
    for unit in ("kg", "lb"):
        said = weigh(text, unit).mentions
        if said and all(_PLAUSIBLE_KG[0] <= w.kg <= _PLAUSIBLE_KG[1] for w in said if w.role != "relative"):
            fits.append(unit)
    return fits[0] if len(fits) == 1 else None


def with_digits(text: str) -> str:
    """`text` with its number words as digits ("eighty kilos" -> "80 kilos", "soixante-cinq
    kilos" -> "65 kilos"): the engine's one number reader, six languages (engine/numwords.py)."""
    return spelled_out(text)


def _near(value: float, raw: list[tuple[re.Match[str], str | None]], i: int) -> bool:
    """Is a bare number within twice or half of the closest weight with a unit? One person's weights,
    now and wished for, are ("from 95 to 80 kg"); an age or a count beside a weight is not."""
    for j in [*range(i - 1, -1, -1), *range(i + 1, len(raw))]:
        if raw[j][1]:
            other = float(raw[j][0].group(1).replace(",", "."))
            return other / 2 <= value <= other * 2
    return True


def _nearest_unit(raw: list[tuple[re.Match[str], str | None]], i: int) -> str:
    """The unit of the closest weight before `i` that has one, else the closest after it."""
    for j in [*range(i - 1, -1, -1), *range(i + 1, len(raw))]:
        unit: str | None = raw[j][1]
        if unit:
            return unit
    raise ValueError("no weight with a unit")  # pragma: no cover - weigh() checks there is one


_UNIT_NAMES = (
    ("kg", re.compile(r"^(?:kg|kilo|quilo|chil)")),
    ("lb", re.compile(r"^(?:lb|pound|libr|livre|pfund|libbr)")),
    ("st", re.compile(r"^st")),
)


def unit_of(weight: Weight) -> str | None:
    """The unit `weight` was written in, as "kg", "lb" or "st" (for a later number without one)."""
    return next((name for name, pattern in _UNIT_NAMES if pattern.match(weight.unit)), None)
