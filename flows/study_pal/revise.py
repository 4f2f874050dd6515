"""Revising a study plan's window: "make it an hour later", "move it to Saturday", "make it 5pm".

What the message names replaces that part of the old window and the rest is kept: a day
keeps the hours, a start keeps the length, a length keeps the start, a range replaces both.
"an hour later", "30 minutes earlier", "push it back an hour" shift the window; "a bit
later" is half an hour, "later" alone an hour. "an hour longer", "shorter" change the length
(alone, by one Pomodoro with its break: 30 minutes); "add another hour", "an extra 30 minutes" lengthen it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from engine.extract import Invalid
from flows.study_pal.timewindow import LAST_MINUTE, MIN_MINUTES, Window, hhmm, parse_window

_AMOUNT = r"(\d+(?:[.,]\d+)?|an?|one|two|three|half an?|a couple of)"
_UNIT = r"(hours?|hrs?|h|minutes?|mins?)"
_WORDS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "a couple of": 2.0}
_SHIFT = re.compile(rf"\b(?:by\s+)?{_AMOUNT}\s*{_UNIT}\s+(later|earlier|sooner|after|before)\b", re.I)
_PUSH = re.compile(
    rf"\b(?:push|move|shift|put|bring|set)\s+(?:it|this|that|the (?:plan|session|window|study(?: time)?)|everything)"
    rf"\s+(back|forward|later|earlier|up)\s+(?:by\s+)?{_AMOUNT}\s*{_UNIT}",
    re.I,
)
_BARE = re.compile(r"\b(?:(a (?:bit|little)|slightly|a tad)\s+)?(later|earlier)\b", re.I)
_VERB = re.compile(
    r"\b(?:make|move|push|shift|change|switch|put|bring|set|reschedule|postpone|delay|swap)\s+"
    r"(?:it|this|that|them|the (?:plan|session|sessions|window|study(?: session| time| plan)?|schedule)|everything)\b|"
    r"\binstead\b|\b(?:can|could) we (?:do|make|start) it\b",
    re.I,
)
_RESIZE = re.compile(rf"\b(?:(?:by\s+)?{_AMOUNT}\s*{_UNIT}\s+)?(longer|shorter)\b", re.I)
# "add another hour", "an extra 30 minutes", "one more hour": longer by that much
_EXTEND = re.compile(
    rf"\b(?:add(?:\s+(?:another|an extra|one more))?|another|an extra|one more|extra)\s+(?:{_AMOUNT}\s*)?{_UNIT}\b",
    re.I,
)
_OTHERWISE = re.compile(r"\breschedul\w*|\bpostpone\b|\bactually\b", re.I)


def _minutes(amount: str, unit: str) -> int:
    a = amount.lower()
    value = 0.5 if a.startswith("half") else _WORDS.get(a) or float(a.replace(",", "."))
    return round(value * (1 if unit.lower().startswith("m") else 60))


def read_shift(text: str) -> tuple[int, str] | None:
    """How many minutes the window moves (later positive), and the words that said it."""
    m = _SHIFT.search(text)
    if m:
        sign = 1 if m.group(3).lower() in ("later", "after") else -1
        return sign * _minutes(m.group(1), m.group(2)), m.group(0)
    m = _PUSH.search(text)
    if m:
        sign = 1 if m.group(1).lower() in ("back", "later") else -1
        return sign * _minutes(m.group(2), m.group(3)), m.group(0)
    m = _BARE.search(text) if _VERB.search(text) else None  # "see you later" moves nothing
    if m and not _RESIZE.search(text):
        sign = 1 if m.group(2).lower() == "later" else -1
        return sign * (30 if m.group(1) else 60), m.group(0)
    return None


def read_resize(text: str) -> tuple[int, str] | None:
    """How many minutes longer (positive) or shorter the window gets, and the words that said it."""
    extra = _EXTEND.search(text)
    if extra:
        return _minutes(extra.group(1) or "one", extra.group(2)), extra.group(0)
    m = _RESIZE.search(text)
    if not m or not (m.group(1) or _VERB.search(text)):
        return None  # "longer" alone is no change: "it took longer than I thought"
    change = _minutes(m.group(1), m.group(2)) if m.group(1) else 30
    return (change if m.group(3).lower() == "longer" else -change), m.group(0)


def is_revision(text: str) -> bool:
    """Does the message ask to change a plan ("make it an hour later", "Saturday instead")?
    Bare "later" ("see you later") is not enough: a verb, "instead", or an amount is."""
    return bool(_VERB.search(text) or _OTHERWISE.search(text) or _SHIFT.search(text) or _PUSH.search(text)) or bool(
        (m := _RESIZE.search(text)) and m.group(1)
    )


# a message that corrects itself: "sat 9-11 actually make it 10-12", "at 4, no wait, 5"
_SELF_CORRECTION = re.compile(
    r"\b(?:actually|no wait|wait|sorry|i mean|scratch that|or rather|make (?:it|that)|change (?:it|that) to)\b", re.I
)

_TAKEN_BACK = re.compile(r"^\W*(?:no|nah|nope)\b\W*", re.I)
_BARE_HOUR = re.compile(r"^\W*(\d{1,2}(?::\d{2})?\s*(?:am|pm)?)\W*$", re.I)


def read_window(text: str, at: datetime) -> Window | Invalid | None:
    """The window a message names, its own corrections applied: what follows the last "actually"
    / "no wait" / "make it" changes the window named before it, as a revision would."""
    for cue in reversed(list(_SELF_CORRECTION.finditer(text))):
        # the window before the cue with its own corrections: "sat 10-12 actually sunday, wait..."
        first = read_window(text[: cue.start()], at)
        if isinstance(first, Window):
            # "wait no, saturday is fine": the "no" takes back what came before, it declines nothing
            rest = _TAKEN_BACK.sub("", text[cue.end() :])
            # "no wait, 5": an hour alone after the cue is the new start
            rest = _BARE_HOUR.sub(r"at \1", rest)
            changed = revise_window(rest, at, first)
            if changed is not None:
                return changed
    return parse_window(text, at)


def revise_window(text: str, at: datetime, base: Window) -> Window | Invalid | None:
    """`base` changed as the message says; None when it names no change."""
    shift, resize = read_shift(text), read_resize(text)
    rest = text
    for found in (shift, resize):
        if found is not None:
            rest = rest.replace(found[1], " ")
    named = parse_window(rest, at, base=base)
    if isinstance(named, Invalid):
        return named
    if named is None and shift is None and resize is None:
        return None
    window = named or base
    start = window.start.hour * 60 + window.start.minute + (shift[0] if shift else 0)
    length = max(window.minutes + (resize[0] if resize else 0), 0)
    if start < 0 or start + length > LAST_MINUTE + 1:
        return Invalid("A study window has to stay within one day; pick another time.")
    if length < MIN_MINUTES:
        return Invalid(f"That leaves less than {MIN_MINUTES} minutes; one study session needs {MIN_MINUTES}.")
    moved = Window(
        day=window.day,
        start=(datetime.min + timedelta(minutes=start)).time(),
        end=(datetime.min + timedelta(minutes=min(start + length, LAST_MINUTE))).time(),
    )
    if moved.day < at.date() or (moved.day == at.date() and moved.start < at.time().replace(second=0, microsecond=0)):
        return Invalid(f"{hhmm(moved.start)} on {moved.day.isoformat()} has already passed; pick a later time.")
    return moved
