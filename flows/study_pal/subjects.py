"""What a study plan is for, read anywhere in the message.

"plan chemistry and biology on Friday at 4" studies Chemistry and Biology; "schedule study
for limits and derivatives" the two course topics, under their titles. Three sources, in the
order the message names them: the course's topics (typos included) and the course itself,
common school subjects (`SUBJECTS`, typos included), and as a last resort whatever follows
"for" ("for my thesis") when it is not a pronoun, a day, a length or "these topics".
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz, process

from flows.study_pal.course import Course
from flows.study_pal.days import EXAMS, mentions, read_part
from flows.study_pal.timewindow import now, read_length


def names_a_day(words: str) -> bool:
    """Do `words` begin with a day or a part of day ("thurs arvo", "tmrw", "sunday morning")?"""
    first = words.split()[0]
    return any(m.start == 0 for m in mentions(words, now().date())) or read_part(first) is not None


# subject word -> how a plan names it
SUBJECTS = {
    "math": "Math", "maths": "Math", "mathematics": "Math", "physics": "Physics", "chemistry": "Chemistry",
    "chem": "Chemistry", "biology": "Biology", "bio": "Biology", "history": "History", "geography": "Geography",
    "english": "English", "french": "French", "spanish": "Spanish", "german": "German", "italian": "Italian",
    "latin": "Latin", "chinese": "Chinese", "mandarin": "Chinese", "japanese": "Japanese", "literature": "Literature",
    "economics": "Economics", "econ": "Economics", "statistics": "Statistics", "stats": "Statistics",
    "algebra": "Algebra", "linear algebra": "Linear algebra", "geometry": "Geometry", "trigonometry": "Trigonometry",
    "trig": "Trigonometry", "computer science": "Computer science", "programming": "Programming",
    "coding": "Programming", "python": "Python", "music": "Music", "philosophy": "Philosophy",
    "psychology": "Psychology", "psych": "Psychology", "sociology": "Sociology", "politics": "Politics",
    "accounting": "Accounting", "business": "Business", "science": "Science", "astronomy": "Astronomy",
    "anatomy": "Anatomy", "genetics": "Genetics", "organic chemistry": "Organic chemistry", "vocab": "Vocabulary",
    "vocabulary": "Vocabulary", "grammar": "Grammar", "essay": "Essay", "thesis": "Thesis",
}  # fmt: skip
_TYPO_SCORE = 85  # rapidfuzz ratio; "chemestry" 89, "biolgy" 92
_MIN_TYPO = 6  # shorter words are too often other words ("bio", "trig", "chem" are spelt out above)

_FOR = re.compile(
    r"\bfor (?:my |the |our )?([a-z][\w&+\- ]{0,40}?)\s*(?=$|[.!?,;]|\b(?:from|on|at|between|tomorrow|today|tonight|"
    r"this|next|in the|in|please|starting|after|before|by)\b)",
    re.I,
)
_NOT_SUBJECTS = {"me", "us", "myself", "you", "it", "this", "that", "these", "those", "them", "today", "tomorrow",
                 "tonight", "now", "later", "a", "an", "next", "each", "every", "all", "weak", "study", "studying",
                 "a study plan", "a plan", "a schedule", "these topics", "those topics", "the topics", "topics",
                 "my weak points", "weak points", "the week", "week", "monday", "tuesday", "wednesday", "thursday",
                 "friday", "saturday", "sunday", "an hour", "hours", "revision", "the weekend", "weekend",
                 "one", "two", "three", "half", "some", "real", "sure", "example", "instance", "once",
                 "good"}  # fmt: skip


def read_subject(text: str) -> str | None:
    """What follows "for" ("... for Math", "for my chemistry exam"); pronouns, days, lengths, "these
    topics" and an exam alone are not subjects."""
    for m in _FOR.finditer(text):
        # "for my chemistry exam" is for chemistry; "for my test" names no subject
        subject = re.sub(rf"\s*\b{EXAMS}$", "", m.group(1).strip(), flags=re.I)
        if not subject:
            continue
        first = subject.split()[0].lower()
        if subject.lower() in _NOT_SUBJECTS or first in _NOT_SUBJECTS or read_length(subject) is not None:
            continue
        if names_a_day(subject):
            continue  # "for thurs arvo", "for tmrw": when, not what
        return subject[:1].upper() + subject[1:]
    return None


def subjects(course: Course, subject: str) -> list[str]:
    """The topics a subject names ("limits and derivatives": Limits, Derivatives), course
    topics under their titles."""
    names: list[str] = []
    for part in re.split(r",|&|\+|\band\b", subject):
        part = part.strip()
        if part:
            cid = course.find(part)
            names.append(course.concept(cid).title if cid else part[:1].upper() + part[1:])
    return list(dict.fromkeys(names))


def named_subjects(text: str) -> list[tuple[int, str]]:
    """School subjects named in `text` (typos included), as (position, name)."""
    t = text.lower()
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for word in sorted(SUBJECTS, key=len, reverse=True):  # "organic chemistry" before "chemistry"
        for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", t):
            if not any(a < m.end() and m.start() < b for a, b in taken):
                found.append((m.start(), SUBJECTS[word]))
                taken.append((m.start(), m.end()))
    if not found:
        words = [w for w in SUBJECTS if len(w) >= _MIN_TYPO and " " not in w]
        for m in re.finditer(rf"[a-z]{{{_MIN_TYPO},}}", t):
            hit = process.extractOne(m.group(0), words, scorer=fuzz.ratio, score_cutoff=_TYPO_SCORE)
            if hit is not None:
                found.append((m.start(), SUBJECTS[hit[0]]))
    return found


def read_subjects(text: str, course: Course) -> list[str]:
    """The subjects a plan is for, in the order named; [] when the message names none."""
    lowered = text.lower()
    found = [(at, course.concept(cid).title) for at, cid in course.mentions(text)]
    if course.mentions_course(text):
        found.append((min(lowered.find(w) for w in course.title.lower().split() if w in lowered), course.title))
    found += named_subjects(text)
    if not found:
        subject = read_subject(text)
        return subjects(course, subject) if subject else []
    return list(dict.fromkeys(name for _, name in sorted(found)))
