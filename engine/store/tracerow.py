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
"""

from __future__ import annotations

import json
from datetime import datetime

from pydantic import JsonValue
from pydantic_core import to_json

from engine.errors import StoreError
from engine.models import JsonObject, TurnTrace

JsonList = list[JsonValue]


def trace_row(doc: JsonObject, created_at: str) -> str:
    """The JSON stored for a turn whose trace is `doc` (a `TurnTrace.doc()`), in a row
    written at `created_at`."""
    out = {k: v for k, v in doc.items() if k != "turn" and not (k == "at" and v == created_at)}
    own = _own_flow(doc)
    fired = _objects(doc.get("fired"))
    if fired:
        out["fired"] = [{k: v for k, v in f.items() if not (k == "flow" and v == own)} for f in fired]
    started = _starts(_objects(doc.get("entered")), fired)
    if started is not None:
        out.pop("entered", None)
        if started:
            out["started"] = started
    return to_json(out).decode()


def trace_from_row(text: str, turn: int, created_at: str, session_id: str) -> TurnTrace:
    """The `TurnTrace` a stored row holds; StoreError when the row is not a trace."""
    try:
        doc = json.loads(text)
        if not isinstance(doc, dict):
            raise ValueError("not a JSON object")
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


def _starts(entered: list[JsonObject], fired: list[JsonObject]) -> JsonList | None:
    """The flow starts among `entered`, each with the count of fires before it; None when
    `entered` is not exactly the starts and the fires' destinations in order."""
    starts: JsonList = []
    j = 0
    for e in entered:
        if j < len(fired) and (e.get("flow"), e.get("state")) == (fired[j].get("flow"), fired[j].get("dest")):
            j += 1
        else:
            starts.append({**e, "after": j} if j else dict(e))
    return starts if j == len(fired) else None


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
