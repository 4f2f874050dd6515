"""At every state every shipped bot rests in, any message gets a reply or one of innerloop's own
errors: no pydantic, regex or other foreign exception escapes a turn (issue 25).

The resting states are those the replay scripts reach (each from the shortest prefix reaching
it; a test below keeps every asking state of every shipped bot among them). Messages are built
from the words the flows' asides and readers look for (languages, fields, corrections, numbers,
times, places, yes/no), so asides fire and readers read, plus arbitrary text.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineError
from engine.authoring.diagram import shipped_bots
from engine.authoring.resting import Resting, at, prepare, resting_places, scripts_in
from engine.states import Ask
from tests.clocks import replayed, with_clocks
from tests.test_replay import SCRIPTS

REPLAYS = Path(__file__).parent / "replays"

# the languages the scripts' profiles hold, so a statement about them meets the slots' own values
LANGUAGES = ["English", "German", "Spanish", "Polish"]
OTHER_LANGUAGES = ["French", "Italian", "Klingon", "Deutsch", "español", "en", "de", "Englsh"]
FIELDS = [
    "name",
    "native language",
    "target",
    "timezone",
    "level",
    "goal",
    "diet",
    "days",
    "minutes",
    "weight",
    "equipment",
    "injuries",
    "allergies",
    "time",
]
NAMES = ["Ana", "Max", "Anna María", "O'Neil"]
PLACES = ["Berlin", "Portland", "UTC+2", "GMT-5", "Europe/Berlin", "USA", "Tokyo"]
TIMES = ["tomorrow at 4", "from 14-16", "saturday morning", "in 2 hours", "10:00", "next week", "tonight"]
NUMBERS = ["0", "3", "-1", "12", "80 kg", "1,000", "2.5", "999999999999", "three", "45 min"]
WORDS = [
    "yes",
    "no",
    "nope",
    "yeah",
    "cancel",
    "help",
    "stop",
    "skip",
    "agent",
    "feedback",
    "actually",
    "not",
    "vegan",
    "vegetarian",
    "knee",
    "back",
    "dumbbells",
    "none",
    "I don't know",
    "a",
    "b",
    "c",
    "?",
    "!!!",
]
TEMPLATES = [
    "no, my native language is {l} and I want to learn {l}",
    "actually I want to learn {l}",
    "my native language is {l}",
    "its {l} not {l}",
    "no, the {f}",
    "wrong {f}, it's {v}",
    "my {f} is {v}",
    "change my {f} to {v}",
    "my name is {n}",
    "I'm {n} from {p}, I speak {l} and want to learn {l}",
    "schedule study {t}",
    "I moved to {p}",
    "{v}, and {v}",
    "not {v}, {v}",
]  # fmt: skip


@st.composite
def _templated(draw: st.DrawFn) -> str:
    out = draw(st.sampled_from(TEMPLATES))
    fill = {
        "{l}": LANGUAGES, "{f}": FIELDS, "{n}": NAMES, "{p}": PLACES, "{t}": TIMES,
        "{v}": LANGUAGES + OTHER_LANGUAGES + NUMBERS + PLACES + TIMES + WORDS,
    }  # fmt: skip
    while "{" in out:
        key = out[out.index("{") : out.index("}") + 1]
        out = out.replace(key, draw(st.sampled_from(fill[key])), 1)
    return out


MESSAGES = st.one_of(
    _templated(),
    _templated(),  # twice: the asides' and readers' own phrasings are the likelier way in
    st.sampled_from(LANGUAGES + OTHER_LANGUAGES + FIELDS + NAMES + PLACES + TIMES + NUMBERS + WORDS),
    st.lists(st.sampled_from(LANGUAGES + NUMBERS + PLACES + TIMES + WORDS), min_size=2, max_size=6).map(" ".join),
    st.text(max_size=80),
)


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[tuple[Resting, Path]]]:
    folder = tmp_path_factory.mktemp("resting")
    # each script's result as test_replay plays it (tests/clocks.py: once per session), not again here
    clocks = dict(with_clocks(SCRIPTS))
    found = resting_places(scripts_in([REPLAYS]), played=lambda script: replayed(script.path, clocks.get(script.path)))
    yield [(p, prepare(p, folder)) for p in found]


def test_the_scripts_reach_every_asking_state_of_every_shipped_bot(places: list[tuple[Resting, Path]]) -> None:
    reached = {p.name for p, _ in places}
    expected = {
        f"{b.name}:{f.name}.{s.name}" for b in shipped_bots() for f in b.flows for s in f.states if isinstance(s, Ask)
    }
    assert expected - reached == set()
    assert {f"{b.name}:main" for b in shipped_bots()} <= reached


def _fuzz(place: Resting, prepared: Path, folder: Path) -> None:
    @settings(max_examples=15, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(message=MESSAGES)
    def answer(message: str) -> None:
        with at(place, prepared, folder) as engine:
            try:
                result = engine.turn(place.bot, place.script.user, message)
            except EngineError:
                return  # the project's own errors may come out: they carry what went wrong
            except Exception as e:
                pytest.fail(f"{place.name}: {message!r} raised {type(e).__name__}: {e}")
            assert result.rejected or result.reply.strip(), f"{place.name}: empty reply to {message!r}"

    answer()


def test_no_foreign_exception_escapes_a_turn_at_any_resting_state(
    places: list[tuple[Resting, Path]], tmp_path: Path
) -> None:
    for place, prepared in places:
        _fuzz(place, prepared, tmp_path)
