"""Messages shaped like a question that ask nothing back about the open question (issue 23, h-askb): a rhetorical
"why not" that puts an answer forward or agrees, a command or an answer asked for politely ("can you cancel?",
"kannst du 4 Tage eintragen?"), small talk about the bot said as a question; beside them, questions that do ask back.
Measured on tests/corpora/commands/notasks/ ("dev notasks", "test notasks")."""

from __future__ import annotations

import pytest

from engine import default_registry
from engine.hedges import unhedged
from engine.smalltalk import small_talk
from engine.yesno import read_yes_no
from tests.test_askback import asked, reading

fitness_bot = default_registry().get("fitness-coach")
language_bot = default_registry().get("language-buddy")
AT_DAYS = {"fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss", "target_weight_kg": 72}
CONFIRM = {
    "name": "Ana",
    "native_language": "es",
    "target_language": "en",
    "timezone": "Europe/Madrid",
    "level": "B1",
    "passed": "B1",
    "assessed_language": "en",
}


@pytest.mark.parametrize(
    "text",
    [
        "¿por qué no ganar músculo?",
        "warum nicht Muskelaufbau?",
        "pourquoi pas la prise de muscle ?",
        "perché no, resistenza",
    ],
)
def test_a_rhetorical_why_not_puts_the_answer_forward(text: str) -> None:
    assert asked(fitness_bot, "onboarding", "goal", text, fitness_level="beginner", limitations="none") is None


@pytest.mark.parametrize("text", ["¿por qué no?", "warum nicht?", "pourquoi pas ?", "perché no?", "por que não?"])
def test_a_why_not_alone_at_a_yes_no_question_is_a_yes(text: str) -> None:
    assert asked(language_bot, "onboarding", "confirm", text, **CONFIRM) is None
    assert [c.kind for c in reading(language_bot, "onboarding", "confirm", text, **CONFIRM)] == ["answer_flow"]
    assert read_yes_no(text) is True


@pytest.mark.parametrize(
    "text", ["¿por qué no puedo elegir dos?", "por que não posso escolher dois?", "perché non posso sceglierne due?"]
)
def test_why_something_is_not_so_still_asks(text: str) -> None:
    assert asked(fitness_bot, "onboarding", "goal", text, fitness_level="beginner", limitations="none") == "why"


@pytest.mark.parametrize(
    "text",
    [
        "could you cancel?",
        "¿puedes cancelar?",
        "kannst du abbrechen?",
        "tu peux annuler ?",
        "puoi annullare?",
        "pode cancelar?",
    ],
)
def test_a_cancel_asked_for_politely_cancels(text: str) -> None:
    assert asked(fitness_bot, "onboarding", "days", text, **AT_DAYS) == "cancel"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("could you put me down for 3 days?", "3 days?"),
        ("¿me apuntas 4 días?", "4 días?"),
        ("kannst du 2 Tage eintragen?", "2 Tage?"),
        ("tu peux me mettre 5 jours ?", "5 jours?"),
        ("mi segni 3 giorni?", "3 giorni?"),
        ("pode anotar 4 dias?", "4 dias?"),
    ],
)
def test_an_answer_asked_to_be_taken_down_is_the_answer(text: str, words: str) -> None:
    got = unhedged(text)
    assert got is not None and got.asking and got.words == words
    assert asked(fitness_bot, "onboarding", "days", text, **AT_DAYS) is None


@pytest.mark.parametrize(
    "text", ["can you set a reminder for 7?", "can you make me a plan?", "can you explain what that means?"]
)
def test_a_request_for_something_else_is_taken_down_by_nothing(text: str) -> None:
    got = unhedged(text)
    assert got is None or not got.asking


def test_a_value_taken_down_is_no_new_request() -> None:
    at = {"name": "Ana", "native_language": "es", "target_language": "en"}
    kinds = [c.kind for c in reading(language_bot, "onboarding", "ask_timezone", "¿puedes poner Lisboa?", **at)]
    assert "new_request" not in kinds
    assert asked(language_bot, "onboarding", "ask_timezone", "¿puedes poner Lisboa?", **at) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("tudo bem com você?", "greeting"),
        ("how are you always so calm?", "compliment"),
        ("are you bored of me yet?", "identity"),
        ("bist du schon müde?", "identity"),
        ("sei stanca di me?", "identity"),
    ],
)
def test_small_talk_about_the_bot_said_as_a_question(text: str, kind: str) -> None:
    talk = small_talk(text)
    assert talk is not None and talk.kinds == (kind,)
    assert asked(fitness_bot, "onboarding", "days", text, **AT_DAYS) == "chitchat"


@pytest.mark.parametrize(
    "text",
    [
        "can you tell me why you need it?",
        "¿para qué necesitas saber eso?",
        "kannst du mir sagen, wozu du das brauchst?",
    ],
)
def test_a_question_back_asked_politely_still_asks(text: str) -> None:
    assert asked(fitness_bot, "onboarding", "days", text, **AT_DAYS) == "why"
