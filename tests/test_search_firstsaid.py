"""What a request tells an article's problem of (flows/support/firstsaid.py): an article about what the
app does (`subject: app`) is no answer to the same words told of another thing, said first."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.support.firstsaid import named_first, thing_said_first, told_of
from flows.support.kb import SHIPPED_KB, KnowledgeBase
from flows.support.lookup import look_up
from flows.support.spelling import STEMMER
from flows.support.subject import Subjects, Words
from flows.support.terms import tokens_of
from tests.test_search import doc, make_kb

CRASH = Words(
    [
        "the",
        "app",
        "crashes",
        "or",
        "closes",
        "on",
        "startup",
        "update",
        "tasklane",
        "in",
        "the",
        "play",
        "store",
        "restart",
        "phone",
        "cache",
        "reminder",
    ],
    STEMMER.stemWords(["crash", "close", "startup", "calendar", "reminder"]),
)
DEVICES = frozenset({"phone", "ipad", "tablet", "laptop"})


@pytest.mark.parametrize(
    ("request_", "thing"),
    [
        ("my router keeps restarting", "router"),
        ("the google play store keeps crashing", "google"),  # the store is said in the article, not google
        ("my fridge wont connect to the wifi", "fridge"),  # "connect" is told of it, not what it modifies
        ("hi, my garage door opener wont connect", "garage"),  # a clause starts after a greeting
        ("it is fine. my printer keeps crashing", "printer"),  # and after a mark
    ],
)
def test_another_thing_said_first_is_what_the_request_tells_of(request_: str, thing: str) -> None:
    assert thing_said_first(tokens_of(request_), CRASH, DEVICES) == thing


@pytest.mark.parametrize(
    "request_",
    [
        "my phone keeps crashing",  # a device the product runs on
        "the app keeps crashing on my ipad",  # a vague word, the product spoken of
        "my kids tablet keeps crashing",  # whose device: a device within the next words
        "my work calendar wont connect",  # which calendar: a word of the article's headings
        "my dentist reminder came late",
        "my husbands changes dont sync",  # whose changes: the product's objects and what is done to them
        "crashing on my ipad since the last update",  # "since": a clause that says when, not its subject
        "keeps crashing after the update",  # no thing said first
        "my cache is broken",  # a word the article says
    ],
)
def test_a_device_a_covered_thing_or_whose_one_is_not_another_thing(request_: str) -> None:
    assert thing_said_first(tokens_of(request_), CRASH, DEVICES) is None


def test_only_an_article_about_what_the_app_does_is_judged() -> None:
    help_centre = Subjects(CRASH, covers={"crash": CRASH, "restore": CRASH}, ours=["tasklane"], apps=["crash"])
    assert told_of(help_centre, "my router keeps crashing", doc_id="crash") == "router"
    # an article about the user's data may be told of anyone ("my daughter deleted my stuff")
    assert told_of(help_centre, "my router keeps crashing", doc_id="restore") is None
    # a request naming the product or its objects is about it; one in another language is not judged
    assert told_of(help_centre, "my router keeps crashing tasklane", doc_id="crash") is None
    assert told_of(help_centre, "my router keeps closing the app", doc_id="crash") is None
    assert told_of(help_centre, "mi router se cierra siempre", doc_id="crash") is None


CRASHES = doc(
    "The app crashes on startup",
    "Update the app and restart your phone. Clear the cache if it still crashes.",
    "tags: [crash, crashes, startup]\nsubject: app\n",
)
RESTORE = doc(
    "Restore deleted tasks",
    "Open the trash and tap Restore. Deleted tasks stay there for 30 days.",
    "tags: [restore, deleted, disappeared]\n",
)


def test_a_knowledge_base_finds_nothing_for_an_apps_problem_told_of_another_thing(tmp_path: Path) -> None:
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"crash.md": CRASHES, "restore.md": RESTORE}))
    assert [h.doc.id for h in kb.search("my phone keeps crashing on startup")] == ["crash"]
    assert kb.search("my router keeps crashing on startup") == []
    # an article without `subject: app` is about data anyone may be told of
    assert [h.doc.id for h in kb.search("my recipes disappeared")] == ["restore"]
    # once the article says it, the thing is one it covers
    (kb.folder / "crash.md").write_text(CRASHES.replace("your phone.", "your phone or router."), encoding="utf-8")
    assert [h.doc.id for h in kb.search("my router keeps crashing on startup")] == ["crash"]


def test_a_subject_other_than_app_or_any_is_refused(tmp_path: Path) -> None:
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"crash.md": CRASHES.replace("subject: app", "subject: device")}))
    assert "crash" not in kb.documents
    assert any("crash.md" in p and "subject" in p for p in kb.problems)


@pytest.mark.parametrize(
    ("request_", "answer"),
    [
        ("my router keeps restarting", None),
        ("the google play store keeps crashing", None),
        ("my garage door opener wont connect", None),
        ("my fridge wont connect to the wifi", None),
        ("my login email is outdated", "change-email"),  # the runner-up covers the login: it answers
        ("my iphone keeps closing the app", "app-crashes"),
        ("my work calendar wont connect", "calendar-integration"),
        ("my daughter deleted my stuff, can i get it back", "restore-deleted-tasks"),
        ("my revolut card gets refused when i upgrade", "payment-declined"),
    ],
)
def test_the_shipped_help_centre_tells_the_apps_problem_from_another_things(
    request_: str, answer: str | None, tmp_path: Path
) -> None:
    kb = KnowledgeBase(SHIPPED_KB, str(tmp_path / "index.db"))
    assert look_up(kb, request_).answer == answer


# another product the titles name ("Connect Google Calendar or Outlook") said first, with what goes wrong
NAMED = Subjects(
    Words([], STEMMER.stemWords(["crash", "calendar", "outlook", "google", "connect", "sync"])),
    ours=["tasklane", "tasks", "reminders"],
    covers={
        "crash": CRASH,
        "calendar": Words(
            ["connect", "google", "calendar", "outlook", "sync", "events"],
            STEMMER.stemWords(["connect", "google", "calendar", "outlook"]),
        ),
        "notify": Words(["notifications", "late", "push"], STEMMER.stemWords(["notifications", "push"])),
    },
    apps=["crash", "calendar", "notify"],
    named=["outlook", "google", "calendar"],
)


@pytest.mark.parametrize(
    ("request_", "doc_id", "name"),
    [
        ("outlook keeps crashing on startup", "crash", "outlook"),  # bare, and the crash article never says it
        ("my outlook crashes", "crash", "outlook"),
        ("outlook notifications are late", "calendar", "outlook"),  # named, but notifications are another's
        ("google calendar keeps crashing", "calendar", "google"),  # past the rest of the name to what is told
        ("todoist reminders arrive late", "notify", None),  # not a name the titles write, nor the world's
    ],
)
def test_a_name_said_first_is_another_products_problem(request_: str, doc_id: str, name: str | None) -> None:
    assert named_first(NAMED, request_, doc_id=doc_id) == name


@pytest.mark.parametrize(
    ("request_", "doc_id"),
    [
        ("google calendar wont connect", "calendar"),  # connecting is what the calendar article explains
        ("outlook sync", "calendar"),  # the article says it does that for Outlook
        ("outlook keeps crashing tasklane", "crash"),  # the product said elsewhere: about ours
        ("my phone keeps crashing", "crash"),  # a device is no other product
        ("the app crashes when i open outlook", "crash"),  # outlook is not said first
        ("outlook se cierra siempre", "crash"),  # another language is not judged
    ],
)
def test_a_name_the_article_answers_for_or_not_said_first_is_not_judged(request_: str, doc_id: str) -> None:
    assert named_first(NAMED, request_, doc_id=doc_id) is None


@pytest.mark.parametrize(
    ("request_", "answer"),
    [
        ("outlook keeps crashing on startup", None),
        ("outlook notifications are late", None),
        ("google calendar wont connect", "calendar-integration"),
        ("outlook wont sync with tasklane", "calendar-integration"),
    ],
)
def test_the_shipped_help_centre_tells_a_named_products_problem_from_ours(
    request_: str, answer: str | None, tmp_path: Path
) -> None:
    kb = KnowledgeBase(SHIPPED_KB, str(tmp_path / "index.db"))
    assert look_up(kb, request_).answer == answer


def test_the_names_a_title_writes_are_other_products_not_ours() -> None:
    named = KnowledgeBase(SHIPPED_KB).subjects.named
    assert {"outlook", "todoist", "google"} <= named
    # "Cancel your Premium subscription", "Request a refund for Tasklane Premium": the product's own
    assert "premium" not in named and "tasklane" not in named
