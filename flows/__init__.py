"""The shipped bots and their flows; importing this package registers them."""

from flows import language_buddy

__all__ = ["language_buddy"]
