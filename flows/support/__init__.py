"""support: answers from a knowledge base, asking a document's clarifying questions first."""

from flows.support.bot import support

__all__ = ["support"]
