"""What a turn leaves for the next (`SessionState.carry`, a `CarryOver`), and sessions stored
before it existed, which kept it in four keys of the session's memory.

A schema-2 database (no `carry` column, the old keys in `context`) is made by hand on each
SQL backend; opening it migrates the table, and loading a session moves the old keys to
`carry`, so the next message reads them as it did then.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

import engine.store.schema as schema
from engine import Bot, Engine, Registry, SqlStore
from engine.models import CarryOver, SessionState, carry_from_context
from flows.language_buddy.bot import FEEDBACK
from flows.shared.feedback import feedback

BOT = "carry-feedback"
BOTS = Registry([Bot(name=BOT, persona="a test bot", flows=[feedback], intents=[FEEDBACK], capabilities="c")])


def as_schema_2(url: str, context: dict[str, object]) -> None:
    """The database at `url` as schema 2 left it: no `carry` column, every session's
    carry-over in its memory's old keys (here `context`)."""
    db = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with db.begin() as conn:
        conn.execute(text("ALTER TABLE sessions DROP COLUMN carry"))
        conn.execute(text("ALTER TABLE sessions DROP COLUMN flow_declined"))  # schema 4's
        conn.execute(text("ALTER TABLE sessions DROP COLUMN pending"))  # schema 5's
        conn.execute(text("UPDATE sessions SET context = :c"), {"c": json.dumps(context)})
        conn.execute(text("UPDATE innerloop_meta SET value = '2' WHERE key = 'schema_version'"))
    db.dispose()


def sqlalchemy_url(store_url: str) -> str:
    return store_url if "://" in store_url else f"sqlite:///{store_url}"


def stored_row(url: str) -> tuple[str, str]:
    db = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with db.connect() as conn:
        row = conn.execute(text("SELECT context, carry FROM sessions")).one()
    db.dispose()
    return str(row[0]), str(row[1])


def test_a_session_stored_with_the_old_keys_carries_them_over(store_url: str) -> None:
    url = sqlalchemy_url(store_url)
    store = SqlStore(url)
    Engine(store, bots=BOTS).turn(BOT, "old", "I want to give feedback")
    store.close()
    as_schema_2(
        url,
        {
            "innerloop.offered": "4",  # an aside's "Did you mean ...?" at the rating
            "innerloop.pending": ["Agent: sorry for the wait"],
            "innerloop.confirm": "feedback",
            "favourite": "tea",  # the bot's own memory stays where it is
        },
    )
    store = SqlStore(url)
    assert store.schema_version == schema.SCHEMA_VERSION
    loaded = store.load(BOT, "old")
    assert loaded is not None
    assert loaded.carry == CarryOver(offered="4", pending=["Agent: sorry for the wait"], confirm="feedback")
    assert loaded.context == {"favourite": "tea"}
    # the next message reads them as the old keys were read: told first, a yes takes the offer
    r = Engine(store, bots=BOTS).turn(BOT, "old", "yes")
    assert r.reply.startswith("Agent: sorry for the wait\n\n")
    assert (r.flow, r.state, r.slots["rating"]) == ("feedback", "details", 4)
    assert r.trace is not None and [n.detail for n in r.trace.noticed("offer")] == ["4"]
    store.close()
    context, carry = stored_row(url)
    assert json.loads(context) == {"favourite": "tea"} and carry == "{}"


def test_old_keys_holding_what_no_turn_could_read_are_dropped(store_url: str) -> None:
    url = sqlalchemy_url(store_url)
    store = SqlStore(url)
    Engine(store, bots=BOTS).turn(BOT, "odd", "I want to give feedback")
    store.close()
    as_schema_2(url, {"innerloop.offered": 4, "innerloop.pending": "not a list", "innerloop.suggested": None})
    store = SqlStore(url)
    loaded = store.load(BOT, "odd")
    assert loaded is not None and loaded.carry == CarryOver() and loaded.context == {}
    r = Engine(store, bots=BOTS).turn(BOT, "odd", "yes")  # no offer to say yes to: no rating
    assert (r.state, r.slots["rating"]) == ("rating", None)
    store.close()


def test_what_a_turn_leaves_is_stored_in_its_own_column_and_read_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/s.db"
    now = [datetime(2026, 3, 2, 9, 0, tzinfo=UTC)]
    store = SqlStore(url)
    e = Engine(store, bots=BOTS, clock=lambda: now[0])
    e.turn(BOT, "ann", "I want to give feedback")
    now[0] += timedelta(days=2)
    assert e.expire_idle() == 1  # the run is closed now; ann hears of it next time
    context, carry = stored_row(url)
    assert context == "{}"
    assert CarryOver.model_validate_json(carry).pending == [
        "(Your unfinished feedback was closed: nothing was said in it for 2 days.)"
    ]
    r = e.turn(BOT, "ann", "hello")
    assert r.reply.startswith("(Your unfinished feedback was closed")
    assert stored_row(url) == ("{}", "{}")
    store.close()


@pytest.mark.parametrize(
    ("context", "carry", "left"),
    [
        ({"innerloop.suggested": "German", "x": 1}, CarryOver(suggested="German"), {"x": 1}),
        ({"innerloop.pending": ["a", 2]}, CarryOver(pending=["a", "2"]), {}),
        ({"innerloop.agent": {"since": "2026-01-01T00:00:00Z", "reason": "r"}}, CarryOver(), None),
    ],
)
def test_carry_from_context_moves_only_the_old_carry_keys(
    context: dict[str, object], carry: CarryOver, left: dict[str, object] | None
) -> None:
    s = SessionState.model_validate({"id": "s", "bot": "b", "user": "u", "context": context})
    moved = carry_from_context(s)
    assert moved.carry == carry
    assert moved.context == (context if left is None else left)  # the agent hold is no carry-over
