"""A yes to what the main conversation proposed is read as the words proposed; a no is acknowledged.

At an open question, a yes to an offered message ("Did you mean English?") was already read as
that message; with no flow open nothing read it, so "sure" after study-pal's "Try a lesson first,
for example 'teach me limits'" got the capabilities.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from engine.authoring.testing import DialogueFactory
from engine.clock import pinned_clock

AT = datetime(2026, 11, 25, 20, 0)


@pytest.mark.parametrize("yes", ["sure why not", "yes", "ok let's do it"])
def test_a_yes_starts_what_was_proposed(dialogue: DialogueFactory, yes: str) -> None:
    with pinned_clock(AT):
        chat = dialogue("study-pal")
        chat.say("can you analyze my weak points?")
        assert "for example 'teach me limits'" in chat.reply and chat.flow == "main"
        chat.say(yes)
        assert chat.flow == "tutoring" and chat.reply.startswith("Let's learn Limits")


def test_a_no_is_acknowledged_and_nothing_starts(dialogue: DialogueFactory) -> None:
    with pinned_clock(AT):
        chat = dialogue("study-pal")
        chat.say("can you analyze my weak points?")
        chat.say("nah")
        assert chat.reply == "OK, no problem." and chat.flow == "main"
        chat.say("yes")  # the proposal was answered: a later yes is no acceptance of it
        assert chat.flow == "main"


def test_anything_else_is_read_as_itself(dialogue: DialogueFactory) -> None:
    with pinned_clock(AT):
        chat = dialogue("study-pal")
        chat.say("can you analyze my weak points?")
        chat.say("teach me derivatives")
        assert chat.flow == "tutoring" and "Derivatives" in chat.reply


def test_a_yes_that_opens_a_request_of_its_own_is_that_request(dialogue: DialogueFactory) -> None:
    with pinned_clock(AT):
        chat = dialogue("study-pal")
        chat.say("can you analyze my weak points?")
        chat.say("ok then teach me integration, i know derivatives already")
        assert chat.flow == "tutoring" and chat.slots["concept"] == "integration"
