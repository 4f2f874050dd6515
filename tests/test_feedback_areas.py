"""The feedback areas in the learners' languages, one table (flows/shared/data/feedback_areas.yaml): each
word counts where the table says (at the area question, in the comment, or both), and a word listed twice
is refused on load, so the question's list and the comment's cannot drift apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import DataFileError
from flows.shared.datafile import load_yaml
from flows.shared.feedback import ABROAD, CATEGORIES, AreasAbroad, read_category, spot_category

TABLE = Path(__file__).parent.parent / "flows" / "shared" / "data" / "feedback_areas.yaml"
_ENGLISH = {w for words in CATEGORIES.values() for w in words}
_AT_QUESTION = [(area, w) for area, words in ABROAD.items() for w in (*words.both, *words.question)]
_IN_COMMENT = [(area, w) for area, words in ABROAD.items() for w in (*words.both, *words.comment)]
# the question's words not sensed in a comment (one also English, as "error", is sensed as English)
_QUESTION_ONLY = [(area, w) for area, words in ABROAD.items() for w in words.question if w not in _ENGLISH]


@pytest.mark.parametrize(("area", "word"), _AT_QUESTION)
def test_a_word_of_the_question_answers_it(area: str, word: str) -> None:
    assert read_category(word) == area


@pytest.mark.parametrize(("area", "word"), _IN_COMMENT)
def test_a_word_of_the_comment_is_sensed_in_it(area: str, word: str) -> None:
    assert spot_category(f"honestly {word} all the time") == area


@pytest.mark.parametrize(("area", "word"), _QUESTION_ONLY)
def test_a_word_of_the_question_alone_says_nothing_in_a_comment(area: str, word: str) -> None:
    assert spot_category(f"honestly {word} all the time") is None


@pytest.mark.parametrize(
    ("text", "says"),
    [("bug: {both: [lento]}\nlatency: {question: [lento]}", "'lento' is listed under bug.both and latency.question"),
     ("bug: {question: [plante], comment: [plante]}", "'plante' is listed under bug.question and bug.comment"),
     ("bug: {both: [Fehler]}", "bug.both: 'Fehler' must be lower-case"),
     ("bugs: {both: [fallo]}", "bugs.[key]: Input should be 'bug'"),
     ("bug: {}", "bug: lists no word"), ("bug: {questions: [fallo]}", "bug.questions: Extra inputs")],
)  # fmt: skip
def test_a_broken_table_says_what_to_fix(text: str, says: str, tmp_path: Path) -> None:
    path = tmp_path / "feedback_areas.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=says.replace("[", r"\[").replace(".", r"\.")):
        load_yaml(path, AreasAbroad)


def test_the_shipped_table_loads() -> None:
    assert load_yaml(TABLE, AreasAbroad).root == ABROAD
