"""Where sessions live: the `Store` contract and `MemoryStore`, its in-process fake.

The SQL backend (`SqlStore`, any SQLAlchemy URL) is `engine.store.sql`, with its tables and
migrations in `engine.store.schema` and its row values in `engine.store.rows`; only those
three modules import `sqlmodel`/`sqlalchemy`, and the turn path imports none of them.
"""

from engine.store.contract import MemoryStore, Store, summarize

__all__ = ["MemoryStore", "Store", "summarize"]
