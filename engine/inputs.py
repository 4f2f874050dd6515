"""Checks on a user message before anything runs: a refused message changes nothing."""

from __future__ import annotations

import unicodedata

from engine.errors import InputRejected

MAX_CHARS = 4000


# Format characters real text uses: zero-width (non-)joiners in emoji and Persian,
# left-to-right/right-to-left marks in Hebrew and Arabic, the soft hyphen, BOM-free word joiner.
_TEXT_FORMAT = "\n\t\u200c\u200d\u200e\u200f\u00ad\u2060"
# tag characters spell out subdivision flags (🏴 + tags = Scotland)
_TAG, _TAG_END = "\U000e0020", "\U000e007f"


def check_message(text: str, max_chars: int = MAX_CHARS) -> str:
    """Return the message stripped of surrounding whitespace, or raise InputRejected."""
    if not isinstance(text, str):
        # a caller's bug (a JSON null, bytes): refused like any unusable message, and said plainly
        raise InputRejected(f"A message must be text (str), not {type(text).__name__}.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates are what undecodable terminal bytes become (surrogateescape).
        raise InputRejected("Your message is not valid UTF-8 text; please retype it.") from None
    # Windows and old-Mac line endings are line endings, not control characters
    stripped = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not stripped:
        raise InputRejected("Your message is empty; please type something.")
    if len(stripped) > max_chars:
        raise InputRejected(f"Your message is {len(stripped):,} characters long; please keep it under {max_chars:,}.")
    if stripped.replace("\n", "").replace("\t", "").isprintable():
        return stripped  # the common case; the loop below only names the offending character
    for c in stripped:
        if c not in _TEXT_FORMAT and unicodedata.category(c) in {"Cc", "Cf", "Cs", "Co"} and not _TAG <= c <= _TAG_END:
            raise InputRejected(
                f"Your message contains a control character (U+{ord(c):04X}); please retype it as plain text."
            )
    return stripped


MAX_ID_CHARS = 200


def check_identifier(value: str, what: str = "user id", max_chars: int = MAX_ID_CHARS) -> str:
    """`value` if it can be stored as an id on every backend; InputRejected saying why otherwise.

    A lone surrogate cannot be encoded, a NUL is refused by PostgreSQL (and stored by SQLite),
    and control or format characters make ids that look alike differ.
    """
    if not isinstance(value, str):
        raise InputRejected(f"The {what} must be text (str), not {type(value).__name__}.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputRejected(f"The {what} is not valid UTF-8 text.") from None
    if not value.strip():
        raise InputRejected(f"The {what} is empty.")
    if len(value) > max_chars:
        raise InputRejected(f"The {what} is {len(value):,} characters long; the limit is {max_chars}.")
    if value != value.strip():
        raise InputRejected(f"The {what} {value!r} starts or ends with whitespace.")
    if value.isascii() and value.isprintable():
        return value  # the common case: printable ASCII holds none of the categories below
    for c in value:
        if unicodedata.category(c) in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}:
            raise InputRejected(f"The {what} contains a control or invisible character (U+{ord(c):04X}).")
    return value


def check_turn(user: str, text: str, message_id: str | None = None) -> str | InputRejected:
    """A turn's input in one call: the user id and the message id (InputRejected, raised, when
    either cannot be stored), then the message: stripped, or the InputRejected saying why it is
    refused, returned, for the user to be answered with (raised when it is no text at all: a
    caller's bug, and there is nobody to answer)."""
    check_identifier(user)
    if message_id is not None:
        check_identifier(message_id, "message id")
    try:
        return check_message(text)
    except InputRejected as refused:
        if not isinstance(text, str):
            raise
        return refused


def decode_terminal(raw: bytes) -> str:
    """Decode terminal bytes, keeping invalid ones as lone surrogates for check_message to refuse."""
    return raw.decode("utf-8", errors="surrogateescape")
