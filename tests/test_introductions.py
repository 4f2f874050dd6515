"""Learners introduce themselves in their own language (issue: reading must not be English-only).

tests/corpora/introductions/{dev,test}.yaml, split once by hash, the test split written before
engine/cues.py; `python bench/introductions.py --misses` prints the table and the misses.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from engine import default_registry
from engine.cues import in_english_cues, load_cues
from engine.errors import DataFileError
from flows.language_buddy.names import name_in

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("introductions_bench", ROOT / "bench" / "introductions.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.mark.parametrize("split", ["dev", "test"])
def test_name_and_languages_are_read_from_introductions_in_six_languages(split: str, tmp_path: Path) -> None:
    from engine import Engine, SqlStore
    from engine.llm import RulesLLM
    from engine.registry import default_registry

    store = SqlStore(str(tmp_path / "s.db"))
    try:
        per, misses = bench.score(split, Engine(store, RulesLLM(), bots=default_registry()))
    finally:
        store.close()
    right, total = per["whole message"]
    assert right / total >= 0.85, "\n".join(misses)
    assert per["name"][0] == per["name"][1], "\n".join(misses)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("je m'appelle Chloé, je parle français", "my name is Chloé, I speak français"),
        ("mein Name ist Tobias und ich möchte Spanisch lernen", "my name is Tobias and I want to learn Spanisch"),
        ("moin, ich bin Jannik, Deutsch ist meine Muttersprache", "hello, I'm Jannik, Deutsch is my native language"),
        ("sono Chiara, la mia lingua madre è l'italiano", "I'm Chiara, my native language is italiano"),
        ("Julie ici", "Julie here"),
        # the copula goes with the cue where the possessive before it was read away ("est" is no EST)
        ("langue maternelle est le français", "my native language is français"),
        ("Muttersprache ist Deutsch", "my native language is Deutsch"),
        # German puts the verb first after a word that opens the sentence; "wie heiße ich?" still asks
        ("Und eigentlich heiße ich Anne, nicht Anna", "and eigentlich my name is Anne, nicht Anna"),
        ("übrigens ist mein Name Jonas", "übrigens my name is Jonas"),
        ("wie heiße ich?", "what's my name?"),
    ],
)
def test_only_the_cue_words_are_rewritten(typed: str, read: str) -> None:
    assert in_english_cues(typed) == read


@pytest.mark.parametrize("text", ["my name is Zoë", "I speak German and some French", "Soyuz", "ciaociao", "Chloé"])
def test_english_and_words_that_only_contain_a_cue_are_left_alone(text: str) -> None:
    assert in_english_cues(text) == text


def test_a_broken_cue_table_says_what_to_fix(tmp_path: Path) -> None:
    bad = tmp_path / "cues.yaml"
    bad.write_text("phrases:\n  'my name is': [je m'appelle]\n  'I speak': [je m'appelle]\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="listed under both 'my name is' and 'I speak': keep one"):
        load_cues(bad)
    bad.write_text("phrases: {}\nframes:\n  - pattern: '(unclosed'\n    english: x\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="does not compile"):
        load_cues(bad)


@pytest.mark.parametrize(
    "text",
    ["j'ai une réclamation à faire", "ich möchte mich beschweren", "tengo una queja", "quero fazer uma reclamação"],
)
def test_a_bots_intents_are_read_in_the_users_language(text: str) -> None:
    """The cue table writes intent words too: a learner complains in their own language."""
    bot = default_registry().get("language-buddy")
    assert bot.intent_for(text) == "feedback"
    assert bot.intent_for("hola, qué tal") is None


@pytest.mark.parametrize(
    "text",
    ["quiero darte mi opinión sobre la app", "je voudrais te donner mon avis", "ich sage dir meine Meinung",
     "vorrei darti la mia opinione", "quero dar a minha opinião", "can I give you my honest opinion?"],
)  # fmt: skip
def test_an_opinion_offered_is_feedback_in_six_languages(text: str) -> None:
    bot = default_registry().get("language-buddy")
    assert bot.intent_for(text) == "feedback"
    # an opinion only framing a sentence asks for nothing
    assert bot.intent_for("in my opinion spanish is easier than french") is None


@pytest.mark.parametrize(
    "text",
    ["kannst du mir einen Lernplan machen?", "hazme un plan de estudio", "fais-moi un plan d'études",
     "mi fai un piano di studio?", "preciso de um plano de estudos"],
)  # fmt: skip
def test_a_study_plan_asked_for_by_name_in_the_users_language(text: str) -> None:
    assert default_registry().get("study-pal").intent_for(text) == "scheduling"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Dan here", "Dan"),
        ("hey, Dan here, english speaker, trying to learn spanish", "Dan"),
        ("hey, nobody here?", None),
    ],
)
def test_a_name_said_with_here_after_a_greeting(text: str, name: str | None) -> None:
    assert name_in(text, weak=True) == name


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("i'm brazilian :)", "pt"),
        ("Je suis française", "fr"),
        ("soy mexicano", "es"),
        ("Ich bin österreicher", "de"),
        ("sono italiana", "it"),
        ("brasileira", "pt"),  # alone, at the native-language question
    ],
)
def test_a_nationality_said_of_oneself_is_the_native_language(text: str, code: str) -> None:
    # h-read9: the country's language, at the native-language question and said ahead of it
    from flows.language_buddy.field_parsers import native_parser
    from flows.language_buddy.profile import OnboardingSlots

    assert native_parser(OnboardingSlots(name="Ana"))(text) == code
    assert name_in(in_english_cues(text), weak=True) is None  # no name either ("Brasileira", "Österreicher")


def test_a_language_named_beside_a_nationality_says_more() -> None:
    from flows.language_buddy.languages import native_in

    assert native_in("i'm american", weak=True) == "en"
    assert native_in("i'm american but i grew up speaking spanish", weak=True) == "es"
    assert native_in("tedesco", weak=True) is None  # a language alone is no nationality said of oneself


def test_a_nationality_said_beside_the_language_to_learn_is_read_ahead() -> None:
    # "je suis française" beside "I want to practise my German" named no native language: the language to learn
    # says nothing of the native one, and the English nationality word is the language's own name
    from flows.language_buddy.languages import native_in

    for text, code in [
        ("Bonjour, je suis Amélie, I want to practise my German, je suis française", "fr"),
        ("I'm German and learning Spanish", "de"),
        ("im french", "fr"),
    ]:
        assert native_in(text, weak=False) == code, text
    # another language named says more, and a word after "i'm" that names no people is none
    assert native_in("i'm german, my first language is turkish", weak=False) == "tr"
    assert native_in("i'm in Berlin", weak=False) is None
    assert native_in("i'm learning", weak=False) is None
