"""The commands corpus (tests/corpora/commands/{dev,test}.yaml): its entry model and a loader that checks every
entry against the shipped bots.

An entry is a user message, the state it was typed at (bot, flow, state, the slots already filled, whether the
run was paused) and the commands it carries, each with the words of the message that justify it. Loading checks
what a label can get wrong without anyone noticing: the bot, flow and state exist; the slots are slots of the
flow and validate against its slots model; a command's slot exists and its value parses as that slot's value;
its evidence is words of the message. Every problem is reported at once, naming the file, the entry and what
to change.

Two kinds of slot value are completed on load, as the bots complete them when a run starts:
- support's clarification slots name their knowledge-base document (`doc`); its title, body and questions
  are filled from flows/support/data/kb as the bot seeds a run;
- a slot value naming a file of the repository ("flows/study_pal/data/courses/calculus.yaml") is made absolute.
"""

from __future__ import annotations

import copy
import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from engine import Ask, Bot, Flow, Registry, default_registry

ROOT = Path(__file__).resolve().parent.parent
# libyaml's parser when PyYAML was built with it (yaml.safe_load's result): the corpus is a megabyte,
# seconds to parse in pure Python, and the tests load it in several modules
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
CORPUS = ROOT / "tests" / "corpora" / "commands"
SPLITS = ("dev", "test")
# a blind batch written after dev had been tuned on until it showed nothing (h-fresh23): its own dev and test
# halves, split by the same rule, measured beside the splits as "dev fresh" and "test fresh"
FRESH = CORPUS / "fresh"
# a blind batch of one class, putting it off (h-later13): stopping for now to come back later, at every bot's
# questions and at paused runs, with controls where "later" or "tomorrow" is the answer; "dev later", "test later"
LATER = CORPUS / "later"
# a blind batch of messages with a typo in a word that carries meaning, and controls whose odd-looking word must
# not be corrected (h-typo13): measured beside the others as "dev typos" and "test typos"
TYPOS = CORPUS / "typos"
# a blind batch of one class, declining (h-decline13): "none" / "not for now" for a question, before it is asked
# too, a none said for now in six languages, "maybe later" to an offer, and controls: "dev declines", "test declines"
DECLINES = CORPUS / "declines"
# a blind batch of answers phrased as questions or hedges ("can I say 3?", "¿vale con 3 días?") and questions back
# that hold a value-like word ("is 3 days enough to see results?"), with plain controls (h-cmd14): "dev hedges",
# "test hedges"
HEDGES = CORPUS / "hedges"
# a blind batch of messages at a question that mention a value of it without answering it (about someone else, in
# the past, a comparison, reported speech, a conditional, a question about the option), with near-twins that do
# answer (h-cmd15): "dev precision", "test precision"
PRECISION = CORPUS / "precision"
# a blind batch of questions about a term of the question (an option, a level name: "what do you mean by endurance?",
# "was heißt B2?"), labelled with the declared meanings that answer them (`meant`), facts no slot takes ("I'm 34,
# about 5 foot 9" at the level question: `unneeded`), and answers that name an option or give such a fact beside
# the answer (h-meaning): "dev meaning", "test meaning"
MEANING = CORPUS / "meaning"
# a blind batch of one class, a correction inside the same message ("3, sorry 4", "tres, no, cuatro", "Madrid,
# pardon, Bruxelles") at every bot's questions, with controls that are none ("I mean it, 5 days", "3 or 4")
# (h-within19): "dev within", "test within"
WITHIN = CORPUS / "within"
# a blind batch of messages that look like a question (a question mark, a question word, "can you ...", a rising
# "3?") but are no question back about the bot's question: answers said as questions, polite requests (set, skip,
# cancel, correct), small talk and new requests with a question mark, rhetorical or hedged answers; with true
# questions back, some phrased as requests ("can you explain what paleo is?") (h-askb): "dev notasks", "test notasks"
NOTASKS = CORPUS / "notasks"
# a blind batch of messages at free-text and list questions (injuries, equipment, allergies, the feedback comment,
# support's "what were you doing") that are no answer (a mood, a question, a request, someone else's or a past
# value, a put-off, a refusal), with real answers among them ("none except shellfish") (h-setp): "dev nonanswers",
# "test nonanswers"
NONANSWERS = CORPUS / "nonanswers"
BATCHES = {
    "": CORPUS,
    "fresh": FRESH,
    "later": LATER,
    "typos": TYPOS,
    "declines": DECLINES,
    "hedges": HEDGES,
    "precision": PRECISION,
    "meaning": MEANING,
    "within": WITHIN,
    "notasks": NOTASKS,
    "nonanswers": NONANSWERS,
}
SETS = (
    "dev",
    "test",
    "dev fresh",
    "test fresh",
    "dev later",
    "test later",
    "dev typos",
    "test typos",
    "dev declines",
    "test declines",
    "dev hedges",
    "test hedges",
    "dev precision",
    "test precision",
    "dev meaning",
    "test meaning",
    "dev within",
    "test within",
    "dev notasks",
    "test notasks",
    "dev nonanswers",
    "test nonanswers",
)

Kind = Literal[
    "set_slot",
    "correct_slot",
    "cancel",
    "help",
    "ask_back",
    "new_request",
    "chitchat",
    "handoff",
    "skip",
    "resume",
    # a put-off: stop for now and keep the run to come back to ("leave it for tomorrow", "on verra ça plus tard");
    # at a paused run, keeping it paused. A `cancel` label stops (for good where the batch can also say `later`)
    "later",
    "yes",
    "no",
    # a fact the user gives that no slot of the flow takes ("I'm 34, about 5 foot 9" at the level question): said not
    # to be needed, the question asked again, no attempt used
    "unneeded",
]
KINDS: tuple[Kind, ...] = Kind.__args__  # type: ignore[attr-defined]
SLOT_KINDS = ("set_slot", "correct_slot")
Lang = Literal["en", "es", "de", "fr", "pt", "it"]
LANGS: tuple[Lang, ...] = Lang.__args__  # type: ignore[attr-defined]
# issue 23's classes of message
Klass = Literal["numbers", "corrections", "inside_sentence", "ask_back", "new_request", "several_facts", "own_language"]
KLASSES: tuple[Klass, ...] = Klass.__args__  # type: ignore[attr-defined]


class Command(BaseModel):
    """One command a message carries; `slot`/`value` for set_slot and correct_slot, `key` for a dict slot's entry
    (support's `given`, keyed by the question's text), `flow` for a new request that starts a flow of the bot."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Kind
    slot: str | None = None
    key: str | None = None
    value: JsonValue = None
    flow: str | None = None
    # an ask_back about a term of the question: the declared meanings (option values or terms) that answer it
    meant: list[str] | None = None
    evidence: str = Field(min_length=1)


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(min_length=1)
    lang: Lang
    bot: str
    flow: str
    state: str
    paused: bool = False
    slots: dict[str, JsonValue] = Field(default_factory=dict)
    classes: list[Klass] = Field(default_factory=list)
    commands: list[Command] = Field(min_length=1)


class Case(BaseModel):
    """A loaded entry: `seed` is the full slots to start the run with (validated, as JSON), `expected` the
    commands with each value as the slots model stores it ("French" becomes "fr")."""

    model_config = ConfigDict(frozen=True)

    split: str
    index: int
    entry: Entry
    # the blind batch the case is from ("fresh", "later"; "" for the corpus's splits)
    batch: str = ""
    seed: dict[str, JsonValue]
    expected: list[Command]

    @property
    def where(self) -> str:
        return f"{self.split}.yaml entry {self.index} ({self.entry.text!r})"


class CorpusError(ValueError):
    """The corpus does not fit the shipped bots; `problems` lists every entry to fix."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(f"{len(problems)} problem(s) in the commands corpus:\n" + "\n".join(self.problems))


def split_of(text: str) -> str:
    """The split a message belongs to, fixed by its text: the first byte of its sha256, even dev, odd test."""
    return "dev" if hashlib.sha256(text.encode("utf-8")).digest()[0] % 2 == 0 else "test"


def load(split: str, registry: Registry | None = None, folder: Path = CORPUS) -> list[Case]:
    """The split's entries, each checked against the bots; CorpusError lists every problem found."""
    path = folder / f"{split}.yaml"
    raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    if not isinstance(raw, list):
        raise CorpusError([f"{path.name}: the file must be a YAML list of entries"])
    reg = registry or default_registry()
    cases: list[Case] = []
    problems: list[str] = []
    for i, item in enumerate(raw):
        where = f"{path.name} entry {i}"
        try:
            entry = Entry.model_validate(item)
        except ValidationError as e:
            text = item.get("text") if isinstance(item, dict) else None
            problems += [f"{where} ({text!r}): {_field(err)}: {err['msg']}" for err in e.errors()]
            continue
        where = f"{where} ({entry.text!r})"
        found, wrong = _check(entry, reg)
        if split_of(entry.text) != split:
            wrong.append(f"belongs to the {split_of(entry.text)} split (the split is fixed by the text's hash)")
        problems += [f"{where}: {w}" for w in wrong]
        if found is not None:
            seed, expected = found
            cases.append(Case(split=split, index=i, entry=entry, seed=seed, expected=expected))
    if problems:
        raise CorpusError(problems)
    return cases


def load_set(name: str, registry: Registry | None = None) -> list[Case]:
    """One of SETS: "dev" or "test" of the corpus, or the half of a blind batch ("dev fresh", "test typos")."""
    split, _, batch = name.partition(" ")
    if name not in SETS:
        raise ValueError(f"no set {name!r} (sets: {', '.join(SETS)})")
    return [c.model_copy(update={"batch": batch}) for c in load(split, registry, BATCHES[batch])]


def load_all(registry: Registry | None = None, folder: Path = CORPUS) -> dict[str, list[Case]]:
    return {split: load(split, registry, folder) for split in SPLITS}


@functools.cache
def shipped(split: str) -> tuple[Case, ...]:
    """The split checked against the installed bots once per process: several test modules read it,
    and checking 2,000 entries against the bots takes seconds."""
    return tuple(load(split))


def _field(err: Any) -> str:
    return ".".join(str(p) for p in err["loc"]) or "entry"


def _check(entry: Entry, reg: Registry) -> tuple[tuple[dict[str, JsonValue], list[Command]] | None, list[str]]:
    if entry.bot not in reg:
        return None, [f"bot {entry.bot!r} is not shipped (bots: {', '.join(b.name for b in reg)})"]
    bot = reg.get(entry.bot)
    if not bot.has_flow(entry.flow):
        return None, [f"{entry.bot} has no flow {entry.flow!r} (flows: {', '.join(f.name for f in bot.flows)})"]
    flow = bot.flow(entry.flow)
    if not flow.has_state(entry.state):
        asks = [s.name for s in flow.states if isinstance(s, Ask)]
        return None, [f"flow {entry.flow!r} has no state {entry.state!r} (its questions: {', '.join(asks)})"]
    wrong: list[str] = []
    if not isinstance(flow.state(entry.state), Ask):
        wrong.append(f"state {entry.state!r} is not a question: a message is typed at an Ask state")
    fields = flow.slots.model_fields
    unknown = [k for k in entry.slots if k not in fields]
    if unknown:
        return None, [f"{', '.join(unknown)} not slot(s) of {entry.flow} (slots: {', '.join(fields)})"]
    values = _completed(entry, bot)
    try:
        model = flow.slots.model_validate(values)
    except ValidationError as e:
        return None, [f"slots do not validate against {flow.slots.__name__}: {_errors(e)}"]
    seed: dict[str, JsonValue] = model.model_dump(mode="json")
    expected: list[Command] = []
    for n, c in enumerate(entry.commands):
        bad = _check_command(c, entry, bot, flow, values)
        if c.meant is not None and (c.kind != "ask_back" or not c.meant):
            bad.append("meant names the meanings that answer an ask_back: only on an ask_back, and not empty")
        if c.evidence.casefold() not in entry.text.casefold():
            bad.append(f"evidence {c.evidence!r} is not words of the message")
        if not bad:
            normal = _normalized(c, flow, values)
            bad = _against_seed(normal, seed, flow)
            expected.append(normal)
        wrong += [f"command {n} ({c.kind}): {b}" for b in bad]
    wrong += _class_problems(entry)
    return (seed, expected), wrong


def _completed(entry: Entry, bot: Bot) -> dict[str, Any]:
    values: dict[str, Any] = {k: _path_value(v) for k, v in entry.slots.items()}
    if entry.bot == "support" and entry.flow == "clarification" and isinstance(values.get("doc"), str):
        values = copy.deepcopy(_seeded(values["doc"])) | values  # a copy: entries may change theirs
    return values


@functools.cache
def _seeded(doc_id: str) -> dict[str, Any]:
    """A support run's own copy of its document, as flows/support/bot.py seeds it; {} for no such
    article (the slots check says so). Once per article: the corpus has hundreds of support entries."""
    from flows.support.bot import seed
    from flows.support.kb import parse_document

    path = ROOT / "flows" / "support" / "data" / "kb" / f"{doc_id}.md"
    if not path.exists():
        return {}
    return seed(parse_document(path.name, path.read_text(encoding="utf-8")), "").model_dump()


def _path_value(value: JsonValue) -> JsonValue:
    if isinstance(value, str) and value.startswith("flows/") and (ROOT / value).is_file():
        return str(ROOT / value)
    return value


def _check_command(c: Command, entry: Entry, bot: Bot, flow: Flow[Any], values: dict[str, Any]) -> list[str]:
    if c.kind not in SLOT_KINDS:
        extra = [name for name in ("slot", "key") if getattr(c, name) is not None]
        if c.value is not None:
            extra.append("value")
        bad = [f"{', '.join(extra)} only belong to set_slot and correct_slot"] if extra else []
        if c.flow is not None and (c.kind != "new_request" or not bot.has_flow(c.flow)):
            bad.append(f"flow {c.flow!r}: only a new_request names a flow, one of {[f.name for f in bot.flows]}")
        return bad
    if c.slot is None:
        return [f"{c.kind} needs the slot it fills"]
    if c.slot not in flow.slots.model_fields:
        return [f"{c.slot!r} is not a slot of {entry.flow} (slots: {', '.join(flow.slots.model_fields)})"]
    if c.value is None:
        return [f"{c.kind} needs the value it gives {c.slot}"]
    try:
        flow.slots.model_validate({**values, c.slot: _candidate(c, values)})
    except ValidationError as e:
        return [f"value {c.value!r} does not parse as {c.slot}: {_errors(e)}"]
    return []


def _candidate(c: Command, values: dict[str, Any]) -> Any:
    assert c.slot is not None
    if c.key is None:
        return _path_value(c.value)
    current = values.get(c.slot) or {}
    return {**current, c.key: c.value}


def _normalized(c: Command, flow: Flow[Any], values: dict[str, Any]) -> Command:
    if c.kind not in SLOT_KINDS or c.slot is None:
        return c
    model = flow.slots.model_validate({**values, c.slot: _candidate(c, values)})
    stored = model.model_dump(mode="json")[c.slot]
    value = stored[c.key] if c.key is not None and isinstance(stored, dict) else stored
    return c.model_copy(update={"value": value})


def _against_seed(c: Command, seed: dict[str, JsonValue], flow: Flow[Any]) -> list[str]:
    """A correction changes a value the run holds; a set_slot fills one it does not (an empty list may be an
    answer: fitness's allergies hold [] after "none")."""
    if c.kind not in SLOT_KINDS or c.slot is None:
        return []
    held = seed.get(c.slot)
    if c.key is not None:
        held = held.get(c.key) if isinstance(held, dict) else None
        filled = held is not None
    else:
        filled = held is not None and held != flow.slots.model_fields[c.slot].get_default(call_default_factory=True)
    if c.kind == "correct_slot" and not filled:
        return [f"{c.slot} is empty at this state: filling it is a set_slot"]
    if c.kind == "correct_slot" and held == c.value:
        return [f"{c.slot} already holds {c.value!r}: a correction changes the value"]
    if c.kind == "set_slot" and filled:
        return [f"{c.slot} already holds {held!r}: changing it is a correct_slot"]
    return []


def _class_problems(entry: Entry) -> list[str]:
    kinds = {c.kind for c in entry.commands}
    wrong = []
    if ("own_language" in entry.classes) != (entry.lang != "en"):
        wrong.append("own_language is the class of exactly the messages not in English")
    needs: dict[str, str] = {"corrections": "correct_slot", "ask_back": "ask_back", "new_request": "new_request"}
    for klass, kind in needs.items():
        if klass in entry.classes and kind not in kinds:
            wrong.append(f"class {klass} needs a {kind} command")
    if "several_facts" in entry.classes and sum(c.kind in SLOT_KINDS for c in entry.commands) < 2:
        wrong.append("class several_facts needs at least two slot commands")
    return wrong


def _errors(e: ValidationError) -> str:
    return "; ".join(f"{_field(err)}: {err['msg']}" for err in e.errors())
