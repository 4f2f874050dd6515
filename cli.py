"""The `innerloop` command: chat, replay (coverage, JUnit), inspect and export sessions, show and draw flows.

The only module that uses typer and rich; what it shows is computed in engine/ (coverage,
diagram, report, replay). Every EngineError ends a command with one readable line and
exit code 1 (2 for a malformed replay script), never a traceback.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from markdown_it import MarkdownIt
from rich.console import Console, ConsoleOptions, RenderResult
from rich.live import Live
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.segment import Segment
from rich.spinner import Spinner
from rich.style import Style
from rich.table import Table
from rich.text import Text

from engine.authoring.coverage import Coverage, FlowCoverage, Ratio
from engine.authoring.diagram import (
    BOTS_DOC,
    README_COMMAND,
    FlowOutline,
    flows_named,
    mermaid,
    outline,
    png,
    png_unavailable,
    readme_section,
    splice_readme,
)
from engine.authoring.junit import CaseReport, junit_xml
from engine.authoring.replay import ALL_HISTORY, ScriptResult, replay, session_script, write_script
from engine.authoring.report import session_report
from engine.authoring.script import find_scripts, load_script
from engine.bot import MAIN
from engine.errors import DataFileError, DefinitionError, EngineError, ScriptError, SessionNotFound
from engine.flow import Flow
from engine.llm import LLM, make_llm
from engine.models import Resources, SessionState, TurnTrace
from engine.registry import default_registry, registry_of
from engine.runtime import Engine, check_identifier, decode_terminal, default_db
from engine.store.sql import SqlStore

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


@contextmanager
def _stored(console: Console, db: str | None) -> Iterator[SqlStore]:
    """An existing database's store for one command; an engine error there ends the command, said plainly."""
    store = _open_store(console, db, must_exist=True)
    try:
        yield store
    except SessionNotFound as e:
        _fail(console, f"{e} (give an id or a unique prefix of at least 4 characters)")
    except EngineError as e:
        _fail(console, str(e))
    finally:
        store.close()


# -- chat ---------------------------------------------------------------------------------

META_HELP = {
    "/help": "show these commands",
    "/state": "the session, the active flow and its state, suspended flows",
    "/slots": "the active flow's slots",
    "/history": "the main conversation history, summaries included",
    "/reset": "leave every running and suspended activity (history stays)",
    "/save PATH": "write the conversation so far as a replay script expecting what happened",
    "/quit": "leave (Ctrl-D and Ctrl-C too)",
}
META = {name.split()[0] for name in META_HELP}
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


def _meta(line: str, console: Console, engine: Engine, bot: str, user: str) -> None:
    command, _, arg = line.partition(" ")
    arg = arg.strip()
    session = engine.session(bot, user)
    a = session.active if session else None
    if command == "/help":
        for name, what in META_HELP.items():
            console.print(Text.assemble((f"  {name:<11}", "bold"), what))
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
        result = engine.reset(bot, user)
        _say(console, bot, result.reply)
    elif command == "/history":
        history = engine.store.history(session.id, ALL_HISTORY) if session else []
        for m in history:
            console.print(Text.assemble((f"{m.role:>9}: ", "dim"), m.content))
        if not history:
            console.print("no history yet")
    elif command == "/save":
        if not arg:
            console.print(Text("usage: /save PATH (for example /save tests/replays/my_chat.yaml)", style="yellow"))
            return
        if session is None:
            console.print(Text("nothing to save yet: say something first", style="yellow"))
            return
        try:
            data = session_script(engine.store, session.id, resources=engine.resources)
            script = write_script(arg, data, _saved_comment(session.id, bot, user))
        except EngineError as e:
            console.print(Text(f"could not save: {e}", style="red"))
            return
        console.print(f"saved {len(script.turns)} turns to {arg}; run it with: innerloop replay {arg}")


def _saved_comment(session_id: str, bot: str, user: str) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"Saved from session {session_id} ({bot}, user {user}) on {when}.\n"
        "Each turn expects the flow, state and slots it ended with; edit freely."
    )


# Markdown characters that would make a bot's name markup when it leads a reply
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!<>|~])")


class _Reply(Markdown):
    """A bot's reply as Markdown, its name in front: a knowledge-base article's `**bold**` and
    numbered steps render, and rich word-wraps it to the terminal's width (never cropped).

    A single line break stays a line break (the flows write plain lines as well as Markdown),
    and HTML is shown as typed, not dropped: a user's `<b>` echoed in a reply keeps every word."""

    def __init__(self, bot: str, text: str) -> None:
        super().__init__("", hyperlinks=False)
        parser = MarkdownIt("commonmark", {"html": False, "breaks": True}).enable("strikethrough").enable("table")
        tokens = parser.parse(text)
        label = _MD_SPECIAL.sub(r"\\\1", f"{bot}:")
        # The name leads the first paragraph; before a list, quote or heading it stands alone.
        joined = f"{label} {text}" if tokens and tokens[0].type == "paragraph_open" else f"{label}\n\n{text}"
        self.markup = joined
        self.parsed = parser.parse(joined)
        self.label = f"{bot}:"

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # The chat's console soft-wraps (no_wrap) what it prints; a reply is wrapped here instead.
        lines = console.render_lines(
            _Unlabelled(self), options.update(no_wrap=False, overflow="fold"), pad=False, new_lines=False
        )
        for i, line in enumerate(lines):
            if i == 0:
                line = _styled_label(line, self.label)
            yield from line
            yield Segment.line()


class _Unlabelled:
    """The Markdown rendering of a `_Reply` (its own __rich_console__ post-processes it)."""

    def __init__(self, reply: _Reply) -> None:
        self.reply = reply

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from Markdown.__rich_console__(self.reply, console, options)


def _styled_label(line: list[Segment], label: str) -> list[Segment]:
    """The first rendered line with the bot's name (its first characters) in the name's style."""
    plain = "".join(s.text for s in line)
    if not plain.startswith(label):
        return line
    head, tail = Segment.divide(line, [len(label), Segment.get_line_length(line)])
    name = Style(bold=True, color="cyan")
    return [*(Segment(s.text, name) for s in head), *tail]


class _Tail:
    """While a reply is made: as many of its last lines as fit the screen, so that the live
    region never grows past the screen (a taller one could not be redrawn or cleared)."""

    def __init__(self, reply: _Reply) -> None:
        self.reply = reply

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = console.render_lines(self.reply, options.update(no_wrap=False), pad=False, new_lines=False)
        room = max(1, console.height - 2)
        for i, line in enumerate(lines[-room:]):
            if i:
                yield Segment.line()
            yield from line


def _say(console: Console, bot: str, text: str) -> None:
    """A reply, whole: on a terminal rendered as Markdown and wrapped to its width; piped, as
    the plain text it is (a transcript keeps the reply's own characters)."""
    if console.is_terminal:
        console.print(_Reply(bot, text), soft_wrap=False, end="")
    else:
        console.print(Text.assemble((f"{bot}: ", "bold cyan"), text))


class _Streamer:
    """The bot's reply as it is made: a spinner while the model thinks, then the text growing in
    place (rich Live, its last screenful). The live region is cleared when the turn ends and the
    reply is then printed whole by `_say`. Off a terminal nothing is drawn."""

    def __init__(self, console: Console, bot: str) -> None:
        self.bot = bot
        self.text = ""
        self.live: Live | None = None
        if console.is_terminal:
            waiting = Spinner("dots", text=Text("thinking…", style="dim"))
            # transient: what was drawn is cleared, so the whole reply printed after is its only copy
            self.live = Live(waiting, console=console, refresh_per_second=12, transient=True)

    def __enter__(self) -> _Streamer:
        if self.live is not None:
            self.live.start()
        return self

    def __call__(self, piece: str) -> None:
        self.text += piece
        if self.live is not None:
            self.live.update(_Tail(_Reply(self.bot, self.text)))

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.stop()


def _resources(kb: Path | None, course: Path | None, assessment: Path | None) -> Resources:
    return Resources(kb=kb, course=course, assessment=assessment)


KbOption = Annotated[Path | None, typer.Option(help="Knowledge-base folder for the support bot.")]
CourseOption = Annotated[Path | None, typer.Option(help="Course YAML for the study-pal bot.")]
AssessmentOption = Annotated[Path | None, typer.Option(help="Question bank YAML for the onboarding assessment.")]
BotsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--bots",
        metavar="MODULE:NAME",
        help="A bot that is not installed: a module (from the current folder) or a .py file, and the Bot "
        "in it, e.g. mybot:bot or flows/mybot.py:bot. Repeatable; the installed bots stay available.",
    ),
]


@app.command()
def chat(
    bot: Annotated[str, typer.Option(help="Which bot to talk to.")] = "language-buddy",
    user: Annotated[str | None, typer.Option(help="Your user id [default: $USER or 'you']")] = None,
    db: DbOption = None,
    llm: Annotated[Backend, typer.Option(help="LLM backend; rules needs no network.")] = Backend.rules,
    model: Annotated[str | None, typer.Option(help="Model for --llm openai [default: $INNERLOOP_MODEL]")] = None,
    kb: KbOption = None,
    course: CourseOption = None,
    assessment: AssessmentOption = None,
    bots: BotsOption = None,
) -> None:
    """Talk to a bot in the terminal; your session is kept in the database between runs."""
    console = _console()
    who = user or os.environ.get("USER") or "you"
    try:
        check_identifier(who, "--user")
        registry = registry_of(bots) if bots else default_registry()
        b = registry.get(bot)
        backend: LLM = make_llm(llm.value, model)
    except EngineError as e:
        _fail(console, str(e))
    resources = _resources(kb, course, assessment)
    try:
        warnings = b.check_resources(resources)
    except DataFileError as e:
        _fail(console, str(e), code=2)
    for warning in warnings:
        console.print(Text(f"warning: {warning}", style="yellow"))
    store = _open_store(console, db)
    engine = Engine(store, backend, resources, bots=registry)
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
            if command.split(" ", 1)[0] in META:
                _meta(command, console, engine, bot, user)
                session = engine.session(bot, user)
                continue
            try:
                with _Streamer(console, bot) as shown:
                    result = engine.turn(bot, user, line, on_text=shown)
            except KeyboardInterrupt:
                # the turn is one transaction: interrupted, none of it was kept
                console.print(Text("\n(interrupted: that message was not sent; Ctrl-C again to leave)", style="yellow"))
                continue
            if result.rejected:
                console.print(Text(result.reply, style="yellow"), soft_wrap=False)
                continue
            _say(console, bot, result.reply)
            session = engine.session(bot, user)
    except KeyboardInterrupt:
        # A turn is one transaction, so an interrupt mid-turn leaves all of it or none.
        console.print()
    console.print("bye")


# -- replay -------------------------------------------------------------------------------

# More scripts than this get a progress bar (on a terminal; it vanishes when done).
PROGRESS_OVER = 3


def _llm_time(result: ScriptResult) -> str:
    """ ", llm 4.2 s in 6 calls, slowest turn 1.9 s" when the model was called at all."""
    traces = [r.trace for r in result.results if r.trace is not None]
    calls = sum(len(t.llm_calls) for t in traces)
    if not calls:
        return ""
    total = sum(t.llm_ms for t in traces) / 1000
    return f", llm {total:.1f} s in {calls} calls, slowest turn {max(t.llm_ms for t in traces) / 1000:.1f} s"


def _report(console: Console, path: str, result: ScriptResult) -> None:
    if result.passed:
        counts = f"{len(result.results)} turns"
        if restarts := result.script.restarts:
            counts += f", {restarts} restart" + ("s" if restarts > 1 else "")
        counts += _llm_time(result)
        console.print(Text.assemble(("PASS ", "bold green"), path, (f" ({counts})", "dim")))
        return
    console.print(Text.assemble(("FAIL ", "bold red"), path))
    for f in result.failures:
        where = f"turn {f.turn}" if f.turn is not None else "end"
        console.print(Text(f"  {where}: {f.what}"))
        console.print(Text(f"    expected: {f.expected!r}", style="green"))
        console.print(Text(f"    actual:   {f.actual!r}", style="red"))


@contextmanager
def _progress(console: Console, total: int) -> Iterator[Progress]:
    progress = Progress(
        TextColumn("replaying"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        # Piped output and CliRunner get the PASS/FAIL lines only, not bar redraws.
        disable=total <= PROGRESS_OVER or not console.is_terminal,
    )
    with progress:
        yield progress


@app.command("replay")
def replay_command(
    scripts: Annotated[
        list[Path],
        typer.Argument(metavar="SCRIPT", help="Replay scripts (YAML), or folders to search for them recursively."),
    ],
    db: Annotated[
        str | None, typer.Option("--db", help="Run on this database instead of a fresh temporary one per script.")
    ] = None,
    llm: Annotated[Backend | None, typer.Option(help="Override the scripts' llm key.")] = None,
    model: Annotated[str | None, typer.Option(help="Model for the openai backend.")] = None,
    coverage: Annotated[
        bool, typer.Option("--coverage", help="Report which states, transitions and reprompt tiers the scripts hit.")
    ] = False,
    min_coverage: Annotated[
        float | None,
        typer.Option(
            "--min-coverage",
            min=0,
            max=100,
            metavar="PERCENT",
            help="Exit 1 when any flow of the bots the scripts use has a lower transition coverage.",
        ),
    ] = None,
    junit: Annotated[Path | None, typer.Option("--junit", metavar="PATH", help="Also write JUnit XML here.")] = None,
    record_llm: Annotated[
        Path | None,
        typer.Option(
            "--record-llm",
            metavar="DIR",
            file_okay=False,
            help="Run the openai backend against its server and save every LLM request and answer in DIR.",
        ),
    ] = None,
    replay_llm: Annotated[
        Path | None,
        typer.Option(
            "--replay-llm",
            metavar="DIR",
            file_okay=False,
            help="Answer the openai backend from the recordings in DIR, offline; an unrecorded request fails.",
        ),
    ] = None,
    reuse_recorded: Annotated[
        bool,
        typer.Option(
            "--reuse-recorded",
            help="With --record-llm: answer the requests a script's earlier recording holds from it; "
            "only new requests reach the server.",
        ),
    ] = False,
    bots: BotsOption = None,
) -> None:
    """Run replay scripts. Exit 0 when all pass, 1 when an expectation fails, 2 when a script is malformed.

    With --min-coverage, a flow below it also exits 1. The flows counted are every flow of
    every bot a well-formed script names, whether or not any script entered it.
    """
    console = _console()
    if record_llm is not None and replay_llm is not None:
        raise typer.BadParameter("give --record-llm or --replay-llm, not both")
    if reuse_recorded and record_llm is None:
        raise typer.BadParameter("--reuse-recorded needs --record-llm")
    if replay_llm is not None and not replay_llm.is_dir():
        raise typer.BadParameter(f"{replay_llm} is not a folder of LLM recordings", param_hint="--replay-llm")
    try:
        registry = registry_of(bots) if bots else default_registry()
    except DefinitionError as e:
        raise typer.BadParameter(str(e), param_hint="--bots") from e
    failed = malformed = False
    cases: list[CaseReport] = []
    cov = Coverage(registry=registry)
    scripts = find_scripts(scripts)
    with _progress(console, len(scripts)) as progress:
        task = progress.add_task("replay", total=len(scripts))
        for path in scripts:
            started = time.perf_counter()
            try:
                script = load_script(path, bots=registry)
            except ScriptError as e:
                malformed = True
                console.print(Text.assemble(("MALFORMED ", "bold magenta"), str(e)))
                cases.append(CaseReport(str(path), time.perf_counter() - started, error=e))
                progress.advance(task)
                continue
            try:
                result = replay(
                    script,
                    db=db,
                    llm=llm.value if llm else None,
                    model=model,
                    record_llm=record_llm,
                    replay_llm=replay_llm,
                    reuse_recorded=reuse_recorded,
                    bots=registry,
                )
            except EngineError as e:
                # e.g. a --db that cannot be opened: this script did not run; the others may
                failed = True
                console.print(Text.assemble(("ERROR ", "bold red"), f"{path}: {e}"))
                cases.append(CaseReport(str(path), time.perf_counter() - started, error=e))
                progress.advance(task)
                continue
            cases.append(CaseReport(str(path), time.perf_counter() - started, result=result))
            cov.add(script.bot, [r.trace for r in result.results if r.trace is not None])
            _report(console, str(path), result)
            failed = failed or not result.passed
            progress.advance(task)
    if junit is not None:
        try:
            junit.write_text(junit_xml(cases), encoding="utf-8")
        except OSError as e:
            _fail(console, f"cannot write {junit}: {e}")
    below = cov.below(min_coverage) if min_coverage is not None else []
    if coverage:
        _coverage_report(console, cov, min_coverage)
    if below:
        names = ", ".join(f"{fc.label} {fc.transition_ratio.percent:.1f}%" for fc in below)
        console.print(Text(f"transition coverage below {min_coverage:g}%: {names}", style="bold red"))
    # A malformed script says nothing about the engine, so it outranks a failed expectation.
    raise typer.Exit(2 if malformed else 1 if failed or below else 0)


def _ratio(r: Ratio, minimum: float | None = None) -> Text:
    pct = r.percent
    style = "green" if pct >= 100 else "red" if minimum is not None and pct < minimum else "yellow"
    return Text(f"{r} ({r.rounded}%)", style=style)


def _coverage_report(console: Console, cov: Coverage, minimum: float | None) -> None:
    flows: list[FlowCoverage] = cov.flows
    if not flows:
        console.print("coverage: no flows (no well-formed script ran)")
        return
    table = Table("flow", "bots", "states", "transitions", "reprompt tiers", title="coverage")
    for fc in flows:
        table.add_row(
            fc.label,
            ", ".join(fc.bots),
            _ratio(fc.state_ratio),
            _ratio(fc.transition_ratio, minimum),
            _ratio(fc.tier_ratio),
        )
    console.print(table)
    for fc in flows:
        missing = fc.never_exercised()
        if not missing:
            continue
        console.print(Text(f"{fc.label}: never exercised", style="bold"))
        for line in missing:
            console.print(Text(f"  {line}"))


# -- sessions -----------------------------------------------------------------------------


@sessions_app.command("list")
def sessions_list(db: DbOption = None) -> None:
    """Every stored session, most recently updated first."""
    console = _console()
    with _stored(console, db) as store:
        rows = store.sessions()
    if not rows:
        console.print("no sessions yet")
        return
    table = Table("id", "bot", "user", "flow", "state", "turns", "updated")
    for s in rows:
        table.add_row(
            s.id, s.bot, s.user, s.flow or MAIN, s.state or "", str(s.turns), s.updated_at.strftime("%Y-%m-%d %H:%M:%S")
        )
    console.print(table)


SessionId = Annotated[str, typer.Argument(metavar="ID", help="A session id or a unique prefix of 4+ characters.")]


@sessions_app.command("show")
def sessions_show(
    session_id: SessionId,
    db: DbOption = None,
    trace: Annotated[
        bool, typer.Option("--trace", help="Every turn: route, states, transitions, LLM calls, notices, records.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="The whole session as JSON (shape: engine/authoring/report.py).")
    ] = False,
) -> None:
    """A session's main history, active flow, state, slots, suspended flows and recent events.

    --trace shows every turn in full: route, states entered, transitions, LLM calls, notices
    and records. --json prints all of it as one JSON document (shape: engine/authoring/report.py).
    """
    console = _console()
    with _stored(console, db) as store:
        s = _session(store, session_id)
        if as_json:
            # Plain stdout: rich would read the brackets in JSON as markup.
            typer.echo(session_report(store, s.id).model_dump_json(indent=2))
        else:
            _show(console, store, s, trace=trace)


def _session(store: SqlStore, session_id: str) -> SessionState:
    s = store.get(session_id)
    if s is None:
        raise SessionNotFound(session_id)
    return s


def _show(console: Console, store: SqlStore, s: SessionState, *, trace: bool = False) -> None:
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
    if trace:
        section("turns")
        for turn in session_report(store, s.id).turns:
            _trace_lines(console, turn, full=True)
        return
    section("recent events")
    for t in store.traces(s.id, limit=10):
        _trace_lines(console, t)


def _trace_lines(console: Console, t: TurnTrace, *, full: bool = False) -> None:
    """One turn's trace: its heading, then one line per event (`full` adds the texts, the move and the records)."""
    waited = f" · llm {t.llm_ms / 1000:.1f} s" if t.llm_calls else ""
    console.print(Text(f"turn {t.turn} · {t.at:%H:%M:%S} · route {t.route}{waited} · {t.user_text!r}", style="bold"))
    if full:
        console.print(Text(f"  user: {t.user_text}"))
        console.print(Text(f"  bot:  {t.reply}"))
        before = f"{t.flow_before}/{t.state_before}" if t.flow_before else MAIN
        after = f"{t.flow_after}/{t.state_after}" if t.flow_after else MAIN
        console.print(Text(f"  {before} → {after}"))
    if t.entered:
        console.print(Text(f"  entered: {', '.join(f'{e.flow}.{e.state}' for e in t.entered)}"))
    for f in t.fired:
        console.print(Text(f"  transition: {f.flow}: {f.source} -{f.trigger}-> {f.dest}"))
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
    if full and t.records:
        console.print(Text(f"  records: {', '.join(t.records)}"))
    if full and t.retried:
        console.print(Text("  retried after a write conflict"))


@sessions_app.command("reply")
def sessions_reply(
    session_id: SessionId,
    text: Annotated[str, typer.Argument(metavar="TEXT", help="What the agent says to the user.")],
    db: DbOption = None,
) -> None:
    """Answer, as a person, a session that was handed to an agent; the user sees it with their next message."""
    console = _console()
    with _stored(console, db) as store:
        s = _session(store, session_id)
        Engine(store).agent_reply(s.bot, s.user, text)
    console.print(f"replied in session {s.id} ({s.bot}, {s.user}); it is still with an agent until released")


@sessions_app.command("release")
def sessions_release(session_id: SessionId, db: DbOption = None) -> None:
    """Hand a session that is with an agent back to the bot."""
    console = _console()
    with _stored(console, db) as store:
        s = _session(store, session_id)
        Engine(store).release(s.bot, s.user)
    console.print(f"session {s.id} ({s.bot}, {s.user}) is back with the bot")


@sessions_app.command("expire")
def sessions_expire(db: DbOption = None) -> None:
    """Close every run left open longer than its flow's idle timeout; each user is told on their next message."""
    console = _console()
    with _stored(console, db) as store:
        n = Engine(store).expire_idle()
    console.print(f"closed idle runs in {n} session{'s' if n != 1 else ''}")


@sessions_app.command("export")
def sessions_export(
    session_id: SessionId,
    replay_path: Annotated[
        Path, typer.Option("--replay", metavar="PATH", help="Write the session as a replay script here.")
    ],
    db: DbOption = None,
    kb: KbOption = None,
    course: CourseOption = None,
    assessment: AssessmentOption = None,
) -> None:
    """Save a stored session as a replay script whose expectations are what happened."""
    console = _console()
    with _stored(console, db) as store:
        session = _session(store, session_id)
        data = session_script(store, session.id, resources=_resources(kb, course, assessment))
        script = write_script(replay_path, data, _saved_comment(session.id, session.bot, session.user))
    note = "" if any(t.expect and t.expect.slots is not None for t in script.user_turns) else " (flows and states only)"
    console.print(
        f"wrote {len(script.turns)} turns to {replay_path}{note}; run it with: innerloop replay {replay_path}"
    )


# -- flows --------------------------------------------------------------------------------


@flows_app.command("list")
def flows_list() -> None:
    """Every bot and the flows it can run."""
    console = _console()
    for b in default_registry():
        console.print(Text(b.name, style="bold"), Text(f"— {b.persona}", style="dim"))
        for f in b.flows:
            console.print(Text(f"  {f.name} (v{f.version}): {f.description}"))
            console.print(Text(f"    states: {' → '.join(s.name for s in f.states)}", style="dim"))


BotOption = Annotated[str | None, typer.Option("--bot", help="The bot, when several have a flow of that name.")]
FlowArg = Annotated[str, typer.Argument(metavar="FLOW", help="A flow name, e.g. feedback.")]


def _find_flow(console: Console, name: str, bot: str | None) -> tuple[Flow[Any], list[str]]:
    if bot is not None:
        try:
            default_registry().get(bot)
        except EngineError as e:
            _fail(console, str(e))
    found = flows_named(name, bot, default_registry())
    if not found:
        known = sorted({f.name for b in default_registry() if bot is None or b.name == bot for f in b.flows})
        where = f" in bot {bot!r}" if bot else ""
        _fail(console, f"no flow {name!r}{where}; flows: {', '.join(known) or 'none'}")
    if len(found) > 1:
        bots = sorted(b for _, names in found for b in names)
        _fail(console, f"several bots have their own {name!r} flow ({', '.join(bots)}): pick one with --bot")
    return found[0]


@flows_app.command("show")
def flows_show(flow: FlowArg, bot: BotOption = None) -> None:
    """A flow's states (with kind), transitions (with conditions), slots (with types) and templates."""
    console = _console()
    f, bots = _find_flow(console, flow, bot)
    _render_outline(console, outline(f, bots))


def _render_outline(console: Console, o: FlowOutline) -> None:
    console.print(Text(f"{o.name} v{o.version}", style="bold"), Text(f"— {o.description}", style="dim"))
    console.print(Text(f"bots: {', '.join(o.bots)} · persona: {o.persona}"))
    console.print(Text(" · ".join(o.options), style="dim"))
    states = Table("state", "kind", "details", title="states")
    for s in o.states:
        states.add_row(s.name + (" (initial)" if s.initial else ""), s.kind, "; ".join(s.details))
    console.print(states)
    transitions = Table("source", "trigger", "dest", "when", title="transitions")
    for t in o.transitions:
        transitions.add_row(t.source, t.trigger, t.dest, t.condition or "")
    console.print(transitions)
    slots = Table("slot", "type", "constraints", "default", title="slots")
    for sl in o.slots:
        slots.add_row(sl.name, sl.type, sl.constraints, sl.default)
    console.print(slots)
    console.print(Text("templates", style="bold underline"))
    for s in o.states:
        for what, text in s.templates:
            console.print(Text.assemble((f"  {s.name} · {what}: ", "bold"), text))


class DiagramFormat(StrEnum):
    mermaid = "mermaid"
    png = "png"


@flows_app.command("diagram")
def flows_diagram(
    flow: FlowArg,
    bot: BotOption = None,
    fmt: Annotated[DiagramFormat, typer.Option("--format", help="Mermaid text, or PNG (needs Graphviz).")] = (
        DiagramFormat.mermaid
    ),
    out: Annotated[
        Path | None, typer.Option("--out", help="Write here [default: stdout for mermaid, FLOW.png for png].")
    ] = None,
) -> None:
    """Draw a flow as a state diagram."""
    console = _console()
    f, _ = _find_flow(console, flow, bot)
    if fmt is DiagramFormat.mermaid:
        text = mermaid(f)
        if out is None:
            typer.echo(text, nl=False)
            return
        _write(console, out, text.encode())
        return
    problem = png_unavailable()
    if problem is not None:
        _fail(console, problem)
    target = out or Path(f"{f.name}.png")
    try:
        data = png(f)
    except EngineError as e:
        _fail(console, str(e))
    _write(console, target, data)


def _write(console: Console, path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as e:
        _fail(console, f"cannot write {path}: {e}")
    console.print(f"wrote {path}")


@flows_app.command("readme")
def flows_readme(
    path: Annotated[Path, typer.Option("--path", help="The page to update.")] = BOTS_DOC,
    check: Annotated[bool, typer.Option("--check", help="Only check; exit 1 when the page is out of date.")] = False,
) -> None:
    """Write each shipped flow's Mermaid diagram into docs/bots.md, between the flows markers."""
    console = _console()
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except OSError as e:
        _fail(console, f"cannot read {path}: {e}")
    updated = splice_readme(text, readme_section())
    if updated == text:
        console.print(f"{path}: flow diagrams are current")
        return
    if check:
        _fail(console, f"{path}: flow diagrams are out of date; run `{README_COMMAND}`")
    _write(console, path, updated.encode())


if __name__ == "__main__":
    app()
