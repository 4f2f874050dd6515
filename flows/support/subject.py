"""What a request links the product to, and whether the help centre (and the article found) names it.

A request's words may match an article while its subject is something else: "connect tasklane to
slack" matches the calendar article by "connect", "does tasklane integrate with zapier" by
"integrate"; "slack" and "zapier" are what is asked about, and the help centre never names them.
The words around the subject are the same as in requests the articles do answer ("connect
tasklane to my gmail calendar"), so ranking cannot tell the two apart; the subject can.

The subject is found by the shape of the sentence, not by a list of names (docs/support-search.md,
"What the request is about: its subject"):

- a link ("to", "with", "into", "vs") whose clause names the product or a word of an article's
  title or tags ("connect tasklane to", "sync my photos to", "export to") leads to the thing asked
  about; a clause that tells something done ("since i flew to tokyo", "i moved to lisbon": a verb in
  the past) says where, not what, and so does one whose subject is the person, told after "when",
  "if", "i" ("reminders come late when i fly to tokyo": the clause is "i fly", not the reminders);
- the thing is the words after the link (and a determiner) that the help centre does not know,
  unless they modify a word an article's title or tags hold, said next or after one more known word
  ("to my gmail calendar", "with a revolut virtual card": about the calendar, the card), or a
  determiner follows them ("how to resize the widget": a verb and its object);
- it names something not covered when one of its words is rare in English (wordfreq, Zipf below
  `RARE_ZIPF`): a rare word is a name ("slack", "zapier", "icloud"), a common one ("the moment")
  is how people talk around a request the help centre may still answer.

Known is judged twice: against the whole help centre (any article's words as written or as
Snowball stems, the phrase and concept tables' words, the product's names, stopwords and vague
words, and a title word shortened: "acc", "pwd"), then against the article the words found ("can i
export to notion": the import article names Notion, the export article does not). A request with
such a subject finds no article: the bot says the help centre does not cover it, then offers a
person. Spelling is fixed first, and a request that reads as another language is not judged.

What a request names after "my" alone ("my dropbox wont sync") is not judged: measured, that
shape refused in-scope requests as often as it caught other products ("my mastercard got declined",
"i changed my surname": bench/README.md, "Search: the subject (h-search8)"). Two narrower shapes
are (h-search14): a device of the concept table's `devices` said first in its clause, in a request
naming nothing of the product, told of by one word of an article about the app (`Subjects.device`:
"my laptop keeps freezing"); and an app of the user's that the article never names
(`Subjects.other_app`: "my banking app keeps crashing").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from wordfreq import zipf_frequency

from flows.support.spelling import STEMMER
from flows.support.terms import STOPWORDS, VAGUE, Fix, tokens_of

# A word rarer than this in English, unknown to the help centre, is a name: "slack" 3.7, "dropbox"
# 3.1, "icloud" 3.1; what people say around a request is commoner ("moment" 5.2, "box" 5.0). The best
# of 4.0 to 5.5 on the dev splits (bench/README.md, "Search: the subject (h-search8)").
RARE_ZIPF = 4.5
# how much commoner than in English a word must be in another language, and common there (RARE_ZIPF),
# to be that language's word rather than a name
FOREIGN_MARGIN = 1.0
# A name the world shares: a word about as common in the chat's other languages as in English names a
# brand, a service or a place, written alike everywhere ("spotify" 3.7 in English and 3.5-3.8 abroad,
# "netflix", "instagram", "twitter", "uber"), where an English noun is far rarer abroad ("recipes" 4.0
# in English, 1.8-2.6 abroad; "groceries", "daughter", "card", "watch" 1.4-3.7 lower). Famous names are
# common in English too ("twitter" 4.8, "facebook" 4.9), which RARE_ZIPF cannot tell from talk; this can.
# The mean of OTHER_LANGUAGES at least English's minus WORLDWIDE_GAP; measured on the dev splits
# without their lists (bench/README.md, "Search: names the world shares (h-search, eighteenth session)")
WORLDWIDE_GAP = 0.3
# a word wordfreq barely knows in English is a typo or a word of its own, not a known name; a shorter
# one is an abbreviation ("tv", "pm", "id", "vs")
WORLDWIDE_ZIPF = 1.5
WORLDWIDE_LETTERS = 4
# a name after these is a place, where the user is or was ("in paris", "from tokyo", "at the airport")
WHERE = frozenset({"in", "at", "from", "near"})
# these link the product, or what an article is about, to another thing: what follows is what the
# request is about ("connect tasklane to slack", "integrate with zapier", "tasklane vs todoist")
LINKS = frozenset({"to", "with", "into", "vs", "versus"})
# a determiner between the link and the thing ("sync my photos to my icloud")
DETERMINERS = frozenset({"my", "your", "our", "his", "her", "their", "a", "an", "the", "this", "these", "those"})
# the lengths of a shortened word ("acc" in "my acc got hacked", "notifs"): a longer unknown word is
# a word of its own
SHORT = (3, 6)
# verbs told as done that do not end in -ed ("flew to tokyo", "went to paris")
IRREGULAR_PAST = frozenset({"flew", "went", "came", "drove", "got", "ran", "took", "sent", "brought", "left"})
# A clause starts at these: a subordinate one ("when i fly to tokyo", "whenever i travel to lisbon")
# says when or where something happens to the product, and its subject (a pronoun that is only ever
# one) is the person, who goes somewhere: not the product, linked to another thing. So the words a
# link goes from are looked for after them only ("reminders come late when i fly to tokyo").
CLAUSE_STARTS = frozenset(
    {"when", "whenever", "while", "if", "since", "because", "after", "before", "once", "until", "as", "where"}
    | {"i", "we", "he", "she", "they"}
)
# known words looked through to the word they modify ("a revolut virtual card")
MAX_MODIFIERS = 1
# the words between a determiner and the device it names ("my kids tablet", "my grandmothers old
# ipad"): whose it is, and which
MAX_POSSESSORS = 2
# the product's own objects, named without its name: "my iphone keeps closing the app", "my kindle
# shows old lists" are about the product (flows/support/data/search_words.txt reads them as vague)
PRODUCT_OBJECTS = frozenset({"app", "apps", "application", "program", "list", "lists", "todo", "todos"})
# what a person calls their own: "my banking app" is an app of theirs, "this stupid app" may be ours
POSSESSIVES = frozenset({"my", "our", "his", "her", "their"})
# a clause starts after these too, for a subject said first in it ("hi, my laptop keeps freezing",
# "and now my tablet restarts")
SUBJECT_AFTER = frozenset({"and", "but", "so", "now", "also", "hi", "hey", "hello"})
# the determiners before a thing of the user's: whose it is, or the one meant ("forgot my phone pin",
# "the wifi password"); "a" and "an" name a kind, not a thing the user has ("an unfamiliar login")
THINGS_OF = POSSESSIVES | {"your", "the"}
# the words of a thing after its determiner ("my deleted texts", "my phone pin")
MAX_THING = 3
# a request that reads more as one of these than as English is not judged: its words are unknown
# to an English help centre because they are another language's ("com meu marido")
OTHER_LANGUAGES = ("es", "fr", "de", "it", "pt")
BREAKS = frozenset(".,;!?")
_ALPHA = re.compile(r"[a-z]+")
# "to-dos", "e-mail", "wi-fi" are one word each: "dos" after "to" is no subject
_HYPHENATED = re.compile(r"(?<=\w)-(?=\w)")


@lru_cache(maxsize=4096)
def words_said(text: str, fix: Fix) -> list[str]:
    """The request's words as the search reads them, a hyphenated word one word ("to-dos", "wi-fi")."""
    return tokens_of(_HYPHENATED.sub("", text), fix)


def clause_starts(said: list[str], at: int) -> bool:
    """Whether the word at `at` is the first of a clause: after a mark or a word a subject follows ("hi, my
    laptop keeps freezing", "and now my tablet restarts")."""
    return at == 0 or said[at - 1] in BREAKS or said[at - 1] in SUBJECT_AFTER


def _zipfs(word: str) -> tuple[float, ...]:
    return tuple(zipf_frequency(word, lang, wordlist="small") for lang in ("en", *OTHER_LANGUAGES))


@lru_cache(maxsize=4096)
def _world_zipfs(word: str) -> tuple[float, ...]:
    """`word`'s Zipf frequency in English and the other languages, from wordfreq's large lists: the
    small ones leave out rarer names ("trello", "tiktok") and some languages' forms ("dropbox" in
    Spanish), which would read as nouns English alone has."""
    return tuple(zipf_frequency(word, lang) for lang in ("en", *OTHER_LANGUAGES))


def reads_as_english(words: list[str]) -> bool:
    table = [_zipfs(w) for w in words if _ALPHA.fullmatch(w)]
    english = sum(z[0] for z in table)
    return all(english >= sum(z[i] for z in table) for i in range(1, len(OTHER_LANGUAGES) + 1))


class Words:
    """What a text says: its words as written and as stems, the stems of its title and tags
    (`headings`), and its title's and tags' words as written (`titles`), which a clipped or
    shortened word of a request may stand for ("acc", "acct": account; "notifs", "pwd")."""

    def __init__(self, written: Iterable[str], headings: Iterable[str], titles: Iterable[str] = ()) -> None:
        self.written = frozenset(written)
        self.headings = frozenset(headings)
        self.titles = frozenset(titles)
        words = self.written | STOPWORDS | VAGUE
        self._known = words | frozenset(STEMMER.stemWords(sorted(words)))

    def knows(self, word: str) -> bool:
        if not _ALPHA.fullmatch(word) or word in self._known or STEMMER.stemWord(word) in self._known:
            return True
        return any(_shortens(word, title) for title in self.titles)

    def heading(self, word: str) -> bool:
        return STEMMER.stemWord(word) in self.headings


def _shortens(short: str, word: str) -> bool:
    """Whether `short` is `word` clipped or shortened as people type it: its first letter, then
    letters of it in order, at least two fewer ("acc", "acct" of "account"; "pwd" of "password")."""
    if not SHORT[0] <= len(short) <= SHORT[1] or len(word) < len(short) + 2 or short[0] != word[0]:
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in short[1:])


class Subjects:
    """The help centre's words (`centre`: every article's, the phrase and concept tables', the
    product's names) and each article's (`articles`), to tell a request's subject they cover from
    one they never name; `ours` are the product's names."""

    def __init__(
        self,
        centre: Words,
        articles: dict[str, Words] | None = None,
        ours: Iterable[str] = (),
        owned: Iterable[str] = (),
        devices: Iterable[str] = (),
        asked: dict[str, list[str]] | None = None,
        covers: dict[str, Words] | None = None,
        made: Iterable[str] = (),
        apps: Iterable[str] = (),
        named: Iterable[str] = (),
    ) -> None:
        self.centre = centre
        self.articles = articles or {}
        # what each article covers, in its own words: its title, tags, body, symptoms and answers as
        # written and stemmed, and the everyday words the concept table reads as its title's or tags'
        # ("partner", a person to share a list with). Unlike `articles`, not every table's word: the
        # phrase table knows "case" as a word of some phrase, and no article covers a phone's case
        self.covers = covers or {}
        self._covered_anywhere = Words(
            {w for c in self.covers.values() for w in c.written}, {s for c in self.covers.values() for s in c.headings}
        )
        self._ours = frozenset(ours)
        # the articles about what the app, or a device running it, does (their `subject: app`): a
        # request telling it of another thing is about that thing (flows/support/firstsaid.py)
        self._apps = frozenset(apps)
        # the other products the articles' titles name ("Outlook", "Todoist", "Google"): a title names
        # one as what the article works with (connect it, import from it), never as what goes wrong
        self._named = frozenset(named) - self._ours - frozenset(devices)
        # the stems of the words the help centre writes right after another name ("calendar" of "Google
        # Calendar", "file" of "CSV file"): things that come in makes, which a name before them picks
        self._made = frozenset(STEMMER.stemWords(sorted(made)))
        # what the product gives each user that other companies give theirs too (an account, a
        # subscription): a name said before one makes it that company's ("my netflix subscription")
        self._owned = frozenset(STEMMER.stemWords(sorted(owned)))
        # what the product runs on; an article whose title or tags name one, or whose questions ask
        # about one ("Which device shows the late reminders?", `asked`: their words), is about what a
        # device does for the app (its notifications, its sync), and a device may be its request's subject
        self._devices = frozenset(devices)
        stems = frozenset(STEMMER.stemWords(sorted(self._devices)))
        asked = asked or {}
        self._of_devices = frozenset(
            d for d, w in self.articles.items() if stems & (w.headings | set(STEMMER.stemWords(asked.get(d, []))))
        )

    def owners(self, text: str, fix: Fix | None = None, words: Words | None = None) -> list[tuple[str, ...]]:
        """The words `words` (the help centre's) do not hold said right before something the product
        owns ("instagram" in "my instagram account got hacked", "netflix" in "cancel my netflix
        subscription"): whose account or subscription it is. A hyphen parts words here: "two-step login"
        is a kind of login, told in words the help centre knows."""
        said = tokens_of(text, fix)
        # a request naming the product is about it, whoever else's account it names ("my yahoo
        # account is my tasklane login")
        if not self._owned or not reads_as_english(said) or self._ours.intersection(said):
            return []
        words = words or self.centre
        out: list[tuple[str, ...]] = []
        for at, word in enumerate(said):
            if STEMMER.stemWord(word) not in self._owned:
                continue
            unknown: list[str] = []
            for before in reversed(said[:at]):
                if before in STOPWORDS or before in BREAKS or before in self._ours or words.knows(before):
                    break
                unknown.insert(0, before)
            if unknown:
                out.append(tuple(unknown))
        return out

    def heads(self, text: str, fix: Fix | None = None, words: Words | None = None) -> list[tuple[str, ...]]:
        """The heads of the things the request links to that `words` (the help centre's) do not hold."""
        said = words_said(text, fix)
        if not reads_as_english(said):
            return []
        words = words or self.centre
        out: list[tuple[str, ...]] = []
        for link, word in enumerate(said):
            if word not in LINKS or not self._links(said, link):
                continue
            start = link + 1 + (link + 1 < len(said) and said[link + 1] in DETERMINERS)
            unknown: list[str] = []
            at = start
            while at < len(said) and said[at] not in STOPWORDS and said[at] not in BREAKS:
                if said[at] in self._ours or words.knows(said[at]):
                    break
                unknown.append(said[at])
                at += 1
            if not unknown or self._modifies(said, at, words):
                continue  # known, or "to my gmail calendar", "a revolut virtual card": about the calendar, the card
            if at < len(said) and said[at] in DETERMINERS:
                continue  # "how to resize the widget": a verb and its object
            out.append(tuple(unknown))
        return out

    @staticmethod
    def _modifies(said: list[str], at: int, words: Words) -> bool:
        """Whether the words before `at` modify a word an article's title or tags hold, said at `at` or
        after other modifiers ("virtual" in "a revolut virtual card")."""
        for word in said[at : at + 1 + MAX_MODIFIERS]:
            if word in STOPWORDS or word in BREAKS:
                return False
            if words.heading(word):
                return True
        return False

    def _links(self, said: list[str], link: int) -> bool:
        """Whether the link at `link` goes from the product or from a word of an article's title or
        tags, said earlier in its clause ("connect tasklane to", "sync my photos to"), and not from
        something told as done ("since i flew to tokyo", "i moved to lisbon": where, not what)."""
        clause: list[str] = []
        for word in reversed(said[:link]):
            if word in BREAKS or word in CLAUSE_STARTS:
                break
            if word not in STOPWORDS:
                clause.append(word)
        # a verb in the past, unless a title or tag says the word as it is ("shared lists": "moved" is
        # told, though "move" is a tag)
        if any((w.endswith("ed") or w in IRREGULAR_PAST) and w not in self.centre.titles for w in clause):
            return False
        return any(w in self._ours or self.centre.heading(w) for w in clause)

    def device(self, text: str, fix: Fix | None = None, doc_id: str | None = None) -> str | None:
        """The user's device that the request tells something of, when the article found is about the
        app and the request names nothing of the product: "laptop" in "my laptop keeps freezing" (the
        crash article's "freezes"), "tablet" in "my kids tablet wont connect to the internet" (the
        calendar article's "connect"). None otherwise: "my iphone keeps closing the app", "my kindle
        shows old lists", "my new phone doesnt have my authenticator" (the two-factor article's thing,
        had), "my pixel doesnt notify me" (the Android article is about what a device does)."""
        words = self.articles.get(doc_id) if doc_id is not None else None
        if words is None or not self._devices or doc_id in self._of_devices:
            return None
        said = words_said(text, fix)
        if not reads_as_english(said) or self._ours.intersection(said) or PRODUCT_OBJECTS.intersection(said):
            return None
        device: str | None = None
        for at, word in enumerate(said):
            if word not in DETERMINERS:
                continue
            for thing in said[at + 1 : at + 2 + MAX_POSSESSORS]:
                if thing in BREAKS or thing in STOPWORDS:
                    break
                if thing not in self._devices and words.heading(thing):
                    return None  # "my authenticator", "the export", "my iphone subscription": the article's thing
                if thing in self._devices:
                    first = at == 0 or said[at - 1] in BREAKS or said[at - 1] in CLAUSE_STARTS | SUBJECT_AFTER
                    device = device or (thing if first else None)
                    break  # what follows the device is what is told of it ("keeps freezing")
        return device

    def other_app(self, text: str, fix: Fix | None = None, doc_id: str | None = None) -> str | None:
        """What names an app of the user's that is not the product: "banking" in "my banking app keeps
        crashing", "bank" in "my bank app wont let me log in", a word the article found never says
        (nor the product's names, nor a device: "my android app", "my mobile app" are the product on
        one). None otherwise: "my authenticator app is gone" (the two-factor article says it), "my
        banking app says the payment was declined" (the payment article's body says "banking app")."""
        words = self.articles.get(doc_id) if doc_id is not None else None
        if words is None:
            return None
        said = words_said(text, fix)
        if not reads_as_english(said) or self._ours.intersection(said):
            return None
        for at in range(2, len(said)):
            if said[at] not in ("app", "apps") or said[at - 2] not in POSSESSIVES:
                continue
            if at + 1 < len(said) and said[at + 1] in PRODUCT_OBJECTS:
                continue  # "our shared app list": the app's list, the product's object
            name = said[at - 1]
            if name in STOPWORDS or name in self._devices or words.knows(name):
                continue
            return name
        return None

    def elsewhere(self, text: str, fix: Fix | None = None, doc_id: str | None = None) -> tuple[str, ...] | None:
        """The thing the request is about, when it is the user's device's or another company's, not the
        product's (docs/support-search.md, "Whose thing: a device's, or another's"). Two shapes:

        - something the product owns, said as another thing's: after a determiner, a device or a name
          (rare in English) the article found never says, then an owned word ("i forgot my wifi
          password", "the hotel wifi password", "i need to pay my phone bill": "bill" is "billing"'s
          stem; "my tasklane password", "my new password", "my google login" of an article that
          explains Google sign-in, are the product's);
        - a thing of the user's device: a determiner, a device, then a word no article says nor the
          concept table reads as an article's word, none's title or tags hold, and that is not the
          product's nor something it owns ("forgot my phone pin": what the article found matched is
          only the words around it). "my phone notifications", "my ipad widget", "my laptop clock"
          are what an article covers for a device.

        A request naming the product or its objects ("restore my phone list", "my iphone keeps closing
        the app") is about the product, whatever else it names, and one that reads as another language
        is not judged. None when the article covers the thing, or the request names no such thing."""
        covers = self.covers.get(doc_id) if doc_id is not None else None
        if covers is None:
            return None
        said = words_said(text, fix)
        if not reads_as_english(said) or self._ours.intersection(said) or PRODUCT_OBJECTS.intersection(said):
            return None
        for at, word in enumerate(said[:-1]):
            if word not in THINGS_OF:
                continue
            owner, thing = said[at + 1], self._thing(said[at + 1 :])
            for k in range(1, len(thing)):
                if STEMMER.stemWord(thing[k]) in self._owned and self._another(thing[k - 1], covers):
                    return (thing[k - 1], thing[k])  # "my wifi password", "the hotel wifi password"
            # two words, the device and its thing: a longer run holds what is told of the device ("my
            # samsung never beeps", "my pixel stays quiet"), which no word-list tells from a thing
            if len(thing) == 2 and owner in self._devices and not self._covered(thing[1:]):
                return tuple(thing)  # "my phone pin"
        return None

    @property
    def devices(self) -> frozenset[str]:
        return self._devices

    @property
    def ours(self) -> frozenset[str]:
        return self._ours

    @property
    def apps(self) -> frozenset[str]:
        return self._apps

    @property
    def named(self) -> frozenset[str]:
        return self._named

    def _another(self, owner: str, covers: Words) -> bool:
        """Whether `owner`, said before something the product owns, makes it another thing's: a device
        or a name that the article never says (the product's names are its own)."""
        if owner in self._ours or not _ALPHA.fullmatch(owner):
            return False
        return not covers.knows(owner) and (owner in self._devices or _names(owner))

    @staticmethod
    def _thing(after: list[str]) -> list[str]:
        """The words of the thing said first in `after`: up to MAX_THING words, to a stopword, a mark or
        a determiner (a preposition, "with my wife", ends it)."""
        thing: list[str] = []
        for word in after[:MAX_THING]:
            if word in STOPWORDS or word in BREAKS or word in DETERMINERS or not _ALPHA.fullmatch(word):
                break
            thing.append(word)
        return thing

    def covered(self, word: str) -> bool:
        """Whether some article covers `word` (its text, or the concept table's words for its title or tags)."""
        return self._covered([word])

    def _covered(self, thing: list[str]) -> bool:
        """Whether the help centre covers `thing` (the words after a device): an article says its head
        or the concept table reads it as an article's word, an article's title or tags hold it, or it is
        a device, a vague word, the product's or something it owns."""
        head = thing[-1]
        if head in VAGUE or head in self._devices or self._covered_anywhere.knows(head) or self.centre.heading(head):
            return True
        return any(w in self._ours or STEMMER.stemWord(w) in self._owned for w in thing)

    def worldwide(self, text: str, fix: Fix | None = None) -> str | None:
        """A name the world shares that the help centre never says ("spotify" in "my spotify keeps
        crashing", "instagram" in "my instagram got hacked", "uber" in "refund for my uber ride"): what
        the request is about is another company's, whatever words around it match an article. A request
        naming the product or its objects ("my spotify playlist is a tasklane list") is about the
        product; devices are what it runs on; one that reads as another language is not judged."""
        said = words_said(text, fix)
        if not reads_as_english(said) or self._ours.intersection(said) or PRODUCT_OBJECTS.intersection(said):
            return None
        for at, word in enumerate(said):
            if word in STOPWORDS or word in VAGUE or word in self._devices or self.centre.knows(word):
                continue
            # "i lost my phone in paris", "someone from berlin logged in": a place the user is at or
            # comes from tells where, not what the request is about
            if at and said[at - 1] in WHERE:
                continue
            # "connect my gmail calendar": the name says which make of a thing an article covers for any
            # make, a word of a title or tags that the help centre itself writes after a name ("Google
            # Calendar"); not what happens ("my wechat crashes", "nintendo charged me twice"), nor what
            # the product owns, which said for the name is the name's ("delete my twitter account")
            after = STEMMER.stemWord(said[at + 1]) if at + 1 < len(said) else ""
            if after in self._made and after in self.centre.headings and after not in self._owned:
                continue
            if worldwide(word):
                return word
        return None

    def outside(self, text: str, fix: Fix | None = None, doc_id: str | None = None) -> tuple[str, ...] | None:
        """The subject of the request that the help centre never names ("slack" in "connect tasklane
        to slack"), or, given the article found, that the article never names; None when it does."""
        name = self.worldwide(text, fix)
        if name is not None:
            return (name,)
        for words in (self.centre, self.articles.get(doc_id) if doc_id is not None else None):
            if words is None:
                continue
            for head in [*self.heads(text, fix, words), *self.owners(text, fix, words)]:
                if any(_names(w) for w in head if len(w) > 2):
                    return head
        return None


def _names(word: str) -> bool:
    """Whether `word`, unknown to the help centre, is a name: rare in English, and not a common word
    of another language the chat reads ("comprar" in "pago rechazado al comprar premium", a Spanish
    request the glossary wrote in English but for its grammar words). Names are about as rare in each
    language ("peloton": 2.8 in English, 3.8 in French); a word of another language is common in it
    and a point commoner than in English ("notion", 4.2 and French 4.5, stays a name)."""
    english = zipf_frequency(word, "en")
    abroad = _zipfs(word)[1:]
    return english < RARE_ZIPF and not any(z >= RARE_ZIPF and z >= english + FOREIGN_MARGIN for z in abroad)


def worldwide(word: str) -> bool:
    """Whether `word` is a name the world shares: known in English, about as common in the other
    languages on average (WORLDWIDE_GAP), and no other language's own word (much commoner there:
    "quiero", "merci"). Brands and places are written alike in every language; nouns are translated."""
    if len(word) < WORLDWIDE_LETTERS or not _ALPHA.fullmatch(word):
        return False
    english, *abroad = _world_zipfs(word)
    if english < WORLDWIDE_ZIPF:
        return False
    if any(z >= english + FOREIGN_MARGIN for z in abroad):
        return False
    return sum(abroad) / len(abroad) >= english - WORLDWIDE_GAP
