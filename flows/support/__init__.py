"""support: answers from a knowledge base, asking a document's clarifying questions first."""

from flows.support.clarification import support

__all__ = ["support"]
