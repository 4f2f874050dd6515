"""study-pal: tutoring a course, analysing the results, scheduling a study plan."""

from flows.study_pal.bot import study_pal

__all__ = ["study_pal"]
