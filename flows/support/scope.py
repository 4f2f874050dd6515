"""What an article is not about: requests its words match that it does not answer.

An article's words reach requests it has no answer for. The sharing article says "shared list",
"family" and "plan", so "i want to leave a shared list" and "do you offer a family plan" find it,
though it says nothing of leaving a list or of prices; the widget article's "shortcut" is a
home-screen shortcut, not the keyboard's. Giving such an article is the costly mistake (the user
reads the wrong answer, or is asked questions about the wrong thing), and the words alone cannot
tell: the request's head ("leave ... list", "keyboard shortcuts") is what the article does not do.

The article's author knows what it covers, so the article says what it does not, in its front
matter (flows/support/kb.py):

```yaml
not_about:
  - leave|leaving|exit ~ list|lists
  - family|team|group plan|plans|pricing
```

Each entry is a phrase in the phrase table's syntax (flows/support/terms.py: `a|b` either word,
`~` up to three other words), matched against the request's words as typed (spelling fixed, no
phrase read), so it says a class of requests, not one wording. A request holding one is not
answered with that article: another article may still answer it on its own score, and when none
does, the help centre does not cover it.

Checked on load: an entry that the article's own title, a tag, a symptom or its body says would
refuse the article the requests it does answer, and the file is refused with that entry named.
"""

from __future__ import annotations

from collections.abc import Iterable

from flows.support.terms import Fix, PhraseTable, read_phrases

# what a request holding one of an article's not_about phrases is read as, in that article's table
_MARK = "notabout"


class Scope:
    """One article's `not_about` phrases, ready to match."""

    def __init__(self, phrases: Iterable[str]) -> None:
        listed = list(dict.fromkeys(phrases))
        self._table = PhraseTable({_MARK: listed}) if listed else None

    def __bool__(self) -> bool:
        return self._table is not None

    def excludes(self, text: str, fix: Fix | None = None) -> bool:
        """Whether `text` holds one of the phrases: a request the article does not answer."""
        return self._table is not None and _MARK in read_phrases(text, self._table, fix)

    @property
    def words(self) -> frozenset[str]:
        """The phrases' words: a misspelling of one is read as it ("keybaord shortcuts")."""
        return self._table.words if self._table is not None else frozenset()


def contradictions(phrases: list[str], own: dict[str, list[str]]) -> list[str]:
    """The entries of `phrases` that the article's own texts (`own`: where -> texts) hold."""
    problems: list[str] = []
    for phrase in phrases:
        scope = Scope([phrase])
        for where, texts in own.items():
            said = next((t for t in texts if scope.excludes(t)), None)
            if said is not None:
                shown = said if len(said) <= 60 else said[:57] + "..."
                problems.append(
                    f"not_about {phrase!r} matches the article's own {where} {shown!r}: a request saying "
                    "what the article covers would be refused it; make the phrase narrower or drop it"
                )
                break
    return problems
