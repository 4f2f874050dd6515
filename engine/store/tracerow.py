"""A turn's trace as a stored row and back, without repeating what the row already says.

The stored JSON is `TurnTrace.doc()` with three repeats left out, each restored on reading:

- `turn` and `at`: the row's `turn` and `created_at` columns hold them (`at` is kept when it
  differs, as in a trace written by hand);
- the `entered` states that are a fire's `dest` (every fire's dest is entered): only flow
  starts are kept, as `started`, each with `after`, the number of fires before it;
- a fire's `flow` when it is the trace's flow (`flow_after`, or `flow_before` when the turn
  ended the flow).

A trace whose `entered` does not split this way is stored with `entered` whole. Rows written
before this form (with `turn` and `at` in the JSON) are read as they are. These cuts take a
finished 4-turn feedback loop's event rows from 2,348 to 1,787 bytes.

Since schema 5 a turn's trace is not a row of its own until packed: the turn's UPDATE of its
session row appends `,[turn, doc]` to the row's `pending` text (the compact doc keeps its `at`:
the session row's time is the last turn's), so a turn in a flow writes one row, as the floor
does. When an inner loop ends, every PACK_EVERY-th turn, or when `pending` holds more than
PENDING_MAX characters, what is pending and the turn being written become one turn_events row:
`pack` holds their compact docs as `[turn, doc]` pairs in a JSON array, deflated with a preset
dictionary of the words every trace repeats, and the row's `turn` is the last one packed. A
finished feedback loop's four traces then take 485 bytes in one row. Single rows (`trace` set,
`pack` NULL) are what databases of older schemas wrote, and what was pending but could not be
read (kept for someone to look at); they are read as they are.

This module holds the format (its constants) and reads rows back; the writing half (`pending_item`,
`pack`) is in sql.py, beside the commit that runs it on every turn, so that a turn's write calls
no function of another module.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from datetime import datetime

from pydantic import JsonValue

from engine.errors import StoreError
from engine.models import JsonObject, TurnTrace

JsonList = list[JsonValue]
# (trace, turn, created_at, pack): a turn_events row as the readers select it (created_at
# is a datetime on PostgreSQL)
EventRow = tuple[str, int, str | datetime, bytes | None]

# A main conversation that never enters a flow is packed every PACK_EVERY turns, and what is pending
# is packed once it holds more than PENDING_MAX characters: the session row a turn rewrites stays
# within a 4 KiB page with its other columns in the usual case (a row spilling to overflow pages
# writes each of them again on every update).
PACK_EVERY = 32
PENDING_MAX = 2000
# Pack format 1: raw deflate with this preset dictionary (sql.py `pack` deflates). Never edit it:
# a stored pack inflates only with the bytes it was deflated with. Another dictionary is another
# format byte.
FORMAT_1 = b"\x01"
DICTIONARY_1 = (
    b'"notices":[{"kind":"reprompt","kind":"fallback","kind":"aside","kind":"rerun","detail":'
    b'"llm_calls":[{"purpose":"phrase","purpose":"parse","backend":"openai","backend":"rules",'
    b'"model":"prompt_tokens":"completion_tokens":"latency_ms":"retried":true,"message_id":'
    b'"route":"main","route":"command:","route":"agent:","route":"intent:","records":["'
    b'"started":[{"flow":"after":1}],"entered":[{"flow":"state":"'
    b'"slots_after":{null,false,true,"fired":[{"source":"trigger":"next","dest":"'
    b'{"source":"trigger":"answer","dest":"'
    b'"user_text":"reply":"route":"flow","flow_before":"state_before":"flow_after":"state_after":"'
    b'"at":"2026-01-01T00:00:00.000000+00:00"}],['
)


def instant_text(value: object) -> str:
    """A stored time as the ISO text it was written as (PostgreSQL reads back datetimes, in UTC)."""
    return value.isoformat() if isinstance(value, datetime) else str(value)


def trace_from_row(text: str, turn: int, created_at: str, session_id: str) -> TurnTrace:
    """The `TurnTrace` a stored row holds; StoreError when the row is not a trace."""
    return _trace(_loads(text, turn, session_id), turn, created_at, session_id)


def _trace(doc: JsonObject, turn: int, created_at: str, session_id: str) -> TurnTrace:
    try:
        if "turn" not in doc:  # the compact form (older rows carry their turn and time)
            doc = _restored(doc, turn, datetime.fromisoformat(created_at))
        return TurnTrace.model_validate(doc)
    except ValueError as e:  # pydantic's ValidationError is a ValueError
        raise StoreError(f"turn {turn}'s stored trace cannot be read: {e}", session=session_id) from e


def _restored(doc: JsonObject, turn: int, at: datetime) -> JsonObject:
    own = _own_flow(doc)
    fired: list[JsonObject] = [{"flow": own, **f} for f in _objects(doc.get("fired"))]
    out: JsonObject = {"at": at.isoformat(), **doc, "turn": turn}
    if fired:
        out["fired"] = list[JsonValue](fired)
    if "entered" not in doc:
        out["entered"] = _entered(_objects(out.pop("started", None)), fired)
    return out


def _own_flow(doc: JsonObject) -> JsonValue:
    return doc.get("flow_after") or doc.get("flow_before")


def _entered(started: list[JsonObject], fired: list[JsonObject]) -> JsonList:
    out: JsonList = []
    pending = list(started)
    for i, f in enumerate(fired):
        while pending and _after(pending[0]) <= i:
            out.append(_state(pending.pop(0)))
        out.append({"flow": f.get("flow"), "state": f.get("dest")})
    out.extend(_state(s) for s in pending)
    return out


def _after(start: JsonObject) -> int:
    n = start.get("after", 0)
    return n if isinstance(n, int) else 0


def _state(start: JsonObject) -> JsonObject:
    return {"flow": start.get("flow"), "state": start.get("state")}


def _objects(value: object) -> list[JsonObject]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def traces_from_rows(
    rows: Iterable[EventRow],
    session_id: str,
    limit: int | None = None,
    pending: tuple[str, str | datetime] | None = None,
) -> list[TurnTrace]:
    """The traces that `rows`, newest first, and the session row's `pending` (its text and the row's
    time), newer than any row, hold, oldest first; with `limit`, the newest `limit` of them (packs
    past those are not inflated)."""
    found: list[tuple[JsonObject, int, str]] = []
    if pending is not None and pending[0]:
        created_at = instant_text(pending[1])
        found.extend((doc, n, created_at) for n, doc in reversed(pending_items(pending[0], session_id)))
    for text, turn, created, packed in rows:
        created_at = instant_text(created)
        if limit is not None and len(found) >= limit:
            break
        if packed is None:
            found.append((_loads(text, turn, session_id), turn, created_at))
        else:
            found.extend((doc, n, created_at) for n, doc in reversed(_unpack(packed, turn, session_id)))
    kept = found[:limit] if limit is not None else found
    return [_trace(doc, turn, created_at, session_id) for doc, turn, created_at in reversed(kept)]


def _unpack(packed: bytes, turn: int, session_id: str) -> list[tuple[int, JsonObject]]:
    try:
        if packed[:1] != FORMAT_1:
            raise ValueError(f"unknown pack format {packed[:1]!r}")
        inflate = zlib.decompressobj(-15, DICTIONARY_1)
        return _pairs(json.loads(inflate.decompress(bytes(packed[1:])) + inflate.flush()))
    except (ValueError, TypeError, zlib.error) as e:
        raise StoreError(f"the traces packed up to turn {turn} cannot be read: {e}", session=session_id) from e


def pending_items(text: str, session_id: str) -> list[tuple[int, JsonObject]]:
    """The `[turn, doc]` pairs of a session row's `pending` text (`,[turn,{...}],[turn,{...}]`),
    oldest first; StoreError when it cannot be read."""
    try:
        return _pairs(json.loads(f"[{text[1:]}]")) if text else []
    except (ValueError, TypeError) as e:
        raise StoreError(f"the session's pending traces cannot be read: {e}", session=session_id) from e


def _pairs(items: object) -> list[tuple[int, JsonObject]]:
    if not isinstance(items, list):
        raise ValueError("not a list of [turn, trace] pairs")
    out = [
        (item[0], item[1])
        for item in items
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], dict)
    ]
    if len(out) != len(items) or not out:
        raise ValueError("not a list of [turn, trace] pairs")
    return out


def _loads(text: str, turn: int, session_id: str) -> JsonObject:
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise StoreError(f"turn {turn}'s stored trace cannot be read: {e}", session=session_id) from e
    if not isinstance(doc, dict):
        raise StoreError(f"turn {turn}'s stored trace cannot be read: not a JSON object", session=session_id)
    return doc
