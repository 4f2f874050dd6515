"""No database error reaches a caller but as a StoreError naming the operation; no URL is shown with its password.

On the real PostgreSQL server the suite starts (tests/pg.py): every public store, engine and
text-index method with the server stopped, and the text index after a restart (one reconnect,
the store's own policy). On SQLite: a write lock held by another process. A role that needs a
password: given in the URL or in PGPASSWORD, and shown nowhere (errors and their tracebacks,
repr, the command line's error line, `sessions list`, the chat's header, logs).
"""

from __future__ import annotations

import logging
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from engine import Engine, InputRejected, MemoryStore, SqlStore, StoreError
from engine.models import RecordDraft
from engine.store.textindex import FtsTextIndex, IndexedDoc, PgTextIndex, location
from flows.support.kb import SHIPPED_KB, KnowledgeBase
from tests.pg import PgServer, why_not
from tests.test_store import new_session, step

ROOT = Path(__file__).resolve().parent.parent
needs_pg = pytest.mark.skipif(why_not() is not None, reason=f"PostgreSQL backend not tested: {why_not()}")
DOCS = {
    "reset": IndexedDoc("reset password", "password login", "how to reset a forgotten password", "h1"),
    "billing": IndexedDoc("billing cycle", "invoice", "when the card is charged", "h2"),
}


def failure(call: Callable[[], object]) -> StoreError:
    """The StoreError `call` raises (any other exception fails the test as it is)."""
    with pytest.raises(StoreError) as caught:
        call()
    return caught.value


# -- the server stopped under every public method ---------------------------------------------


@dataclass
class Down:
    store: SqlStore
    engine: Engine
    index: PgTextIndex
    kb: KnowledgeBase
    session_id: str


@pytest.fixture(scope="class")
def down(pg_server: PgServer) -> Iterator[Down]:
    """A store, an engine, a text index and the support bot's knowledge base, all used once on a
    live server, which is then stopped for the class's tests."""
    url = pg_server.database()
    store = SqlStore(url)
    engine = Engine(store)
    engine.turn("support", "ann", "how do I reset my password")  # the knowledge base's index is on PostgreSQL
    loaded = store.load("support", "ann")
    assert loaded is not None
    index = PgTextIndex(location(url), "t_down")
    index.sync(DOCS)
    kb = KnowledgeBase(SHIPPED_KB, location(store.url))
    assert kb.search("reset my password")
    pg_server.stop()
    try:
        yield Down(store, engine, index, kb, loaded.id)
    finally:
        pg_server.start()
        index.close()
        kb.close()
        store.close()


def locked(store: SqlStore) -> None:
    with store.session_lock("support", "ann", timeout_s=1):
        pass


def loaded_held(store: SqlStore) -> None:
    _, hold = store.load_held("support", "ann", timeout_s=1)
    hold.__exit__(None, None, None)


STORE_CALLS: dict[str, Callable[[SqlStore, str], object]] = {
    "load": lambda s, sid: s.load("support", "ann"),
    "get": lambda s, sid: s.get(sid),
    "commit": lambda s, sid: step(s, new_session("bob", "support")),
    "history": lambda s, sid: s.history(sid),
    "runs": lambda s, sid: s.runs(sid),
    "traces": lambda s, sid: s.traces(sid),
    "records": lambda s, sid: s.records(),
    "latest": lambda s, sid: s.latest("profile", bot="support", user="ann"),
    "add_record": lambda s, sid: s.add_record("support", "ann", sid, RecordDraft(kind="note", data={"a": 1})),
    "sessions": lambda s, sid: s.sessions(),
    "count": lambda s, sid: s.count("messages", sid),
    "schema_version": lambda s, sid: s.schema_version,
    "reopen": lambda s, sid: s.reopen(),
    "session_lock": lambda s, sid: locked(s),
    "load_held": lambda s, sid: loaded_held(s),
}
# reopen closes the store and opens a new one: opening is what fails; a turn's way in takes the
# session's writer lock first, and that is what fails
STORE_OPERATION = {name: name for name in STORE_CALLS} | {"reopen": "open", "load_held": "session_lock"}

ENGINE_CALLS: dict[str, tuple[Callable[[Engine], object], str]] = {
    # a turn first takes the session's writer lock (engine/store/locks.py)
    "turn": (lambda e: e.turn("support", "ann", "how do I cancel"), "session_lock"),
    "reset": (lambda e: e.reset("support", "ann"), "session_lock"),
    "agent_reply": (lambda e: e.agent_reply("support", "ann", "hello from a person"), "load"),
    "release": (lambda e: e.release("support", "ann"), "load"),
    "expire_idle": (lambda e: e.expire_idle(), "sessions"),
    "session": (lambda e: e.session("support", "ann"), "load"),
}

INDEX_CALLS: dict[str, Callable[[PgTextIndex], object]] = {
    "sync": lambda i: i.sync(DOCS),
    "search": lambda i: i.search(["password"], 3),
    "knows": lambda i: i.knows("password"),
    "drop": lambda i: i.drop("t_gone"),
}


def public(cls: type) -> set[str]:
    return {n for n in dir(cls) if not n.startswith("_")}


def test_the_parametrized_calls_cover_every_public_method() -> None:
    """A public method added later is added here, or this fails."""
    assert public(SqlStore) - {"close"} == set(STORE_CALLS)
    assert {n for n in public(Engine) if callable(getattr(Engine, n))} == set(ENGINE_CALLS)
    assert public(PgTextIndex) - {"close", "backend"} == set(INDEX_CALLS)


@needs_pg
class TestWithTheServerStopped:
    @pytest.mark.parametrize("name", STORE_CALLS)
    def test_a_store_method_is_a_store_error_naming_it(self, down: Down, name: str) -> None:
        e = failure(lambda: STORE_CALLS[name](down.store, down.session_id))
        assert e.operation == STORE_OPERATION[name], e

    @pytest.mark.parametrize("name", ENGINE_CALLS)
    def test_an_engine_method_is_a_store_error_naming_the_store_operation(self, down: Down, name: str) -> None:
        call, operation = ENGINE_CALLS[name]
        e = failure(lambda: call(down.engine))
        assert e.operation == operation, e

    @pytest.mark.parametrize("name", INDEX_CALLS)
    def test_a_text_index_method_is_a_store_error_naming_it(self, down: Down, name: str) -> None:
        e = failure(lambda: INDEX_CALLS[name](down.index))
        assert e.operation == f"text index {name}", e
        assert "t_down" in str(e.__cause__) or e.__cause__ is not None

    def test_a_knowledge_base_search_is_a_store_error(self, down: Down) -> None:
        e = failure(lambda: down.kb.search("how do I reset my password"))
        assert e.operation == "text index search"

    def test_opening_a_store_or_an_index_is_a_store_error(self, down: Down) -> None:
        assert failure(lambda: SqlStore(down.store.url)).operation == "open"
        assert failure(lambda: PgTextIndex(down.index.url, "t_other")).operation == "text index create"


@needs_pg
def test_a_text_index_reconnects_once_after_a_server_restart(pg_server: PgServer) -> None:
    """Its pooled connections die with the server; the search runs again on a new one."""
    index = PgTextIndex(pg_server.database(), "t_restart")
    index.sync(DOCS)
    assert [d for d, _ in index.search(["password"], 3)] == ["reset"]
    pg_server.restart()
    assert [d for d, _ in index.search(["password"], 3)] == ["reset"]
    pg_server.restart()
    assert index.sync({**DOCS, "new": IndexedDoc("new plan", "plan", "a plan", "h3")}).added == ("new",)
    index.close()


@needs_pg
def test_a_support_turn_after_a_server_restart_searches_the_knowledge_base(pg_server: PgServer) -> None:
    store = SqlStore(pg_server.database())
    e = Engine(store)
    first = e.turn("support", "ann", "how do I reset my password").reply
    pg_server.restart()
    again = e.turn("support", "bob", "how do I reset my password").reply
    assert again == first
    store.close()


# -- SQLite: another process holds the write lock ---------------------------------------------

HOLD = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("holding", flush=True)
sys.stdin.read()
db.execute("ROLLBACK")
"""


def test_a_write_lock_held_by_another_process_is_a_store_error_not_sqlite3s(tmp_path: Path) -> None:
    path = str(tmp_path / "s.db")
    store = SqlStore(path, busy_timeout_ms=100)
    engine = Engine(store)
    engine.turn("support", "ann", "how do I reset my password")  # the index is made before the lock is taken
    index = FtsTextIndex(path, "t_locked", busy_timeout_s=0.1)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        calls: dict[str, Callable[[], object]] = {
            "commit": lambda: engine.turn("support", "ann", "how do I cancel"),
            "add_record": lambda: store.add_record("support", "ann", "x", RecordDraft(kind="note", data={})),
            "text index sync": lambda: index.sync(DOCS),
        }
        for operation, call in calls.items():
            e = failure(call)
            assert (e.operation, "locked" in str(e)) == (operation, True), e
        assert engine.session("support", "ann").turns == 1  # type: ignore[union-attr]  # reads do not wait
    finally:
        holder.communicate("", timeout=30)
    assert engine.turn("support", "ann", "how do I cancel").reply
    assert index.sync(DOCS).added == ("reset", "billing")
    index.close()
    store.close()


# -- passwords --------------------------------------------------------------------------------

ROLE, SECRET = "innerloop_app", "s3cret-Pa55word"


@pytest.fixture
def bare_url(pg_server: PgServer) -> str:
    """A database of a role that must give SECRET; its URL without the password."""
    pg_server.password_role(ROLE, SECRET)
    return pg_server.database(owner=ROLE).replace("//postgres@", f"//{ROLE}@")


def with_password(url: str, password: str = SECRET) -> str:
    return url.replace(f"//{ROLE}@", f"//{ROLE}:{password}@")


def told(e: BaseException) -> str:
    """Everything a log of `e` would hold but the source lines: each chained exception's
    message and repr, causes and contexts included."""
    lines = traceback.format_exception(e)
    seen: list[BaseException] = []
    at: BaseException | None = e
    while at is not None and at not in seen:
        seen.append(at)
        at = at.__cause__ or at.__context__
    return "".join(line for line in lines if not line.startswith("  ")) + "".join(f"{x}{x!r}" for x in seen)


@needs_pg
def test_a_password_in_the_url_connects_and_is_shown_nowhere(
    bare_url: str, pg_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    store = SqlStore(with_password(bare_url))
    assert SECRET not in store.url and SECRET not in repr(store) and f"{ROLE}:***@" in store.url
    engine = Engine(store)
    # the support bot's knowledge base opens its index with the password the store was given
    assert "password" in engine.turn("support", "ann", "how do I reset my password").reply.lower()
    pg_server.stop()
    try:
        errors = [failure(lambda: engine.turn("support", "ann", "hi")), failure(engine.expire_idle)]
        errors.append(failure(lambda: SqlStore(with_password(bare_url))))
    finally:
        pg_server.start()
    for e in errors:
        assert SECRET not in told(e) and "***" in str(e), told(e)
    logging.getLogger("test").exception("logged", exc_info=errors[0])
    assert caplog.records and SECRET not in caplog.text
    store = store.reopen()  # as a restarted process: the password is still known, never shown
    assert store.sessions() and SECRET not in repr(store)
    store.close()


@needs_pg
def test_a_wrong_password_is_refused_without_echoing_either(bare_url: str) -> None:
    e = failure(lambda: SqlStore(with_password(bare_url, "not-the-Pa55word")))
    assert "password authentication failed" in str(e)
    assert "not-the-Pa55word" not in told(e) and SECRET not in told(e)


@needs_pg
def test_the_password_may_come_from_pgpassword(bare_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PGPASSWORD", raising=False)
    assert "password" in str(failure(lambda: SqlStore(bare_url)))
    monkeypatch.setenv("PGPASSWORD", SECRET)
    store = SqlStore(bare_url)
    assert Engine(store).turn("support", "ann", "how do I reset my password").reply
    assert SECRET not in store.url + repr(store)
    store.close()


def test_a_url_that_cannot_be_parsed_is_not_quoted_with_its_password() -> None:
    e = failure(lambda: SqlStore(f"postgresql://{ROLE}:{SECRET}@localhost:notaport/db"))
    assert e.operation == "open" and f"{ROLE}:***@" in str(e) and SECRET not in told(e), told(e)


@needs_pg
def test_the_command_line_shows_no_password(bare_url: str, pg_server: PgServer) -> None:
    runner = CliRunner()
    url = with_password(bare_url)
    store = SqlStore(url)
    Engine(store).turn("support", "ann", "hello")
    store.close()
    listed = runner.invoke(app, ["sessions", "list", "--db", url])
    assert listed.exit_code == 0 and "ann" in listed.output and SECRET not in listed.output, listed.output
    chat = runner.invoke(app, ["chat", "--bot", "support", "--db", url, "--user", "ann"], input="/quit\n")
    assert chat.exit_code == 0 and f"{ROLE}:***@" in chat.output and SECRET not in chat.output, chat.output
    pg_server.stop()
    try:
        failed = runner.invoke(app, ["sessions", "list", "--db", url])
    finally:
        pg_server.start()
    assert failed.exit_code == 1 and "error:" in failed.output, failed.output
    assert SECRET not in failed.output and "***" in failed.output


# -- small ones -------------------------------------------------------------------------------


def test_an_empty_database_path_is_refused() -> None:
    """SQLAlchemy reads "" as an in-memory database: a store that would keep nothing."""
    for empty in ("", "  "):
        e = failure(lambda: SqlStore(empty))  # noqa: B023
        assert e.operation == "open" and "INNERLOOP_DB" in str(e)
    out = CliRunner().invoke(app, ["sessions", "list"], env={"INNERLOOP_DB": ""})
    assert out.exit_code == 1 and "error: no database given" in out.output, out.output


@pytest.mark.parametrize("text", [None, b"hello", 42, ["hello"]], ids=repr)
def test_a_message_that_is_not_text_is_refused_saying_so(text: object) -> None:
    engine = Engine(MemoryStore())
    with pytest.raises(InputRejected, match=f"must be text \\(str\\), not {type(text).__name__}"):
        engine.turn("support", "ann", text)  # type: ignore[arg-type]
    assert engine.session("support", "ann") is None


@pytest.mark.parametrize(("field", "value"), [("user", None), ("user", 7), ("message_id", 7)])
def test_an_id_that_is_not_text_is_refused_saying_so(field: str, value: object) -> None:
    engine = Engine(MemoryStore())
    args: dict[str, object] = {"user": "ann", "message_id": "m1", field: value}
    with pytest.raises(InputRejected, match="must be text"):
        engine.turn("support", args["user"], "hi", message_id=args["message_id"])  # type: ignore[arg-type]
