"""Where sessions live: the `Store` contract and `MemoryStore`, its in-process fake.

The SQL backend (`SqlStore`, any SQLAlchemy URL) is `engine.store.sql`, with its tables,
migrations and statements in `engine.store.schema`; only the SQL side's modules import
`sqlmodel`/`sqlalchemy`, and the turn path imports none of them.
"""

from engine.store.contract import MemoryStore, Store, summarize

__all__ = ["MemoryStore", "Store", "summarize"]
