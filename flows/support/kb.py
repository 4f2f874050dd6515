"""The knowledge base: Markdown documents with YAML front matter, searched in the store's database.

A document is one `*.md` file::

    ---
    title: Notifications not arriving on Android
    tags: [notifications, android]
    clarifying_questions:
      - {text: Which phone model do you use?, cues: [pixel, samsung]}
      - {text: Which Android version?, type: number, min: 5, max: 16}
      - {text: Bought where?, type: choice, choices: [App Store, Google Play], synonyms: {Google Play: [android]}}
    requires_handoff: false
    symptoms:
      - my phone never buzzes when a task is due
    not_about:
      - battery ~ drain|drains|draining|usage
    ---
    The answer, in Markdown.

`open_kb(folder, store_url)` is the folder's `KnowledgeBase`, indexed beside the sessions
(engine/store/textindex.py: FTS5 in the SQLite file, a tsvector with a GIN index in PostgreSQL,
in memory for a store with no database) and cached per process. `KnowledgeBase.search(query)`
ranks title above tags above body (bm25, or ts_rank), reads a phrase as the word it means
on both sides ("get my tasks back": "restore"; flows/support/terms.py), reads a word it does
not know as the title or tag word it misspells, and returns nothing below a relevance
threshold. A malformed file is listed in `problems` (and logged) by name and left out; the
others still load. `symptoms` are what users describe in their own words, as the article's author
writes them from what it covers; when nothing else is found, a request sharing two telling words
with one of them finds the article (flows/support/symptoms.py). `not_about` are the requests its
words match that it does not answer ("leave ~ shared list"): a request holding one is not answered
with it (flows/support/scope.py). A request whose subject neither the help centre nor the article
found names ("connect tasklane to slack") finds nothing (flows/support/subject.py), and so does a
question whether a thing exists that the article found is not about ("is there a family plan":
flows/support/asking.py). `subject: app` says the article explains what the app does (crashes,
sync): the same words told of another thing said first ("my router keeps restarting") are not its
(flows/support/firstsaid.py), nor is another product said first ("outlook keeps crashing"), and an
article's action asked of a thing no article covers ("export my photos") finds nothing
(flows/support/acted.py). The folder's `concepts.yaml`
holds the everyday words requests are read with, and what the help centre does not cover
(flows/support/concepts.py). Every search checks the files' stats first and re-indexes only the
documents whose content changed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator, model_validator

from engine.errors import DataFileError
from engine.store.textindex import IndexedDoc, SyncReport, location, open_text_index
from flows.shared.datafile import parse_yaml
from flows.support import sections
from flows.support.acted import acted_on
from flows.support.asking import asked_thing
from flows.support.concepts import CONCEPTS_NAME, NO_CONCEPTS, ConceptTable, load_concepts, query_table
from flows.support.firstsaid import named_first, told_of
from flows.support.rerank import Fields, Reranker, stems
from flows.support.scope import Scope, contradictions
from flows.support.spelling import STEMMER, Speller
from flows.support.subject import Subjects, Words
from flows.support.symptoms import MIN_SHARED, Symptoms, symptom_stems
from flows.support.terms import (
    PHRASES,
    STOPWORDS,
    TABLES_DIGEST,
    VAGUE,
    Fix,
    PhraseTable,
    PhraseText,
    query_terms,
    vague_terms,
    words,
)

log = logging.getLogger(__name__)

# the knowledge base a run uses unless `Resources.kb` names another
SHIPPED_KB = Path(__file__).parent / "data" / "kb"

QuestionType = Literal["text", "number", "yes_no", "choice"]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

# The floor of the one score every store is ranked by (flows/support/rerank.py: FTS5's bm25),
# calibrated on the shipped knowledge base: a right top hit scores 2.6-16.5; a lone generic
# word shared by several titles ("premium" in "how much does premium cost") about 1.7; a word
# found in most documents ("tasks", "app") about 0. 1.4-1.9 measured on the dev split found
# more in-scope requests but gave more wrong articles (bench/README.md, "Search quality").
MIN_SCORE = 2.0
CACHE_SIZE = 16
# how many of the index's best the second stage (flows/support/rerank.py) orders
CANDIDATES = 8
# a request of at most this many search words, all in the titles or tags of 2 to this many
# articles, names a topic: which article is asked (KnowledgeBase.on_topic)
TOPIC_WORDS = 2
TOPIC_ARTICLES = 5
# Bump when the table layout, the tokenizer or what is indexed changes: a new name makes a
# fresh index, and the previous version's table for the folder is dropped. (An edit to the
# word or phrase tables needs no bump: they are part of every document's hash.)
INDEX_VERSION = 4

# -- documents ----------------------------------------------------------------------------


class Question(BaseModel):
    """A clarifying question; `type` says how its answer is validated."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: Text
    type: QuestionType = "text"
    choices: list[Text] = Field(default_factory=list)
    # other words users answer a choice with: {"Google Play": ["play store", "android"]}
    synonyms: dict[Text, list[Text]] = Field(default_factory=dict)
    min: float | None = None
    max: float | None = None
    # words that answer a free-text question wherever they are said, with the model words
    # after them: "samsung" in "my samsung s21 drops them" answers "Which phone model?"
    cues: list[Text] = Field(default_factory=list)
    # how an answer read from a message is stated back, its value in place of {}: "Android {}"
    # says "Android 13" where the question ("Which Android version?") would be echoed
    fact: Text | None = None
    # what a choice means, said to a question back about it ("what's the difference between web and desktop?",
    # engine/meanings.py): {"desktop": "The Tasklane app installed on a Mac or Windows computer."}
    meanings: dict[Text, Text] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Question:
        if self.type == "choice" and len(self.choices) < 2:
            raise ValueError("a choice question needs at least two choices")
        if self.type != "choice" and (self.choices or self.synonyms):
            raise ValueError(f"choices and synonyms are only for type 'choice', not {self.type!r}")
        if self.type != "text" and self.cues:
            raise ValueError(f"cues are only for type 'text', not {self.type!r}")
        if self.type != "number" and (self.min is not None or self.max is not None):
            raise ValueError(f"min and max are only for type 'number', not {self.type!r}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is above max {self.max:g}")
        if self.fact is not None and self.fact.count("{}") != 1:
            raise ValueError(f"fact {self.fact!r} must hold the answer's place as {{}} exactly once")
        if len({c.casefold() for c in self.choices}) != len(self.choices):
            raise ValueError("choices must be distinct")
        unknown = [k for k in self.synonyms if k not in self.choices]
        if unknown:
            raise ValueError(f"synonyms name {', '.join(map(repr, unknown))}, which are not among the choices")
        unknown = [k for k in self.meanings if k not in self.choices]
        if unknown:
            raise ValueError(f"meanings name {', '.join(map(repr, unknown))}, which are not among the choices")
        blank = [k for k, v in self.meanings.items() if not v.strip()]
        if blank:
            raise ValueError(f"the meaning of {', '.join(map(repr, blank))} is blank: say what the choice means")
        return self


class FrontMatter(BaseModel):
    """The YAML header of a document; an unknown key is a mistake (a misspelled flag), not ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: Text
    tags: list[Text] = Field(default_factory=list)
    clarifying_questions: list[Question] = Field(default_factory=list)
    requires_handoff: bool = False
    # problems as users describe them, in words the title and tags may not hold (flows/support/symptoms.py)
    symptoms: list[Text] = Field(default_factory=list)
    # requests its words match that it does not answer, as phrases (flows/support/scope.py)
    not_about: list[PhraseText] = Field(default_factory=list)
    # what its requests tell their problem of: "app" when it explains what the app, or a device running
    # it, does (crashes, sync, notifications), so a request telling those words of another thing is not
    # its ("my router keeps restarting"); "any" when anyone or anything may be the subject ("my daughter
    # deleted my stuff", "my revolut card gets refused"): flows/support/firstsaid.py
    subject: Literal["app", "any"] = "any"

    @field_validator("clarifying_questions", mode="before")
    @classmethod
    def _plain_strings(cls, value: object) -> object:
        # a bare string is a free-text question
        if isinstance(value, list):
            return [{"text": q} if isinstance(q, str) else q for q in value]
        return value

    @field_validator("symptoms")
    @classmethod
    def _searchable_symptoms(cls, value: list[str]) -> list[str]:
        # a symptom is found by a pair of its words: one with fewer could never be found
        problems = [
            f"symptom {text!r} has fewer than {MIN_SHARED} words a search reads (stopwords and vague words "
            "such as 'app', 'task' or 'change' are left out)"
            for text in value
            if len(symptom_stems(text)) < MIN_SHARED
        ]
        seen: set[str] = set()
        for text in value:
            if text.casefold() in seen:
                problems.append(f"symptom {text!r} is listed twice")
            seen.add(text.casefold())
        if problems:
            raise ValueError("; ".join(problems))
        return value

    @model_validator(mode="after")
    def _distinct_questions(self) -> FrontMatter:
        # answers are kept under their question's text, so two equal questions would collide
        texts = [q.text for q in self.clarifying_questions]
        if len(set(texts)) != len(texts):
            raise ValueError("clarifying questions must be distinct")
        return self


class Document(FrontMatter):
    """One knowledge-base document; `id` is its file name without `.md`."""

    id: str
    body: Text

    @model_validator(mode="after")
    def _sections_name_answers(self) -> Document:
        # a section for an answer no question can have would never be shown
        wrong = sections.problems(self.body, self.clarifying_questions)
        # what it says it is not about must not be what it says
        own = {"title": [self.title], "tag": self.tags, "symptom": self.symptoms, "body": _text(self.body).splitlines()}
        wrong += contradictions(self.not_about, own)
        if wrong:
            raise ValueError("; ".join(wrong))
        return self


def _cues(doc: FrontMatter) -> list[str]:
    return [c for q in doc.clarifying_questions for c in q.cues]


def _text(body: str) -> str:
    """The body's words without its section markers (flows/support/sections.py)."""
    return "\n".join(part.text for part in sections.parts(body))


def _synonyms(question: Question) -> list[str]:
    return [s for said in question.synonyms.values() for s in said]


# where a body sentence ends: its stop, or its line (a step, a heading)
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+|\n+")


def _said(doc: Document) -> set[str]:
    """Every word `doc` says, as written: title, tags, body, symptoms, its questions' answers and cues."""
    answers = [w for q in doc.clarifying_questions for w in (*q.choices, *q.cues, *_synonyms(q))]
    return set(_ALPHA.findall(" ".join([doc.title, *doc.tags, _text(doc.body), *doc.symptoms, *answers]).casefold()))


def _kb_file(name: str) -> bool:
    return (name.endswith(".md") or name == CONCEPTS_NAME) and not name.startswith(".")


_ALPHA = re.compile(r"[^\W\d_]+")
# a name inside a sentence (capitalised after a lower-case word or a comma) and the word after it
# (the word after is looked ahead at, so "click Connect Google Calendar" gives "google" and "calendar")
_AFTER_NAME = re.compile(r"(?<=[a-z,] )([A-Z][A-Za-z]+) (?=([A-Za-z]+))")
# a capitalised word after another word of a title, not the product's own ("your Premium subscription",
# "Tasklane Premium")
_NAME_IN_TITLE = re.compile(r"(?<=\w )([A-Z][A-Za-z]+)")
_OURS_IN_TITLE = re.compile(r"\b(?:your|Tasklane) ([A-Z][A-Za-z]+)")
_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*\r?$\n?(.*)\Z", re.DOTALL | re.MULTILINE)


def parse_document(name: str, text: str) -> Document:
    """Read one document; DataFileError (naming the file) lists what is wrong with it."""
    m = _FRONT.match(text.lstrip("\ufeff"))
    if m is None:
        raise DataFileError(name, ["no YAML front matter (the file must start with '---' and close it with '---')"])
    try:
        front = parse_yaml(m.group(1))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""  # +2: 1-based, after the opening ---
        raise DataFileError(name, [f"front matter is not valid YAML{where}: {getattr(e, 'problem', None) or e}"]) from e
    if not isinstance(front, dict):
        raise DataFileError(name, ["front matter must be a mapping with at least a title"])
    try:
        header = FrontMatter.model_validate(front)
        return Document(id=Path(name).stem, body=m.group(2), **header.model_dump())
    except ValidationError as e:
        raise DataFileError(name, _problems(e)) from e


def _problems(e: ValidationError) -> list[str]:
    out: list[str] = []
    for err in e.errors():
        loc = list(err["loc"])
        if len(loc) >= 2 and loc[0] == "clarifying_questions" and isinstance(loc[1], int):
            loc = [f"question {loc[1] + 1}", *loc[2:]]
        where = ".".join(map(str, loc))
        if err["type"] in ("missing", "extra_forbidden"):
            out.append(f"{'missing' if err['type'] == 'missing' else 'unknown key'} {where!r}")
        else:
            msg = str(err["msg"]).removeprefix("Value error, ")
            out.append(f"{where}: {msg}" if where else msg)
    return out


# -- the index ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """A search result; `score` is its relevance (higher is better): the one bm25 score, or for an
    article found by a symptom, the rarity of the words the request shares with it."""

    doc: Document
    score: float
    # the request's words (as stems) the document holds: what of it the document explains; and
    # those its title or tags hold: what of it the document is about
    matched: frozenset[str] = frozenset()
    named: frozenset[str] = frozenset()
    # the bm25 its title and tags alone give the request (flows/support/rerank.py): how much the
    # article is about what the request says, whatever its body mentions besides
    about: float = 0.0


Signature = tuple[tuple[str, int, int, int], ...]


@dataclass(frozen=True)
class _Derived:
    """What a version of a knowledge-base folder makes, whatever database indexes it."""

    documents: dict[str, Document]
    problems: tuple[str, ...]
    indexed: dict[str, IndexedDoc]
    concepts: ConceptTable
    query_phrases: PhraseTable
    scopes: dict[str, Scope]
    reranker: Reranker
    symptoms: Symptoms
    outside: frozenset[str]
    subjects: Subjects
    vocabulary: tuple[str, ...]  # the speller's words, as `_spelling` lists them (counted per document)
    preferred: frozenset[str]


_DERIVED: OrderedDict[tuple[Path, Signature, str], _Derived] = OrderedDict()
_DERIVED_LOCK = threading.Lock()


def index_location(store_url: str | None) -> str:
    """Where the index of the store at `store_url` lives (engine/store/textindex.py)."""
    return location(store_url)


class KnowledgeBase:
    """A folder of documents and its index at `db` (a SQLite file, a PostgreSQL URL, or ':memory:')."""

    def __init__(self, folder: Path, db: str = ":memory:", *, min_score: float | None = None) -> None:
        self.folder = Path(folder).resolve()
        self.db = db
        self.documents: dict[str, Document] = {}
        self.problems: list[str] = []
        self.last_sync = SyncReport()
        self._signature: Signature | None = None
        self._speller = Speller((), (), lambda _: True)
        self._reranker = Reranker({})
        self._symptoms = Symptoms({}, self._reranker)
        self._concepts = NO_CONCEPTS
        self._query_phrases = PHRASES
        self._scopes: dict[str, Scope] = {}
        self._outside: frozenset[str] = frozenset()
        self._subjects = Subjects(Words((), ()))
        digest = hashlib.sha256(str(self.folder).encode()).hexdigest()[:16]
        # one table per folder, so ranking statistics never mix two knowledge bases
        self.table = f"kb_fts_v{INDEX_VERSION}_{digest}"
        self._lock = threading.Lock()
        self._index = open_text_index(db, self.table)
        self.min_score = MIN_SCORE if min_score is None else min_score
        self._index.drop(f"kb_fts_v{INDEX_VERSION - 1}_{digest}")
        self.refresh()

    # -- loading ---------------------------------------------------------------------------

    def _files(self) -> list[os.DirEntry[str]]:
        try:
            with os.scandir(self.folder) as it:
                # the documents, and the concept table their requests are read with
                return [e for e in it if _kb_file(e.name) and e.is_file()]
        except FileNotFoundError:
            raise DataFileError(str(self.folder), ["knowledge-base folder not found"]) from None
        except OSError as e:  # not a folder, not readable
            raise DataFileError(str(self.folder), [f"cannot read the folder: {e.strerror or e}"]) from e

    def refresh(self) -> SyncReport | None:
        """Re-read and re-index if any file was added, removed or touched; None when nothing was.

        Only stat() runs on the common path. A document whose bytes did not change (a touched
        file) is not re-indexed.
        """
        files = self._files()
        signature: Signature = tuple(
            sorted((e.name, (st := e.stat()).st_mtime_ns, st.st_size, st.st_ino) for e in files)
        )
        with self._lock:
            if signature == self._signature:
                return None
            key = (self.folder, signature, TABLES_DIGEST)  # the word tables are part of what they make
            with _DERIVED_LOCK:
                derived = _DERIVED.get(key)
            if derived is None:
                derived = self._derive(files)
                with _DERIVED_LOCK:
                    _DERIVED[key] = derived
                    if len(_DERIVED) > CACHE_SIZE:
                        _DERIVED.popitem(last=False)
            report = self._index.sync(derived.indexed)
            self.documents, self.problems, self.last_sync = derived.documents, list(derived.problems), report
            self._concepts, self._query_phrases = derived.concepts, derived.query_phrases
            self._scopes, self._reranker, self._symptoms = derived.scopes, derived.reranker, derived.symptoms
            self._outside, self._subjects = derived.outside, derived.subjects
            # the speller asks this index whether a word is in it: built for each index
            self._speller = Speller(derived.vocabulary, derived.preferred, self._index.knows, keep=STOPWORDS | VAGUE)
            self._signature = signature
            return report

    def _derive(self, files: list[os.DirEntry[str]]) -> _Derived:
        """What the folder's files make, whatever database indexes them: read once per version of
        the files in a process, however many stores (a test's fresh database, a tenant's) open it."""
        documents, hashes, problems = self._read(sorted(e.name for e in files if e.name.endswith(".md")))
        concepts, unread = self._read_concepts(any(e.name == CONCEPTS_NAME for e in files))
        problems += unread
        for problem in problems:
            log.warning("knowledge base %s: skipped %s", self.folder, problem)
        self._concepts, self._query_phrases = concepts, query_table(PHRASES, concepts)
        self._scopes = {d: Scope(doc.not_about) for d, doc in documents.items()}
        vocabulary, preferred = self._spelling(documents)
        self._reranker = self._reranking(documents)
        self._symptoms = Symptoms(
            {d: doc.symptoms for d, doc in documents.items()},
            self._reranker,
            {d: _SENTENCE_END.split(_text(doc.body)) for d, doc in documents.items()},
        )
        outside = self._check_concepts(documents)
        subjects = self._subjecting(documents)
        for doc_id, symptom in self._symptoms.unfindable():
            log.warning("knowledge base %s: %s.md: symptom %r has fewer than %d words that are not in most "
                        "articles: no request can find it", self.folder, doc_id, symptom, MIN_SHARED)  # fmt: skip
        return _Derived(
            documents=documents, problems=tuple(problems), indexed=self._indexed(documents, hashes),
            concepts=concepts, query_phrases=self._query_phrases, scopes=self._scopes, reranker=self._reranker,
            symptoms=self._symptoms, outside=outside, subjects=subjects, vocabulary=tuple(vocabulary),
            preferred=frozenset(preferred),
        )  # fmt: skip

    def _read_concepts(self, present: bool) -> tuple[ConceptTable, list[str]]:
        """The folder's concept table (flows/support/concepts.py); a malformed one is listed in
        `problems` and not used: the documents are still searched, by their own words."""
        if not present:
            return NO_CONCEPTS, []
        try:
            return load_concepts(self.folder / CONCEPTS_NAME), []
        except DataFileError as e:
            return NO_CONCEPTS, [str(e)]

    def _read(self, names: list[str]) -> tuple[dict[str, Document], dict[str, str], list[str]]:
        if not names:
            raise DataFileError(str(self.folder), ["no .md documents in the knowledge-base folder"])
        documents: dict[str, Document] = {}
        hashes: dict[str, str] = {}
        problems: list[str] = []
        for name in names:
            try:
                raw = (self.folder / name).read_bytes()
                doc = parse_document(name, raw.decode("utf-8"))
            except (DataFileError, OSError, UnicodeDecodeError) as e:
                problems.append(str(e) if isinstance(e, DataFileError) else f"{name}: cannot read the file: {e}")
                continue
            documents[doc.id] = doc
            # the word tables are part of how a document is indexed: editing them re-indexes it
            hashes[doc.id] = hashlib.sha256(TABLES_DIGEST.encode() + raw).hexdigest()
        if not documents:
            raise DataFileError(str(self.folder), problems)
        return documents, hashes, problems

    @staticmethod
    def _indexed(documents: dict[str, Document], hashes: dict[str, str]) -> dict[str, IndexedDoc]:
        """What the index holds of `documents`; syncing it, the stored hashes say what changed, so a
        second process, or a restart, re-indexes nothing another run has already indexed.

        Stopwords are left out of the index as they are out of queries: a stemmer would otherwise
        let a query word hit one ("ones" -> "on" in "Turn on ...").
        """
        return {
            doc_id: IndexedDoc(
                title=" ".join(words(doc.title)),
                # tag by tag: a phrase must not run from one tag into the next ("deleted tasks", "deleted by accident")
                tags=" ".join(w for tag in doc.tags for w in words(tag)),
                # a question's cues are words its readers use ("samsung", "pixel"): they count as body words
                body=" ".join(words(" ".join([_text(doc.body), *_cues(doc)]))),
                hash=hashes[doc_id],
            )
            for doc_id, doc in documents.items()
        }

    def _spelling(self, documents: dict[str, Document]) -> tuple[list[str], set[str]]:
        """What a misspelt query word may be corrected to: the words of the documents as
        written (a user misspells "crashing", not its stem), each counted once per document."""
        vocabulary: list[str] = []
        for d in documents.values():
            cues = " ".join(c for q in d.clarifying_questions for c in q.cues)
            # a symptom's words too: "laptpo" in "phone and laptpo dont match" is its "laptop"
            said = " ".join(d.symptoms)
            vocabulary += set(_ALPHA.findall(f"{d.title} {' '.join(d.tags)} {_text(d.body)} {cues} {said}".casefold()))
        preferred = {w for d in documents.values() for w in _ALPHA.findall(f"{d.title} {' '.join(d.tags)}".casefold())}
        # the concepts' words too: "syncronize" is read as the sync article's "sync" only once it is spelt right
        vocabulary += self._query_phrases.words | set(self._concepts.elsewhere)
        # and what the articles say they are not about: "keybaord shortcuts" is still the keyboard's
        vocabulary += {w for scope in self._scopes.values() for w in scope.words}
        return vocabulary, preferred

    def _check_concepts(self, documents: dict[str, Document]) -> frozenset[str]:
        """The elsewhere words of the concept table (flows/support/concepts.py) that no document
        holds; what the table names that this knowledge base cannot use is logged."""
        headings = {s for f in self._reranker.documents.values() for s in (*f.title, *f.tags)}
        said = {w for d in documents.values() for w in _said(d)}
        held = said | set(STEMMER.stemWords(sorted(said)))
        for problem in self._concepts.problems(headings, held):
            log.warning("knowledge base %s: %s", self.folder, problem)
        return self._concepts.outside(held)

    def _subjecting(self, documents: dict[str, Document]) -> Subjects:
        """What the help centre names, and each article: their words as written (and the words its
        requests are read with: phrases, concepts, the product's names), and their titles' and tags' stems."""
        tables = self._query_phrases.words | set(self._concepts.ours)
        articles: dict[str, Words] = {}
        covers: dict[str, Words] = {}
        for doc_id, d in documents.items():
            f = self._reranker.documents[doc_id]
            heads = _ALPHA.findall(" ".join([d.title, *d.tags]).casefold())
            articles[doc_id] = Words(_said(d) | tables, {*f.title, *f.tags}, heads)
            # what it covers: its own words, and the everyday words the concept table reads as its
            # title's or tags' ("partner", a person to share a list with)
            everyday = self._concepts.words_for(articles[doc_id].heading)
            covers[doc_id] = Words(_said(d) | everyday, {*f.title, *f.tags}, heads)
        written = {w for d in articles.values() for w in d.written}
        headings = {s for d in articles.values() for s in d.headings}
        titles = {w for d in articles.values() for w in d.titles}
        # what each article asks the user ("Which device shows the late reminders?"): an article that
        # asks which device is about what a device does
        asked = {
            doc_id: _ALPHA.findall(" ".join(q.text for q in d.clarifying_questions).casefold())
            for doc_id, d in documents.items()
        }
        concepts = self._concepts
        # what the articles write right after a name that is not the product's ("Google Calendar", "CSV
        # file"): a capitalised word inside a sentence, then its word
        ours = {w.casefold() for w in concepts.ours}
        made = {
            m.group(2).casefold()
            for d in documents.values()
            for m in _AFTER_NAME.finditer(f"{d.title}\n{d.body}")
            if m.group(1).casefold() not in ours
        }
        # the names a title writes inside it, capitalised ("Connect Google Calendar or Outlook"): titles
        # are written in sentence case, so these are names, not labels of the app's screens
        named = {m.group(1).casefold() for d in documents.values() for m in _NAME_IN_TITLE.finditer(d.title)}
        named -= {m.group(1).casefold() for d in documents.values() for m in _OURS_IN_TITLE.finditer(d.title)}
        return Subjects(
            Words(written, headings, titles),
            articles,
            concepts.ours,
            concepts.owned,
            concepts.devices,
            asked,
            covers,
            made,
            [doc_id for doc_id, d in documents.items() if d.subject == "app"],
            named,
        )

    def _reranking(self, documents: dict[str, Document]) -> Reranker:
        """The documents' words as the index holds them (phrases read, no stopwords), stemmed."""
        return Reranker(
            {
                doc_id: Fields(
                    title=stems(words(doc.title)),
                    tags=stems(w for tag in doc.tags for w in words(tag)),
                    body=stems(words(" ".join([_text(doc.body), *_cues(doc)]))),
                )
                for doc_id, doc in documents.items()
            }
        )

    # -- querying --------------------------------------------------------------------------

    def search(self, query: str, limit: int = 3) -> list[Hit]:
        """The best documents for `query`, best first.

        A hit must score at least `min_score` and share a term with the document's title or
        tags: a word that only occurs somewhere in a body ("phone", "7") is not what the
        document is about. FTS5's bm25 saturates the weighted term frequency, so the title
        weight orders the hits but cannot by itself keep body-only matches out. When nothing
        does, an article one of whose symptoms shares two telling words with the query is found.
        """
        self.refresh()
        if limit < 1:
            return []
        with self._lock:
            # a number ("iphone 13", "2 hours") names no topic, and would match one in a body
            table = self._query_phrases
            terms = [t for t in query_terms(query, self._speller, table) if not t.isdigit()]
            # a request naming another company's product or a thing of everyday life is about that
            if not terms or self._concepts.names_elsewhere(_ALPHA.findall(query.casefold()), self._outside):
                return []
            found = self._index.search(terms, max(limit, CANDIDATES))
            # vague words find nothing, but they score the candidates the other words found
            scored = terms + vague_terms(query, self._speller, table)
            # what a question whether something exists asks for ("is there a family plan"), as searched
            thing = asked_thing(query)
            head = _searched(thing.head, self._speller, table) if thing else []
            whole = _searched(thing.whole, self._speller, table) if thing else []
            documents, reranker, symptoms = self.documents, self._reranker, self._symptoms
            scopes, fix, subjects = self._scopes, self._speller, self._subjects

        # another process may have indexed a newer view of the folder than this one has read
        ranked = [r for r in reranker.rank(scored, found, self.min_score) if r[0] in documents]
        if not ranked:
            # the words found nothing: a symptom an article lists may still be told in them
            ranked = [(m.doc_id, m.weight) for m in symptoms.match(terms) if m.doc_id in documents]
        if ranked and subjects.outside(query, fix, ranked[0][0]) is not None:
            # what the request is about is something the help centre never names ("connect
            # tasklane to slack"): the words that matched are only the words around it
            return []
        if (
            ranked
            and len(reranker.matched(ranked[0][0], scored, headings=True)) < 2
            and subjects.device(query, fix, ranked[0][0]) is not None
        ):
            # "my laptop keeps freezing": one word of the article (its "freezes") told of the user's
            # device, and the article is about the app, not about what a device does; a request
            # naming more of the article ("my pc freezes on startup") is about what it covers
            return []
        if ranked and subjects.other_app(query, fix, ranked[0][0]) is not None:
            # "my banking app keeps crashing": another app of the user's, which the article never names
            return []
        if ranked and subjects.elsewhere(query, fix, ranked[0][0]) is not None:
            # "forgot my phone pin", "i forgot my wifi password": the thing the request names is the
            # user's device's or another's, which the article does not cover; the words that matched
            # are only the words around it
            return []
        if ranked and named_first(subjects, query, fix, ranked[0][0]) is not None:
            # "outlook keeps crashing", "todoist reminders arrive late": what goes wrong is another
            # product's, one the help centre names only as what the app works with
            return []
        if ranked and acted_on(subjects, query, fix, ranked[0][0]) is not None:
            # "export my contacts to csv", "share my location": the article's action asked of a thing
            # the article never speaks of (flows/support/acted.py)
            return []
        if ranked and (told := told_of(subjects, query, fix, ranked[0][0])) is not None:
            # "my router keeps restarting": the article explains what the app does, and what the request
            # tells it of is another thing, said first, which the article does not cover; a runner-up
            # that covers it may answer ("my login email is outdated": the email article, not sync's)
            ranked = [r for r in ranked if subjects.covers[r[0]].knows(told)]
        if ranked and (scope := scopes.get(ranked[0][0])) and scope.excludes(query, fix):
            # the article the words match best says the request is one it does not answer: the
            # others matched it less, and are no answer to what it asks either
            return []
        if ranked and head and not reranker.names(ranked[0][0], head[-1], whole):
            # "is there a family plan": the article must be about the thing asked for, not only hold
            # words around it ("family" is a tag of the sharing article; no article is about a plan)
            return []
        return [
            Hit(
                documents[d],
                score,
                reranker.matched(d, scored),
                reranker.matched(d, scored, headings=True),
                reranker.score(d, scored, headings=True),
            )
            for d, score in ranked[:limit]
        ]

    def searched(self, query: str) -> list[str]:
        """The words a search for `query` looks for, as `search` reads them (phrases read, spelling
        fixed; no stopwords, vague words or numbers): what of a request an article may explain."""
        self.refresh()
        with self._lock:
            return _searched(query, self._speller, self._query_phrases)

    @property
    def subjects(self) -> Subjects:
        """What the help centre and each article name (flows/support/subject.py)."""
        self.refresh()
        with self._lock:
            return self._subjects

    @property
    def headings(self) -> frozenset[str]:
        """The stems of every article's title and tags, as the reranker reads them."""
        self.refresh()
        with self._lock:
            return frozenset(s for f in self._reranker.documents.values() for s in (*f.title, *f.tags))

    @property
    def ours(self) -> frozenset[str]:
        """The stems of the product's own names and what it holds (the concept table's `ours`:
        "tasklane", "task"): words any article may say, which tell none apart."""
        return _stems_of(tuple(self._concepts.ours))

    @property
    def places(self) -> frozenset[str]:
        """The stems of what the product runs on (the concept table's `devices`) by make or system
        ("iphone", "android"): where a request happens, which an article's title or tags may name
        without being what it is about. Not the word for any device: "my other devices" are what the
        sync article is about ("Tasks are not syncing between devices")."""
        return _stems_of(tuple(self._concepts.devices)) - _stems_of(("device",))

    def on_topic(self, query: str) -> list[Document]:
        """The articles a request names only the topic of ("i have a problem with reminders",
        "billing question"): every word it searches for is in their titles or tags, and they are
        more than one and at most `TOPIC_ARTICLES`. [] for anything else: a request that says what
        happens is searched, and one about a single article finds it."""
        self.refresh()
        with self._lock:
            terms = [t for t in query_terms(query, self._speller, self._query_phrases) if not t.isdigit()]
            fields, documents = self._reranker.documents, self.documents
            outside = self._subjects.outside(query, self._speller)
        wanted = set(stems(terms))
        # "a problem with my dropbox": about a thing the help centre never names, not a topic of it
        if not 1 <= len(wanted) <= TOPIC_WORDS or outside is not None:
            return []
        named = sorted(d for d, f in fields.items() if all(w in f.title or w in f.tags for w in wanted))
        return [documents[d] for d in named if d in documents] if 2 <= len(named) <= TOPIC_ARTICLES else []

    def close(self) -> None:
        with self._lock:
            self._index.close()


@lru_cache(maxsize=8)
def _stems_of(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(stems(words))


def _searched(text: str, fix: Fix, table: PhraseTable) -> list[str]:
    """The words of `text` a search reads (no numbers)."""
    return [t for t in query_terms(text, fix, table) if not t.isdigit()]


_CACHE: OrderedDict[tuple[Path, str], KnowledgeBase] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def open_kb(folder: Path, store_url: str | None = None) -> KnowledgeBase:
    """The knowledge base of `folder`, indexed next to the session store at `store_url`.

    Cached per (folder, database) in this process, so a turn neither re-reads the folder
    nor rebuilds the index; `search` still notices edits through the files' stats.
    DataFileError when the folder is missing or holds no valid document.
    """
    key = (Path(folder).resolve(), location(store_url))
    with _CACHE_LOCK:
        kb = _CACHE.get(key)
        if kb is not None:
            _CACHE.move_to_end(key)
            return kb
        kb = KnowledgeBase(key[0], key[1])
        _CACHE[key] = kb
        if len(_CACHE) > CACHE_SIZE:
            # dropped, not closed: a turn on another thread may still be searching it;
            # the connection closes when the last reference goes
            _CACHE.popitem(last=False)
        return kb
