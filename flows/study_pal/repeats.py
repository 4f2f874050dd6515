"""The days a study window repeats on: "weekdays after 6pm", "mon wed fri 7-9", "every evening".

A time said with a set of days is a plan for each of them in the coming week, not for one day
("weekdays after 6pm" was one session on the next evening). Which days, and whether they are said
to come back, is the engine's reading of the days of the week (engine/weekdays.py, shared with
fitness-coach): a set (weekdays, the weekend, every day; "weekday evenings"), weekdays in the plural
or after "every" ("mondays and thursdays", "los martes"), two or more named together ("mon wed fri";
not "monday or tuesday"), a range ("tue-thu", "de lunes a viernes"), with days taken out ("every day
except the weekend"). One weekday alone is one day (days.py). The message is read with its time words
typed a letter off written right and its other languages' day words in English (engine/gloss.py).

The dates are the next seven days' that fall on the set, from today while the window is still
ahead today, else from tomorrow; one day of a set ("a weekday evening at 7") is the first of them.
"""

from __future__ import annotations

from datetime import date, time, timedelta

from engine.gloss import in_english, respelled
from engine.weekdays import DaySet, day_set


def _read(text: str) -> DaySet:
    return day_set(respelled(in_english(text)))


def weekdays(text: str) -> frozenset[int]:
    """The set of weekdays (0 = Monday) `text` says a plan repeats on; empty for a day named alone
    (days.py reads it), one day when a set leaves one ("weekends but not sunday"). fitness-coach's
    `weekdays_in` reads the same days, with a day named alone counted."""
    found = _read(text)
    return found.days if found.recurring else frozenset()


def repeat_days(text: str, now_day: date, now_time: time, start: time) -> list[date]:
    """The dates of the coming week the plan in `text` is for: none when it names a day alone; the
    first date alone when it means one day of a set ("a weekday evening")."""
    found = _read(text)
    if not found.days or not (found.recurring or found.one):
        return []
    first = now_day if start > now_time else now_day + timedelta(days=1)
    dates = [d for d in (first + timedelta(days=i) for i in range(7)) if d.weekday() in found.days]
    return dates[:1] if found.one else dates
