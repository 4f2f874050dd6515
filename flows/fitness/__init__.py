"""fitness-coach: a five-stage onboarding that builds one typed fitness profile."""

from flows.fitness.bot import fitness_coach

__all__ = ["fitness_coach"]
