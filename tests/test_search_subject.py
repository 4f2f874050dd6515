"""What a request is about, and whether the help centre names it (flows/support/subject.py): a
request linking the product to a thing no article names finds no article, however well its other
words match."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.support.kb import SHIPPED_KB, KnowledgeBase
from flows.support.lookup import look_up
from flows.support.subject import Subjects, Words, reads_as_english
from tests.test_search import doc, make_kb

CALENDAR = doc(
    "Connect Google Calendar or Outlook",
    "Open Settings and click Connect Google Calendar. Your tasks appear in your calendar within minutes.",
    "tags: [calendar, outlook, integration]\n",
)
IMPORT = doc(
    "Import tasks from Trello",
    "Export a JSON file from Trello, then open Settings and choose Import.",
    "tags: [import, trello]\n",
)
CARD = doc("Payment declined", "A declined card is refused by your bank. Try another card.", "tags: [payment, card]\n")


def centre(*texts: str, headings: str = "") -> Words:
    """The words of `texts` as a help centre's; `headings` the stems of its titles and tags."""
    return Words({w for t in texts for w in t.split()}, headings.split())


WORDS = centre("connect calendar google outlook tasks settings sync wont keeps", headings="connect calendar sync")
HELP = Subjects(WORDS, ours=["tasklane"])


@pytest.mark.parametrize(
    ("request_", "head"),
    [
        ("connect tasklane to slack", ("slack",)),  # linked from the product: what it is about
        ("can i connect my calendar to wrike?", ("wrike",)),  # linked from a heading word
        ("sync my tasks with my garmin", ("garmin",)),  # a determiner between the link and the thing
        ("tasklane vs basecamp", ("basecamp",)),
    ],
)
def test_the_thing_a_request_links_the_product_to_is_its_subject(request_: str, head: tuple[str]) -> None:
    assert HELP.outside(request_) == head


@pytest.mark.parametrize(
    "request_",
    [
        "connect tasklane to my gmail calendar",  # "gmail" modifies the calendar, a heading word
        "connect tasklane to a revolut google calendar",  # through a known modifier to the heading word
        "how to resize the calendar in tasklane",  # an unknown word before a determiner is a verb
        "my calendar is off since i flew to tokyo",  # told as done: where, not what
        "i moved my calendar to lisbon",
        "my calendar is off whenever i fly to tokyo",  # the person goes there, told in the present
        "the calendar sync stops when we travel to lisbon",
        "i need to take my pills every day",  # a link from nothing of the help centre's
        "my recipes wont sync",  # no link: what a request names after "my" is not judged (a name the
        # world shares is: "my dropbox wont sync", test_a_name_the_world_shares_...)
        "my to-dos are not in my calendar",  # one word, not "to" and "dos"
        "connect the calendar with the moment",  # a common word is how people talk, not a name
    ],
)
def test_words_around_a_request_are_not_its_subject(request_: str) -> None:
    assert HELP.outside(request_) is None


def test_a_word_shortened_from_a_title_word_is_that_word() -> None:
    words = Words({"account", "connect", "password"}, ["account", "connect"], ["account", "password", "connect"])
    short = Subjects(words)
    assert short.outside("connect with my acc") is None
    assert short.outside("connect with my acct") is None
    assert short.outside("connect it with my pwd") is None
    # a name is no shortened title word: not its first letter, or its letters out of order
    assert short.outside("connect with my dropbox") == ("dropbox",)
    assert short.outside("connect with my pasport") == ("pasport",)


def test_a_request_in_another_language_is_not_judged() -> None:
    assert not reads_as_english(["quero", "compartilhar", "uma", "lista", "com", "meu", "marido"])
    assert reads_as_english(["connect", "tasklane", "to", "slack"])
    assert HELP.outside("quero compartilhar uma lista com meu marido") is None


def test_the_article_found_must_name_the_subject_another_article_names() -> None:
    export = Words({"export", "csv", "json", "tasks"}, ["export"])
    notion = Subjects(centre("export csv json tasks notion import", headings="export import"), {"export-data": export})
    # the help centre names notion (the import article), the export article does not
    assert notion.outside("can i export to notion") is None
    assert notion.outside("can i export to notion", doc_id="export-data") == ("notion",)
    assert notion.outside("can i export to csv", doc_id="export-data") is None


def test_the_spelling_is_fixed_before_the_subject_is_judged() -> None:
    assert HELP.outside("connect tasklane to my calender", fix=lambda w: "calendar" if w == "calender" else w) is None
    assert HELP.outside("connect tasklane to my calender") == ("calender",)


def test_a_knowledge_base_finds_nothing_for_a_request_about_what_it_never_names(tmp_path: Path) -> None:
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"calendar.md": CALENDAR, "import.md": IMPORT, "card.md": CARD}))
    assert [h.doc.id for h in kb.search("connect tasklane to my gmail calendar")] == ["calendar"]
    # "visa" is a name the world shares that this help centre never says, and it writes no make before a
    # card: the request is the name's (Subjects.worldwide); one that writes "Visa or Mastercard card"
    # knows the name, and cards come in makes there (test_a_card_make_...)
    assert kb.search("my visa card is refused") == []
    assert [h.doc.id for h in kb.search("my revolut card is refused")] == ["card"]  # a name of English only
    assert kb.search("connect tasklane to wrike") == []
    assert kb.search("can i connect my calendar to wrike") == []
    # once an article names it, the request is the article's
    named = CALENDAR.replace("within minutes.", "within minutes. Wrike connects the same way.")
    (kb.folder / "calendar.md").write_text(named, encoding="utf-8")
    assert [h.doc.id for h in kb.search("connect tasklane to wrike")] == ["calendar"]


def test_the_shipped_help_centre_says_it_does_not_cover_another_product() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    # no list of the help centre's names "basecamp" or "figma": the shape of the request does
    assert look_up(kb, "does tasklane integrate with basecamp").kind == "not_covered"
    assert look_up(kb, "connect tasklane to figma").kind == "not_covered"
    assert look_up(kb, "connect tasklane to my google calendar").doc_id == "calendar-integration"
    assert look_up(kb, "i need to take my pills every day, can the task repeat").doc_id == "recurring-tasks"
    assert look_up(kb, "reminders are late since i moved to lisbon").doc_id == "reminders-wrong-time"
    assert look_up(kb, "reminders come at the wrong time when i fly to tokyo").doc_id == "reminders-wrong-time"
    assert look_up(kb, "export my tasks to airtable").kind == "not_covered"  # not "portable"


OWNING = Subjects(
    centre("account password subscription card calendar google", headings="account password subscription card"),
    ours=["tasklane"],
    owned=["account", "password", "subscription"],
)


@pytest.mark.parametrize(
    ("request_", "owner"),
    [
        ("my peloton subscription renewed", ("peloton",)),  # a name before what the product owns
        ("reset my roblox password", ("roblox",)),
        ("sign in with a fortnite account", ("fortnite",)),
    ],
)
def test_a_name_before_what_the_product_owns_makes_it_another_companys(request_: str, owner: tuple[str]) -> None:
    assert OWNING.outside(request_) == owner


@pytest.mark.parametrize(
    "request_",
    [
        "my revolut card is refused",  # a card is not the product's: any bank's is the article's
        "my google account password",  # a name the help centre says
        "my work account got hacked",  # a common word, not a name
        "my roblox account is my tasklane login",  # naming the product, it is about the product
        "turn on two-step password",  # a hyphen parts words: "step", a common word, is no name
    ],
)
def test_what_else_comes_before_what_the_product_owns_is_not_a_subject(request_: str) -> None:
    assert OWNING.outside(request_) is None


def test_the_shipped_help_centre_does_not_answer_for_another_companys_account() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    # named by no list: the concept table's `owned` words and the shape do it
    assert look_up(kb, "cancel my peloton membership").kind == "not_covered"
    assert look_up(kb, "my duolingo premium expired").kind == "not_covered"
    assert look_up(kb, "reset my roblox password").kind == "not_covered"
    assert look_up(kb, "cancel my premium membership").doc_id == "cancel-subscription"
    assert look_up(kb, "my revolut card was declined when upgrading").doc_id == "payment-declined"


CRASH_WORDS = Words(
    {"app", "crashes", "closes", "freezes", "startup", "restart", "phone", "ipad", "mac", "authenticator"},
    ["app", "crash", "close", "freez", "startup", "authent"],
)
NOTIFY_WORDS = Words({"notifications", "android", "phone", "pixel"}, ["notif", "android"])
DEVICES = ["phone", "ipad", "laptop", "tablet", "pixel", "android", "mobile", "device", "devices"]
MAKES = Subjects(
    centre("app crashes freezes notifications android"),
    {"app-crashes": CRASH_WORDS, "notifications-android": NOTIFY_WORDS},
    ours=["tasklane", "task", "tasks"],
    devices=DEVICES,
)


@pytest.mark.parametrize(
    ("request_", "device"),
    [
        ("my laptop keeps freezing", "laptop"),  # the device is what the symptom is told of
        ("my kids tablet keeps restarting?", "tablet"),  # whose device it is, before it
        ("hi, my ipad crashes", "ipad"),  # said first in its clause
    ],
)
def test_a_device_a_request_tells_something_of_is_its_subject(request_: str, device: str) -> None:
    assert MAKES.device(request_, doc_id="app-crashes") == device


@pytest.mark.parametrize(
    "request_",
    [
        "my iphone keeps closing the app",  # the product's own object: the app closes
        "my ipad crashes when i open tasklane",  # the product named
        "my phone lost my authenticator",  # the article's thing, had ("my authenticator")
        "tasklane crashes on my laptop",  # the device is where, not the subject of the clause
        "it freezes since i got a new laptop",  # the device is not said first in its clause
    ],
)
def test_a_device_beside_the_product_or_the_articles_thing_is_no_subject(request_: str) -> None:
    assert MAKES.device(request_, doc_id="app-crashes") is None


def test_a_device_may_be_the_subject_of_an_article_about_what_a_device_does() -> None:
    # the Android article's tags name a device, and the crash article's questions may ask which one
    assert MAKES.device("my pixel doesnt notify me", doc_id="notifications-android") is None
    asking = Subjects(
        centre("app crashes"), {"app-crashes": CRASH_WORDS}, devices=DEVICES, asked={"app-crashes": ["which", "phone"]}
    )
    assert asking.device("my laptop keeps freezing", doc_id="app-crashes") is None


@pytest.mark.parametrize(
    ("request_", "name"),
    [("my banking app keeps crashing", "banking"), ("our weather apps crash", "weather")],
)
def test_another_app_of_the_users_is_not_the_product(request_: str, name: str) -> None:
    assert MAKES.other_app(request_, doc_id="app-crashes") == name


@pytest.mark.parametrize(
    "request_",
    [
        "my android app keeps crashing",  # the product on a device
        "my mobile app freezes",
        "my authenticator app is gone",  # a word the article says
        "this stupid app keeps crashing",  # not a possessive: the product, spoken of
        "our shared app list disappeared",  # the app's list
        "my banking app crashes when tasklane opens",  # naming the product
    ],
)
def test_the_product_on_a_device_or_a_word_the_article_says_is_no_other_app(request_: str) -> None:
    assert MAKES.other_app(request_, doc_id="app-crashes") is None


def test_the_shipped_help_centre_tells_a_device_and_another_app_from_the_product() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    assert look_up(kb, "my laptop keeps freezing").kind == "not_covered"
    assert look_up(kb, "my grandmas ipad keeps restarting").kind == "not_covered"
    assert look_up(kb, "my music app keeps crashing").kind == "not_covered"
    assert look_up(kb, "my laptop keeps closing the app").doc_id == "app-crashes"
    assert look_up(kb, "my pc freezes on startup when i open the desktop version").doc_id == "app-crashes"
    assert look_up(kb, "my pixel doesnt notify me").doc_id == "notifications-android"
    assert look_up(kb, "my laptop doesnt remind me on time").doc_id == "reminders-wrong-time"
    assert look_up(kb, "my android app keeps crashing").doc_id == "app-crashes"
    # named only by where ("ipad"), the iPhone notifications article is no answer
    assert look_up(kb, "my ipad screen is cracked").kind == "not_covered"
    assert look_up(kb, "my phone and my ipad dont show the same lists").doc_id == "sync-not-working"
    assert look_up(kb, "no notifications on my ipad").doc_id == "notifications-iphone"


def test_a_common_word_of_another_language_is_no_name() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    # the glossary writes "pago rechazado" as "payment declined"; "comprar" is Spanish, not a company
    assert look_up(kb, "pago rechazado al comprar premium").doc_id == "payment-declined"
    # names are as rare abroad: still another company's
    assert look_up(kb, "cancel my peloton membership").kind == "not_covered"
    assert look_up(kb, "can i export to notion").kind == "not_covered"  # French "notion" is no commoner


RESET_WORDS = Words(
    {"reset", "forgotten", "password", "forgot", "email", "link", "google", "apple", "sign", "in"},
    ["reset", "forgotten", "password", "forgot", "login"],
)
ALERT_WORDS = Words({"notifications", "android", "phone", "samsung", "battery", "alerts"}, ["notif", "android"])
WHOSE = Subjects(
    centre("reset password forgot notifications android"),
    {"reset-password": RESET_WORDS, "notifications-android": ALERT_WORDS},
    ours=["tasklane", "task", "tasks"],
    owned=["password", "login", "account"],
    devices=[*DEVICES, "samsung"],
    covers={"reset-password": RESET_WORDS, "notifications-android": ALERT_WORDS},
)


@pytest.mark.parametrize(
    ("request_", "thing"),
    [
        ("i forgot my wifi password", ("wifi", "password")),  # a name before what the product owns
        ("the hotel wifi password doesnt work", ("wifi", "password")),  # the word right before it
        ("i forgot my laptop password", ("laptop", "password")),  # a device's login
        ("forgot my phone pin", ("phone", "pin")),  # a device's thing that no article covers
        ("i need to pay my phone bill.", ("phone", "bill")),
    ],
)
def test_a_thing_of_the_users_device_or_of_another_name_is_not_the_articles(
    request_: str, thing: tuple[str, ...]
) -> None:
    assert WHOSE.elsewhere(request_, doc_id="reset-password") == thing


@pytest.mark.parametrize(
    "request_",
    [
        "i forgot my tasklane password",  # the product's
        "my old password doesnt work",  # a common word: how the password is, not whose
        "i forgot my google password",  # a name the article says (Google sign-in)
        "there is an unfamiliar login",  # a kind of login, not the user's thing
        "my phone notifications are off",  # a device's thing an article covers
        "my samsung never beeps",  # what is told of the device, not a thing of it
        "forgot my phone tasks",  # the product's object
        "olvidé mi contraseña del wifi",  # another language: not judged
    ],
)
def test_the_products_thing_or_a_thing_an_article_covers_is_not_elsewhere(request_: str) -> None:
    assert WHOSE.elsewhere(request_, doc_id="reset-password") is None


def test_the_shipped_help_centre_does_not_answer_for_a_devices_or_another_things_password() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    assert look_up(kb, "the hotel wifi password doesnt work").kind == "not_covered"
    assert look_up(kb, "i forgot my laptop password").kind == "not_covered"
    assert look_up(kb, "i forgot my phone pin").kind == "not_covered"
    assert look_up(kb, "i forgot the password for my tasklane account").doc_id == "reset-password"
    assert look_up(kb, "my old password doesnt work").doc_id == "reset-password"
    assert look_up(kb, "my samsung never beeps when something is due, why?").doc_id == "notifications-android"


# -- a name the world shares (Subjects.worldwide) ---------------------------------------------

WORLD = Subjects(
    centre(
        "crash crashes app sync refund hacked account password google outlook tasks reminders calendar",
        headings="calendar account",
    ),
    owned=["account", "password"],
    ours=["tasklane", "task", "tasks", "reminder", "reminders"],
    devices=[*DEVICES, "iphone"],
    made=["calendar"],  # the help centre writes "Google Calendar"
)


@pytest.mark.parametrize(
    ("request_", "name"),
    [
        ("my wechat keeps crashing", "wechat"),  # as common in the other languages as in English
        ("refund my nintendo game", "nintendo"),  # famous, so common in English too: not "rare"
        ("my wordpress site got hacked", "wordpress"),
        ("i want to cancel my disney", "disney"),
        ("my dropbox wont sync", "dropbox"),
        ("delete my twitter account", "twitter"),  # what the product owns, said for the name
        ("my wechat crashes all the time", "wechat"),  # what happens to it, not a make of a thing
    ],
)
def test_a_name_the_world_shares_that_the_help_centre_never_says_is_the_subject(request_: str, name: str) -> None:
    assert WORLD.worldwide(request_) == name
    assert WORLD.outside(request_) == (name,)


@pytest.mark.parametrize(
    "request_",
    [
        "my recipes disappeared",  # an English noun: far rarer abroad, what people keep in lists
        "my daughter deleted my stuff",
        "my groceries vanished",
        "my wechat tasks keep crashing",  # the product's: its tasks
        "my strava list wont sync",  # the product's object
        "i lost my phone in paris and someone logged in",  # a place the user is at: where
        "someone from berlin logged into my account",
        "my google account was hacked",  # a name the help centre says
        "connect my gmail calendar",  # the make of a thing an article covers (a heading word)
        "my iphone keeps crashing",  # a device the product runs on
        "mi cuenta de nintendo",  # another language: not judged
        "quiero un reembolso",  # another language's own words are no names
    ],
)
def test_a_noun_a_place_the_products_thing_or_a_known_name_is_not_a_name_elsewhere(request_: str) -> None:
    assert WORLD.worldwide(request_) is None


def test_the_shipped_help_centre_does_not_answer_for_a_name_the_world_shares() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    # none of these names is on the concept table's elsewhere list: the words alone tell them
    assert look_up(kb, "my wechat keeps crashing").kind == "not_covered"
    assert look_up(kb, "my strava wont sync").kind == "not_covered"
    assert look_up(kb, "refund my nintendo game").kind == "not_covered"
    assert look_up(kb, "my wordpress site got hacked").kind == "not_covered"
    # the same shapes about the product, a place or a card still find their article
    assert look_up(kb, "tasklane keeps crashing").doc_id == "app-crashes"
    assert look_up(kb, "reminders are late since i moved to tokyo").doc_id == "reminders-wrong-time"
    assert look_up(kb, "premium charge showed up on my revolut twice").doc_id == "refund-request"
    assert look_up(kb, "someone from brazil logged into my account").doc_id == "account-compromised"


def test_a_card_make_the_help_centre_writes_is_a_make_of_the_card(tmp_path: Path) -> None:
    card = doc(
        "Payment declined",
        "A declined card is refused by your bank. We take any Visa or Mastercard card.",
        "tags: [payment, card]\n",
    )
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"card.md": card}))
    assert [h.doc.id for h in kb.search("my visa card is refused")] == ["card"]  # said by the help centre
    # a name the help centre never says, before a thing it writes after a name: a make of the card
    assert [h.doc.id for h in kb.search("my nintendo card is refused")] == ["card"]
    # and before what happens, the name's thing ("my nintendo crashes")
    assert kb.search("my nintendo payment is refused") == []
