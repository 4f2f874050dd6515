"""The `innerloop` command: chat, replay scripts, inspect sessions, list flows.

The only module that uses typer and rich. Every EngineError ends a command with one
readable line and exit code 1 (2 for a malformed replay script), never a traceback.
"""

from __future__ import annotations

import io
import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from engine.bot import MAIN, all_bots, get_bot
from engine.errors import EngineError, ScriptError
from engine.inputs import decode_terminal
from engine.llm import LLM
from engine.models import Resources, SessionState
from engine.replay import ALL_HISTORY, ScriptResult, load_script, make_llm, replay
from engine.runtime import Engine, default_db
from engine.sqlstore import SqlStore

app = typer.Typer(
    help="innerloop: explicit finite-state-machine dialogue flows.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
sessions_app = typer.Typer(help="Inspect stored sessions.", no_args_is_help=True)
flows_app = typer.Typer(help="The bots and their flows.", no_args_is_help=True)
app.add_typer(sessions_app, name="sessions")
app.add_typer(flows_app, name="flows")


class Backend(StrEnum):
    rules = "rules"
    openai = "openai"


DbOption = Annotated[
    str | None, typer.Option("--db", help="SQLite file or SQLAlchemy URL [default: $INNERLOOP_DB or innerloop.db]")
]


def _console() -> Console:
    # Built per command so output goes to whatever sys.stdout is then (CliRunner swaps it).
    # soft_wrap: replies are never re-wrapped by rich; the terminal wraps them.
    console = Console(soft_wrap=True, highlight=False)
    if not console.is_terminal:
        # Piped output has no width; rich's default of 80 would cut ids in tables.
        console.width = 200
    return console


def _fail(console: Console, message: str, code: int = 1) -> NoReturn:
    console.print(Text(f"error: {message}", style="bold red"))
    raise typer.Exit(code)


def _open_store(console: Console, db: str | None, *, must_exist: bool = False) -> SqlStore:
    path = db or default_db()
    if must_exist and "://" not in path and not Path(path).exists():
        _fail(console, f"no database at {path} (use --db or set INNERLOOP_DB)")
    try:
        return SqlStore(path)
    except EngineError as e:
        _fail(console, str(e))


# -- chat ---------------------------------------------------------------------------------

META_HELP = {
    "/help": "show these commands",
    "/state": "the session, the active flow and its state, suspended flows",
    "/slots": "the active flow's slots",
    "/reset": "leave every running and suspended activity (history stays)",
    "/history": "the main conversation history, summaries included",
    "/quit": "leave (Ctrl-D and Ctrl-C too)",
}
QUIT = {"/quit", "/exit", "/q"}


def _read_line(console: Console, prompt: Text) -> str | None:
    """One line of input, or None at end of input; undecodable bytes stay as lone surrogates."""
    if sys.stdin.isatty():
        try:
            return console.input(prompt)
        except EOFError:
            console.print()  # Ctrl-D leaves the cursor after the prompt
            return None
    console.print(prompt, end="")
    raw = sys.stdin.buffer.readline()
    # Piped input is not echoed by a terminal; echo it so a transcript reads as a chat.
    # Lone surrogates cannot be printed, hence the lossy decode for the echo only.
    console.print(Text(raw.decode("utf-8", errors="replace").rstrip("\r\n")))
    if not raw:
        return None
    return decode_terminal(raw).rstrip("\r\n")


def _prompt(bot: str, user: str, session: SessionState | None) -> Text:
    a = session.active if session else None
    where = f"{a.flow}/{a.state}" if a else MAIN
    return Text.assemble((f"[{bot} · {where}]", "dim"), " ", (f"{user}>", "bold green"), " ")


def _meta(command: str, console: Console, engine: Engine, bot: str, user: str) -> None:
    session = engine.session(bot, user)
    a = session.active if session else None
    if command == "/help":
        for name, what in META_HELP.items():
            console.print(Text.assemble((f"  {name:<9}", "bold"), what))
        console.print("  Anything else goes to the bot; 'help' and 'cancel' work inside any activity.")
    elif command == "/state":
        if session is None:
            console.print("no session yet: say something first")
            return
        console.print(f"session {session.id} · {session.turns} turns · row version {session.version}")
        console.print(f"flow: {a.flow if a else MAIN}" + (f" · state: {a.state} · attempts: {a.attempts}" if a else ""))
        for frame in reversed(session.stack):
            console.print(f"suspended: {frame.flow} at {frame.state}")
    elif command == "/slots":
        console.print(json.dumps(a.slots, indent=2, ensure_ascii=False) if a else "no active flow, so no slots")
    elif command == "/reset":
        _say(console, bot, engine.reset(bot, user).reply)
    elif command == "/history":
        history = engine.store.history(session.id, ALL_HISTORY) if session else []
        for m in history:
            console.print(Text.assemble((f"{m.role:>9}: ", "dim"), m.content))
        if not history:
            console.print("no history yet")


def _say(console: Console, bot: str, text: str) -> None:
    console.print(Text.assemble((f"{bot}: ", "bold cyan"), text))


@app.command()
def chat(
    bot: Annotated[str, typer.Option(help="Which bot to talk to.")] = "language-buddy",
    user: Annotated[str | None, typer.Option(help="Your user id [default: $USER or 'you']")] = None,
    db: DbOption = None,
    llm: Annotated[Backend, typer.Option(help="LLM backend; rules needs no network.")] = Backend.rules,
    model: Annotated[str | None, typer.Option(help="Model for --llm openai [default: $INNERLOOP_MODEL]")] = None,
    kb: Annotated[Path | None, typer.Option(help="Knowledge-base folder for the support bot.")] = None,
    course: Annotated[Path | None, typer.Option(help="Course YAML for the study-pal bot.")] = None,
    assessment: Annotated[Path | None, typer.Option(help="Question bank YAML for the onboarding assessment.")] = None,
) -> None:
    """Talk to a bot in the terminal; your session is kept in the database between runs."""
    console = _console()
    who = user or os.environ.get("USER") or "you"
    try:
        b = get_bot(bot)
        backend: LLM = make_llm(llm.value, model)
    except EngineError as e:
        _fail(console, str(e))
    store = _open_store(console, db)
    engine = Engine(store, backend, Resources(kb=kb, course=course, assessment=assessment))
    if sys.stdin.isatty() and isinstance(sys.stdin, io.TextIOWrapper):
        # input() then hands undecodable bytes over as lone surrogates, which the engine refuses.
        sys.stdin.reconfigure(errors="surrogateescape")
    try:
        _chat_loop(console, engine, b.name, who)
    except EngineError as e:
        _fail(console, str(e))
    finally:
        store.close()


def _chat_loop(console: Console, engine: Engine, bot: str, user: str) -> None:
    session = engine.session(bot, user)
    console.print(Text(f"{bot} · {engine.llm.name} · {engine.store.url} · /help for commands", style="dim"))
    if session and session.active:
        a = session.active
        console.print(Text(f"resuming {a.flow} at {a.state}", style="yellow"))
        asked = [m for m in a.scratchpad if m.role == "assistant"]
        if asked:
            _say(console, bot, asked[-1].content)
    try:
        while True:
            line = _read_line(console, _prompt(bot, user, session))
            if line is None or line.strip() in QUIT:
                break
            command = line.strip()
            if command in META_HELP:
                _meta(command, console, engine, bot, user)
                continue
            result = engine.turn(bot, user, line)
            if result.rejected:
                console.print(Text(result.reply, style="yellow"))
                continue
            _say(console, bot, result.reply)
            session = engine.session(bot, user)
    except KeyboardInterrupt:
        # A turn is one transaction, so an interrupt mid-turn leaves all of it or none.
        console.print()
    console.print("bye")


# -- replay -------------------------------------------------------------------------------


def _report(console: Console, path: str, result: ScriptResult) -> None:
    if result.passed:
        console.print(Text.assemble(("PASS ", "bold green"), path, (f" ({len(result.results)} turns)", "dim")))
        return
    console.print(Text.assemble(("FAIL ", "bold red"), path))
    for f in result.failures:
        where = f"turn {f.turn}" if f.turn is not None else "end"
        console.print(Text(f"  {where}: {f.what}"))
        console.print(Text(f"    expected: {f.expected!r}", style="green"))
        console.print(Text(f"    actual:   {f.actual!r}", style="red"))


@app.command("replay")
def replay_command(
    scripts: Annotated[list[Path], typer.Argument(metavar="SCRIPT", help="Replay scripts (YAML).")],
    db: Annotated[
        str | None, typer.Option("--db", help="Run on this database instead of a fresh temporary one per script.")
    ] = None,
    llm: Annotated[Backend | None, typer.Option(help="Override the scripts' llm key.")] = None,
    model: Annotated[str | None, typer.Option(help="Model for the openai backend.")] = None,
) -> None:
    """Run replay scripts. Exit 0 when all pass, 1 when an expectation fails, 2 when a script is malformed."""
    console = _console()
    failed = malformed = False
    for path in scripts:
        try:
            script = load_script(path)
        except ScriptError as e:
            malformed = True
            console.print(Text.assemble(("MALFORMED ", "bold magenta"), str(e)))
            continue
        try:
            result = replay(script, db=db, llm=llm.value if llm else None, model=model)
        except EngineError as e:
            _fail(console, f"{path}: {e}")
        _report(console, str(path), result)
        failed = failed or not result.passed
    # A malformed script says nothing about the engine, so it outranks a failed expectation.
    raise typer.Exit(2 if malformed else 1 if failed else 0)


# -- sessions -----------------------------------------------------------------------------


@sessions_app.command("list")
def sessions_list(db: DbOption = None) -> None:
    """Every stored session, most recently updated first."""
    console = _console()
    store = _open_store(console, db, must_exist=True)
    try:
        rows = store.sessions()
    except EngineError as e:
        _fail(console, str(e))
    finally:
        store.close()
    if not rows:
        console.print("no sessions yet")
        return
    table = Table("id", "bot", "user", "flow", "state", "turns", "updated")
    for s in rows:
        table.add_row(
            s.id, s.bot, s.user, s.flow or MAIN, s.state or "", str(s.turns), s.updated_at.strftime("%Y-%m-%d %H:%M:%S")
        )
    console.print(table)


@sessions_app.command("show")
def sessions_show(
    session_id: Annotated[str, typer.Argument(metavar="ID", help="A session id or a unique prefix of 4+ characters.")],
    db: DbOption = None,
) -> None:
    """A session's main history, active flow, state, slots, suspended flows and recent events."""
    console = _console()
    store = _open_store(console, db, must_exist=True)
    try:
        _show(console, store, session_id)
    except EngineError as e:
        _fail(console, str(e))
    finally:
        store.close()


def _show(console: Console, store: SqlStore, session_id: str) -> None:
    s = store.get(session_id)
    if s is None:
        _fail(console, f"no session matches {session_id!r} (give an id or a unique prefix of at least 4 characters)")

    def section(title: str) -> None:
        console.print(Text(title, style="bold underline"))

    console.print(Text(f"session {s.id}", style="bold"))
    console.print(f"bot {s.bot} · user {s.user} · {s.turns} turns · updated {s.updated_at:%Y-%m-%d %H:%M:%S}")
    section("main history")
    for m in store.history(s.id, ALL_HISTORY):
        console.print(Text.assemble((f"{m.role:>9}: ", "dim"), m.content))
    a = s.active
    section("active flow")
    if a is None:
        console.print(MAIN)
    else:
        console.print(f"{a.flow} (v{a.version}) at {a.state} · attempts {a.attempts} · {a.turns} turns")
        console.print(Text(f"slots: {json.dumps(a.slots, ensure_ascii=False)}"))
        for m in a.scratchpad:
            console.print(Text.assemble((f"{m.role:>9}: ", "dim"), m.content))
    if s.stack:
        section("suspended flows")
        for frame in reversed(s.stack):
            console.print(Text(f"{frame.flow} at {frame.state}: {json.dumps(frame.slots, ensure_ascii=False)}"))
    section("recent events")
    for t in store.traces(s.id, limit=10):
        console.print(Text(f"turn {t.turn} · route {t.route} · {t.user_text!r}"))
        if t.triggers:
            console.print(Text(f"  triggers: {', '.join(t.triggers)}"))
        if t.states_entered:
            console.print(Text(f"  entered: {', '.join(t.states_entered)}"))
        for c in t.llm_calls:
            status = "ok" if c.ok else f"failed: {c.detail}"
            console.print(
                Text(
                    f"  llm {c.purpose} · {c.backend}/{c.model} · {c.prompt_tokens}+{c.completion_tokens} tokens"
                    f" · {c.latency_ms:.0f} ms · {status}"
                )
            )
        for n in t.notices:
            console.print(Text(f"  notice: {n}"))


# -- flows --------------------------------------------------------------------------------


@flows_app.command("list")
def flows_list() -> None:
    """Every bot and the flows it can run."""
    console = _console()
    for b in all_bots():
        console.print(Text(b.name, style="bold"), Text(f"— {b.persona}", style="dim"))
        for f in b.flows:
            console.print(Text(f"  {f.name} (v{f.version}): {f.description}"))
            console.print(Text(f"    states: {' → '.join(s.name for s in f.states)}", style="dim"))


if __name__ == "__main__":
    app()
