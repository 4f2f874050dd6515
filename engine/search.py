"""The knowledge base: Markdown documents with YAML front matter, searched with SQLite FTS5.

A document is one `*.md` file::

    ---
    title: Notifications not arriving on Android
    tags: [notifications, android]
    clarifying_questions:
      - Which phone model do you use?
      - {text: Which Android version?, type: number, min: 5, max: 16}
    requires_handoff: false
    ---
    The answer, in Markdown.

`open_kb(folder, store_url)` returns the folder's `KnowledgeBase`, indexed into an FTS5
table in the session store's SQLite file (or an in-memory database when the store is
not a SQLite file) and cached per process. `KnowledgeBase.search(query)` ranks with
bm25, the title weighted above the tags and the body, and returns nothing below a
relevance threshold. A malformed file is listed in `KnowledgeBase.problems` by name and
left out; the others still load. Every search first checks the folder's file stats and
re-indexes only the documents whose content changed.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator, model_validator

from engine.errors import DataFileError

QuestionType = Literal["text", "number", "yes_no", "choice"]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

# bm25 weights, in the FTS table's column order: title, tags, body (doc_id, hash are unindexed)
WEIGHTS = (10.0, 4.0, 1.0, 0.0, 0.0)
# Calibrated on the shipped knowledge base (20 documents): a query naming what a document
# is about scores 2-10; a word found in most documents ("tasks", "app") scores about 0.
MIN_SCORE = 1.5
MAX_TERMS = 32
CACHE_SIZE = 16
# Bump when the table layout or tokenizer changes: a new name makes a fresh index and the
# old table is simply never read again.
INDEX_VERSION = 1
TOKENIZER = "porter unicode61 remove_diacritics 2"

# \w+ splits "don't" into "don" and "t", so contractions appear here by their first half.
_STOPWORD_TEXT = """
    a about above after again against all am an and any are aren as at be because been before being below between
    both but by can cannot could couldn did didn do does doesn doing don down during each few for from further had
    hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself
    just let me more most my myself no nor not now of off on once only or other ought our ours ourselves out over
    own same she should shouldn so some such than that the their theirs them themselves then there these they this
    those through to too under until up very was wasn we were weren what when where which while who whom why will
    with won would wouldn you your yours yourself yourselves
    hi hello hey thanks thank please ok okay yes yeah help want need get got anyone somebody tell know like still
    also really ll re ve
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


# -- documents ----------------------------------------------------------------------------


class Question(BaseModel):
    """A clarifying question; `type` says how its answer is validated."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: Text
    type: QuestionType = "text"
    choices: list[Text] = Field(default_factory=list)
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Question:
        if self.type == "choice" and len(self.choices) < 2:
            raise ValueError("a choice question needs at least two choices")
        if self.type != "choice" and self.choices:
            raise ValueError(f"choices are only for type 'choice', not {self.type!r}")
        if self.type != "number" and (self.min is not None or self.max is not None):
            raise ValueError(f"min and max are only for type 'number', not {self.type!r}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is above max {self.max:g}")
        if len({c.casefold() for c in self.choices}) != len(self.choices):
            raise ValueError("choices must be distinct")
        return self


class FrontMatter(BaseModel):
    """The YAML header of a document; an unknown key is a mistake (a misspelled flag), not ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: Text
    tags: list[Text] = Field(default_factory=list)
    clarifying_questions: list[Question] = Field(default_factory=list)
    requires_handoff: bool = False

    @field_validator("clarifying_questions", mode="before")
    @classmethod
    def _plain_strings(cls, value: object) -> object:
        # a bare string is a free-text question
        if isinstance(value, list):
            return [{"text": q} if isinstance(q, str) else q for q in value]
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


_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*\r?$\n?(.*)\Z", re.DOTALL | re.MULTILINE)


def parse_document(name: str, text: str) -> Document:
    """Read one document; DataFileError (naming the file) lists what is wrong with it."""
    m = _FRONT.match(text.lstrip("\ufeff"))
    if m is None:
        raise DataFileError(name, ["no YAML front matter (the file must start with '---' and close it with '---')"])
    try:
        front = yaml.safe_load(m.group(1))
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
        if err["type"] == "missing":
            out.append(f"missing {'.'.join(map(str, loc))!r}")
            continue
        if err["type"] == "extra_forbidden":
            out.append(f"unknown key {'.'.join(map(str, loc))!r}")
            continue
        if len(loc) >= 2 and loc[0] == "clarifying_questions" and isinstance(loc[1], int):
            loc = [f"question {loc[1] + 1}", *loc[2:]]
        where = ".".join(map(str, loc))
        msg = str(err["msg"]).removeprefix("Value error, ")
        out.append(f"{where}: {msg}" if where else msg)
    return out


def query_terms(text: str) -> list[str]:
    """The words of `text` worth searching for: lower-cased, no stopwords, each once, in order."""
    seen: dict[str, None] = {}
    for word in re.findall(r"\w+", text.casefold()):
        if word not in STOPWORDS and (len(word) > 1 or word.isdigit()):
            seen.setdefault(word, None)
    return list(seen)[:MAX_TERMS]


def match_expression(terms: list[str]) -> str:
    """An FTS5 query that ORs the terms; each is quoted, so FTS syntax in user text is inert."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


# -- the index ----------------------------------------------------------------------------


class Hit(BaseModel):
    """A search result; `score` is the negated bm25 (higher is better)."""

    model_config = ConfigDict(frozen=True)

    doc: Document
    score: float


@dataclass(frozen=True)
class SyncReport:
    """What the last re-index did, by document id."""

    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


Signature = tuple[tuple[str, int, int, int], ...]


def index_location(store_url: str | None) -> str:
    """The SQLite file behind a `sqlite:///path` store URL; ':memory:' for any other store."""
    m = re.fullmatch(r"sqlite(?:\+\w+)?:///([^?]*)(?:\?.*)?", store_url or "")
    if m is None or m.group(1) in ("", ":memory:"):
        return ":memory:"
    return str(Path(m.group(1)).resolve())


class KnowledgeBase:
    """A folder of documents and its FTS5 index in the SQLite database `db`."""

    def __init__(self, folder: Path, db: str = ":memory:", *, min_score: float = MIN_SCORE) -> None:
        self.folder = Path(folder).resolve()
        self.db = db
        self.min_score = min_score
        self.documents: dict[str, Document] = {}
        self.problems: list[str] = []
        self.last_sync = SyncReport()
        self._signature: Signature | None = None
        self._hashes: dict[str, str] = {}
        digest = hashlib.sha256(str(self.folder).encode()).hexdigest()[:16]
        # one table per folder, so bm25's document statistics never mix two knowledge bases
        self.table = f"kb_fts_v{INDEX_VERSION}_{digest}"
        self._lock = threading.Lock()
        # autocommit (isolation_level=None): a sync opens its own BEGIN IMMEDIATE, and reads
        # never leave a transaction open that would hold up the session store's writers
        self._conn = sqlite3.connect(db, timeout=10.0, isolation_level=None, check_same_thread=False)
        # the index is derived from the folder and rebuilt from it, so it need not be fsynced
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self.refresh()

    # -- loading ---------------------------------------------------------------------------

    def _files(self) -> list[os.DirEntry[str]]:
        try:
            with os.scandir(self.folder) as it:
                return [e for e in it if e.name.endswith(".md") and not e.name.startswith(".") and e.is_file()]
        except FileNotFoundError:
            raise DataFileError(str(self.folder), ["knowledge-base folder not found"]) from None
        except NotADirectoryError:
            raise DataFileError(str(self.folder), ["not a folder"]) from None
        except OSError as e:
            raise DataFileError(str(self.folder), [f"cannot read the folder: {e}"]) from e

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
            documents, hashes, problems = self._read(sorted(e.name for e in files))
            report = self._sync(documents, hashes)
            self.documents, self._hashes, self.problems = documents, hashes, problems
            self._signature = signature
            self.last_sync = report
            return report

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
            except DataFileError as e:
                problems.append(str(e))
                continue
            except (OSError, UnicodeDecodeError) as e:
                problems.append(f"{name}: cannot read the file: {e}")
                continue
            documents[doc.id] = doc
            hashes[doc.id] = hashlib.sha256(raw).hexdigest()
        if not documents:
            raise DataFileError(str(self.folder), problems)
        return documents, hashes, problems

    def _sync(self, documents: dict[str, Document], hashes: dict[str, str]) -> SyncReport:
        """Bring the FTS table in line with `documents`: the stored hashes say what changed.

        Comparing with the table (not with this process's last view) means a second process,
        or a restart, re-indexes nothing another run has already indexed.
        """
        t = self.table
        added: list[str] = []
        changed: list[str] = []
        removed: list[str] = []
        with self._transaction() as c:
            c.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS {t} USING fts5("
                f"title, tags, body, doc_id UNINDEXED, hash UNINDEXED, tokenize = '{TOKENIZER}')"
            )
            indexed = {row[1]: (row[0], row[2]) for row in c.execute(f"SELECT rowid, doc_id, hash FROM {t}")}
            for doc_id, (rowid, digest) in indexed.items():
                if hashes.get(doc_id) != digest:
                    c.execute(f"DELETE FROM {t} WHERE rowid = ?", (rowid,))
                    (changed if doc_id in documents else removed).append(doc_id)
            for doc_id, doc in documents.items():
                if doc_id in indexed and indexed[doc_id][1] == hashes[doc_id]:
                    continue
                if doc_id not in indexed:
                    added.append(doc_id)
                c.execute(
                    f"INSERT INTO {t} (title, tags, body, doc_id, hash) VALUES (?, ?, ?, ?, ?)",
                    (doc.title, " ".join(doc.tags), doc.body, doc_id, hashes[doc_id]),
                )
        return SyncReport(tuple(added), tuple(changed), tuple(removed))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        # IMMEDIATE takes the write lock up front: two processes syncing the same folder
        # queue up instead of both reading the old hashes and inserting a document twice
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    # -- querying --------------------------------------------------------------------------

    def search(self, query: str, limit: int = 3) -> list[Hit]:
        """The best documents for `query`, best first.

        A hit must score at least `min_score` and share a term with the document's title or
        tags: a word that only occurs somewhere in a body ("phone", "7") is not what the
        document is about. FTS5's bm25 saturates the weighted term frequency, so the title
        weight orders the hits but cannot by itself keep body-only matches out.
        """
        self.refresh()
        terms = query_terms(query)
        if not terms or limit < 1:
            return []
        t = self.table
        weights = ", ".join(str(w) for w in WEIGHTS)
        expression = match_expression(terms)
        with self._lock:
            ranked: list[Any] = self._conn.execute(
                f"SELECT rowid, doc_id, -bm25({t}, {weights}) AS score FROM {t} WHERE {t} MATCH ? "
                "ORDER BY score DESC LIMIT ?",
                (expression, limit),
            ).fetchall()
            ranked = [row for row in ranked if row[2] >= self.min_score]
            marks = ", ".join("?" * len(ranked))
            anchored: set[str] = (
                {
                    row[0]
                    for row in self._conn.execute(
                        f"SELECT doc_id FROM {t} WHERE {t} MATCH ? AND rowid IN ({marks})",
                        (f"{{title tags}} : ({expression})", *(row[0] for row in ranked)),
                    )
                }
                if ranked
                else set()
            )
            documents = self.documents
        return [
            Hit(doc=documents[doc_id], score=score)
            for _, doc_id, score in ranked
            if doc_id in anchored and doc_id in documents
        ]

    def get(self, doc_id: str) -> Document:
        self.refresh()
        try:
            return self.documents[doc_id]
        except KeyError:
            raise DataFileError(str(self.folder / f"{doc_id}.md"), ["no such document"]) from None

    def close(self) -> None:
        with self._lock:
            self._conn.close()


_CACHE: OrderedDict[tuple[Path, str], KnowledgeBase] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def open_kb(folder: Path, store_url: str | None = None) -> KnowledgeBase:
    """The knowledge base of `folder`, indexed next to the session store at `store_url`.

    Cached per (folder, database) in this process, so a turn neither re-reads the folder
    nor rebuilds the index; `search` still notices edits through the files' stats.
    DataFileError when the folder is missing or holds no valid document.
    """
    key = (Path(folder).resolve(), index_location(store_url))
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
