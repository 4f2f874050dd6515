"""The one schema a model fills when it judges an open answer the rules did not accept.

Used by the placement test (language-buddy) and the tutoring exercises (study-pal). The
accepted answers travel in the field's description: the prompt holds the conversation,
which shows the question but (rightly) never the solution.
"""

from __future__ import annotations

import functools

from pydantic import BaseModel, Field, create_model


@functools.lru_cache(maxsize=256)
def verdict_model(question: str, accepted: tuple[str, ...]) -> type[BaseModel]:
    """Schema for a model's verdict on the user's last message; null: not an answer, or unsure."""
    hint = (
        f"Is the user's last message a correct answer to the question {question!r}? "
        f"Accepted answers: {', '.join(accepted)}. An equivalent form counts as correct. "
        "null if the message is not an attempt at an answer, or if you are unsure."
    )
    model: type[BaseModel] = create_model("AnswerVerdict", correct=(bool | None, Field(None, description=hint)))
    return model
