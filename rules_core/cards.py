"""Cards, suits and ranks (RULES R1.1, R1.2, R1.3), their codes and their names.

A card's code is suit + rank: ``H7``, ``S10``, ``DJ``, ``CA`` (R1.2). Suits are
``D H S C`` (Schellen, Rosen, Schilten, Eicheln; French deck: diamonds/Ecken/carreau,
hearts/Herz/cœur, spades/Schaufeln/pique, clubs/Kreuz/trèfle). Ranks in natural order
are ``6 7 8 9 10 J Q K A`` (J = Under, Q = Ober).

There are exactly 36 :class:`Card` objects; ``Card.parse`` and ``Card(suit, rank)``
return them, so cards compare by identity and hash fast.

>>> Card.parse("S10"), Card.parse("Rosen Ober"), Card.parse("queen of hearts")
(Card('S10'), Card('HQ'), Card('HQ'))
>>> parse_cards("H6 H7 Schellen Banner, Eichel Under")
(Card('H6'), Card('H7'), Card('D10'), Card('CJ'))
>>> parse_cards("valet de cœur, as de trefle; ober de roses")
(Card('HJ'), Card('CA'), Card('HQ'))
>>> len(DECK), DECK[0], DECK[-1]
(36, Card('D6'), Card('CA'))

Names, in German (``"de"``), English (``"en"``) or French (``"fr"``), for the
Swiss-German or the French deck. German puts the suit first ("Rosen Ober"); English
uses "<rank> of <suit>" as S-EN does ("Ober of roses", "queen of hearts"); French
"<rang> de <couleur>" ("ober de roses", "dame de cœur"):

>>> card = Card.parse("HQ")
>>> card_name(card), card_name(card, deck="french")
('Rosen Ober', 'Herz Dame')
>>> card_name(card, lang="en"), card_name(card, lang="en", deck="french")
('Ober of roses', 'queen of hearts')
>>> card_name(card, lang="fr"), card_name(card, lang="fr", deck="french")
('ober de roses', 'dame de cœur')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from enum import Enum
from functools import total_ordering
from typing import Any, TypeVar

from .errors import CardParseError, RulesError

__all__ = [
    "DECK",
    "Card",
    "Rank",
    "Suit",
    "card_name",
    "normalize_name",
    "parse_cards",
    "rank_name",
    "suit_name",
]

LANGS = ("de", "en", "fr")
DECKS = ("swiss", "french")

_SUIT_CODES = ("D", "H", "S", "C")
_RANK_CODES = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


def normalize_name(text: str) -> str:
    """Lower-case ``text``, fold accents and umlauts, and tidy the spaces.

    Used to read names a person types. Umlauts fold to the bare vowel
    (``König`` -> ``konig``); the spelling ``koenig`` is registered separately.

    >>> normalize_name("  Schellen-KÖNIG ")
    'schellen konig'
    """
    text = text.strip().lower().replace("ß", "ss").replace("œ", "oe").replace("æ", "ae")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[-_.]+", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def _variants(name: str) -> set[str]:
    """Spellings of ``name`` to accept: umlaut folded to the vowel and to vowel + e."""
    low = name.lower()
    spelled_e = low.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    return {normalize_name(low), normalize_name(spelled_e)}


_V = TypeVar("_V")


def _alias_table(words: dict[_V, tuple[str, ...]], what: str) -> dict[str, _V]:
    table: dict[str, _V] = {}
    for value, names in words.items():
        for name in names:
            for variant in _variants(name):
                if table.get(variant, value) is not value:  # pragma: no cover - table bug
                    raise AssertionError(f"{what} alias {variant!r} is ambiguous")
                table[variant] = value
    return table


@total_ordering
class Suit(Enum):
    """A suit (R1.1). Members ``D H S C``; ``str(suit)`` is its code.

    >>> Suit.parse("Rosen"), Suit.parse("hearts"), Suit.parse("Eichle"), Suit.parse("s")
    (<Suit.H: 1>, <Suit.H: 1>, <Suit.C: 3>, <Suit.S: 2>)
    >>> Suit.parse("cœur"), Suit.parse("coeurs"), Suit.parse("glands"), Suit.parse("trefle")
    (<Suit.H: 1>, <Suit.H: 1>, <Suit.C: 3>, <Suit.C: 3>)
    >>> str(Suit.S), Suit.S.index
    ('S', 2)
    """

    D = 0
    H = 1
    S = 2
    C = 3

    @property
    def code(self) -> str:
        """The one-letter code ``D H S C``."""
        return self.name

    @property
    def index(self) -> int:
        """0 for D up to 3 for C."""
        return self.value

    def __str__(self) -> str:
        return self.name

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Suit):
            return self.value < other.value
        return NotImplemented

    @classmethod
    def parse(cls, text: str | Suit) -> Suit:
        """Read a suit code or name (any deck, German, Swiss German, English, French).

        >>> Suit.parse("Schaufeln"), Suit.parse("Ecken"), Suit.parse("Kreuz")
        (<Suit.S: 2>, <Suit.D: 0>, <Suit.C: 3>)
        """
        if isinstance(text, Suit):
            return text
        if not isinstance(text, str):
            raise CardParseError(f"expected a suit name or code, got {type(text).__name__}")
        suit = _SUIT_ALIASES.get(normalize_name(text))
        if suit is None:
            raise CardParseError(
                f"unknown suit {text!r} (use D H S C or a name like Rosen, Herz, hearts)"
            )
        return suit


@total_ordering
class Rank(Enum):
    """A rank in natural order 6 < 7 < 8 < 9 < 10 < J < Q < K < A (R1.2).

    Canonical members ``SIX SEVEN EIGHT NINE TEN UNDER OBER KING ACE``; the
    aliases ``JACK QUEEN`` and the code letters ``J Q K A`` name the same members.
    ``str(rank)`` is its code.

    >>> Rank.parse("Ober"), Rank.parse("Banner"), Rank.parse("Koenig"), Rank.parse("j")
    (<Rank.OBER: 6>, <Rank.TEN: 4>, <Rank.KING: 7>, <Rank.UNDER: 5>)
    >>> Rank.J is Rank.UNDER, Rank.SIX < Rank.ACE, str(Rank.TEN)
    (True, True, '10')
    """

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    TEN = 4
    UNDER = 5
    OBER = 6
    KING = 7
    ACE = 8
    JACK = 5
    QUEEN = 6
    J = 5
    Q = 6
    K = 7
    A = 8

    @property
    def code(self) -> str:
        """The code ``6 7 8 9 10 J Q K A``."""
        return _RANK_CODES[self.value]

    @property
    def index(self) -> int:
        """0 for the 6 up to 8 for the ace (natural order, R1.2)."""
        return self.value

    def __str__(self) -> str:
        return _RANK_CODES[self.value]

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Rank):
            return self.value < other.value
        return NotImplemented

    @classmethod
    def parse(cls, text: str | Rank) -> Rank:
        """Read a rank code or name (German, Swiss German, English, French deck).

        >>> [str(Rank.parse(t)) for t in ("Under", "Bube", "Dame", "König", "As", "Ass", "ten")]
        ['J', 'J', 'Q', 'K', 'A', 'A', '10']
        >>> [str(Rank.parse(t)) for t in ("valet", "bour", "roi", "bannière", "banniere")]
        ['J', 'J', 'K', '10', '10']
        """
        if isinstance(text, Rank):
            return text
        if not isinstance(text, str):
            raise CardParseError(f"expected a rank name or code, got {type(text).__name__}")
        rank = _RANK_ALIASES.get(normalize_name(text))
        if rank is None:
            raise CardParseError(
                f"unknown rank {text!r} (use 6 7 8 9 10 J Q K A or a name like Ober, Dame, king)"
            )
        return rank


_SUIT_ALIASES: dict[str, Suit] = _alias_table(
    {
        Suit.D: (
            "d", "schellen", "schelle", "schella", "bells", "bell", "diamonds", "diamond",
            "ecken", "ecke", "egge", "eggen", "karo", "carreau", "carreaux", "grelots", "grelot",
        ),
        Suit.H: ("h", "rosen", "rose", "roses", "hearts", "heart", "herz", "herzen", "cœur",
                 "cœurs"),
        Suit.S: (
            "s", "schilten", "schilte", "schilt", "shields", "shield", "spades", "spade",
            "schaufeln", "schaufel", "schuufle", "pik", "pique", "piques", "laub", "leaves",
            "grün", "boucliers", "bouclier",
        ),
        Suit.C: (
            "c", "eicheln", "eichel", "eichle", "acorns", "acorn", "clubs", "club", "kreuz",
            "treff", "trèfle", "trèfles", "glands", "gland",
        ),
    },
    "suit",
)  # fmt: skip

_RANK_ALIASES: dict[str, Rank] = _alias_table(
    {
        Rank.SIX: ("6", "six", "sechs", "sechser", "sächsi"),
        Rank.SEVEN: ("7", "seven", "sieben", "siebner", "sept"),
        Rank.EIGHT: ("8", "eight", "acht", "achter", "huit"),
        Rank.NINE: ("9", "nine", "neun", "neuner", "neuf", "nell", "näll"),
        Rank.TEN: ("10", "ten", "zehn", "zehner", "banner", "dix", "bannière"),
        Rank.UNDER: ("j", "u", "jack", "under", "unter", "bube", "bub", "bauer", "puur", "buur",
                     "valet", "bour"),
        Rank.OBER: ("q", "o", "queen", "ober", "dame", "reine"),
        Rank.KING: ("k", "king", "könig", "konig", "roi"),
        Rank.ACE: ("a", "ace", "ass", "as", "daus"),
    },
    "rank",
)  # fmt: skip

if set(_SUIT_ALIASES) & set(_RANK_ALIASES):  # pragma: no cover - table bug
    raise AssertionError("a word is both a suit and a rank name")

_CODE_RE = re.compile(r"^(?:([dhsc])(6|7|8|9|10|j|q|k|a)|(6|7|8|9|10|j|q|k|a)([dhsc]))$")
_OF_WORDS = frozenset({"of", "von", "vom", "de", "du"})


class Card:
    """One of the 36 cards (R1.1); frozen, hashable, ordered by suit then natural
    rank (R1.2).

    ``str(card)`` is its code (R1.2); ``index`` is suit index * 9 + rank index and
    ``bit`` is ``1 << index`` (its bit in a hand mask, see :class:`CardSet`).
    ``Card(suit, rank)`` and ``Card.parse(text)`` return the one object for that card.

    >>> card = Card(Suit.S, Rank.TEN)
    >>> card, str(card), card.suit, card.rank, card.index
    (Card('S10'), 'S10', <Suit.S: 2>, <Rank.TEN: 4>, 22)
    >>> card is Card.parse("Schilten 10"), sorted(parse_cards("HA D6 H6"))
    (True, [Card('D6'), Card('H6'), Card('HA')])
    """

    __slots__ = ("suit", "rank", "index", "code", "bit")
    suit: Suit
    rank: Rank
    index: int
    code: str
    bit: int

    def __new__(cls, suit: Suit | str, rank: Rank | str) -> Card:
        try:
            s = Suit.parse(suit)
            r = Rank.parse(rank)
        except RulesError as err:
            raise CardParseError(f"cannot make a card of {suit!r} and {rank!r}: {err}") from None
        return DECK[s.value * 9 + r.value]

    @classmethod
    def _make(cls, suit: Suit, rank: Rank) -> Card:
        card = object.__new__(cls)
        index = suit.value * 9 + rank.value
        for name, value in (
            ("suit", suit),
            ("rank", rank),
            ("index", index),
            ("code", suit.name + _RANK_CODES[rank.value]),
            ("bit", 1 << index),
        ):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        return (_card_at, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index >= other.index
        return NotImplemented

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with ``index`` = suit index * 9 + rank index (0..35).

        >>> Card.from_index(10)
        Card('H7')
        """
        if type(index) is not int or not 0 <= index < 36:
            raise RulesError(f"card index must be an integer 0..35, got {index!r}")
        return DECK[index]

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read one card from a code or a name.

        Codes: ``H7``, ``s10``, ``7H``. Names: suit and rank in either order, in
        German, Swiss German, English or French words, case-insensitive and
        umlaut- and accent-tolerant: ``Rosen Ass``, ``Herz Dame``, ``hearts queen``,
        ``queen of hearts``, ``Schellen Banner``, ``Kreuz Bube``, ``Ecken König``,
        ``Ecken Koenig``, ``Schaufel As``, ``Rosenass``, ``valet de cœur``,
        ``valet de coeur``, ``cœur valet``, ``bannière de glands``.

        >>> names = ("Eichel Under", "Kreuz Bube", "spades ten", "Ecken Konig")
        >>> [str(Card.parse(t)) for t in names]
        ['CJ', 'CJ', 'S10', 'DK']
        >>> names = ("valet de cœur", "Valet de coeur", "cœur valet", "bannière de glands")
        >>> [str(Card.parse(t)) for t in names]
        ['HJ', 'HJ', 'HJ', 'C10']
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardParseError(f"expected a card code or name, got {type(text).__name__}")
        card = _BY_CODE.get(text)
        if card is not None:
            return card
        norm = normalize_name(text)
        tokens = norm.split(" ") if norm else []
        card = _parse_tokens(tokens)
        if card is None:
            raise CardParseError(_why_not_a_card(text))
        return card


def _card_at(index: int) -> Card:
    return DECK[index]


def _parse_word_card(token: str) -> Card | None:
    """One token: a code (``h7``, ``7h``) or a suit+rank compound (``rosenass``)."""
    match = _CODE_RE.match(token)
    if match:
        suit, rank, rank2, suit2 = match.groups()
        return _BY_CODE[(suit or suit2).upper() + (rank or rank2).upper()]
    for alias, suit_value in _SUIT_ALIASES_LONG_FIRST:
        if len(alias) >= 3 and token.startswith(alias) and len(token) > len(alias):
            rank_value = _RANK_ALIASES.get(token[len(alias) :])
            if rank_value is not None:
                return DECK[suit_value.value * 9 + rank_value.value]
    return None


def _parse_tokens(tokens: list[str]) -> Card | None:
    if len(tokens) == 1:
        return _parse_word_card(tokens[0])
    if len(tokens) == 3 and tokens[1] in _OF_WORDS:
        tokens = [tokens[0], tokens[2]]
    if len(tokens) == 2:
        first, second = tokens
        suit, rank = _SUIT_ALIASES.get(first), _RANK_ALIASES.get(second)
        if suit is None or rank is None:
            suit, rank = _SUIT_ALIASES.get(second), _RANK_ALIASES.get(first)
        if suit is not None and rank is not None:
            return DECK[suit.value * 9 + rank.value]
    return None


def _why_not_a_card(text: str) -> str:
    hint = "(write a code like H7 or a name like 'Rosen Ass')"
    raw = [w for w in re.split(r"[\s\-_.]+", text.strip()) if w]
    pairs = [(w, normalize_name(w)) for w in raw if normalize_name(w) not in _OF_WORDS]
    if not pairs:
        return f"cannot read {text!r} as a card: it is empty {hint}"
    suits = [w for w, n in pairs if n in _SUIT_ALIASES]
    ranks = [w for w, n in pairs if n in _RANK_ALIASES]
    unknown = [w for w, n in pairs if n not in _SUIT_ALIASES and n not in _RANK_ALIASES]
    if unknown:
        if suits and not ranks:
            return f"cannot read {text!r} as a card: unknown rank {unknown[0]!r} {hint}"
        if ranks and not suits:
            return f"cannot read {text!r} as a card: unknown suit {unknown[0]!r} {hint}"
        return f"cannot read {text!r} as a card: unknown word {unknown[0]!r} {hint}"
    if not suits:
        return f"cannot read {text!r} as a card: no suit given {hint}"
    if not ranks:
        return f"cannot read {text!r} as a card: no rank given {hint}"
    return f"cannot read {text!r} as a card: give one suit and one rank {hint}"


DECK: tuple[Card, ...] = tuple(Card._make(s, r) for s in Suit for r in Rank)
"""All 36 cards, in index order (suits D H S C, each 6 up to A)."""

_BY_CODE: dict[str, Card] = {c.code: c for c in DECK}
_SUIT_ALIASES_LONG_FIRST = sorted(_SUIT_ALIASES.items(), key=lambda kv: -len(kv[0]))


def parse_cards(cards: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Read several cards: a string of codes and names, or an iterable of cards/strings.

    In a string, cards are separated by spaces, commas or semicolons; a name may
    take two or three words (``Rosen Ass``, ``queen of hearts``). Duplicates are
    kept (checking a hand is the caller's job).

    >>> parse_cards("H6 h7 8h, Rosen Neun; ten of hearts")
    (Card('H6'), Card('H7'), Card('H8'), Card('H9'), Card('H10'))
    >>> parse_cards(["SA", Card.parse("SK")])
    (Card('SA'), Card('SK'))
    >>> parse_cards("")
    ()
    """
    if isinstance(cards, Card):
        return (cards,)
    if isinstance(cards, str):
        return _parse_card_string(cards)
    if isinstance(cards, (bytes, bytearray)) or not isinstance(cards, Iterable):
        raise CardParseError(f"expected cards (a string or a list), got {type(cards).__name__}")
    out = []
    for position, item in enumerate(cards, 1):
        try:
            out.append(Card.parse(item))
        except CardParseError as err:
            raise CardParseError(f"card {position}: {err}") from None
    return tuple(out)


def _parse_card_string(text: str) -> tuple[Card, ...]:
    out: list[Card] = []
    for chunk in re.split(r"[,;]", text):
        raw = chunk.split()
        tokens = [normalize_name(t) for t in raw]
        # a hyphenated name like "Rosen-Ass" is one raw token but two words
        i = 0
        while i < len(tokens):
            for width in (3, 2, 1):
                if width > len(tokens) - i:
                    continue
                words = " ".join(tokens[i : i + width]).split(" ")
                card = _parse_tokens(words)
                if card is not None:
                    out.append(card)
                    i += width
                    break
            else:
                words = [w for t in tokens[i : i + 2] for w in t.split(" ")]
                known = words[0] in _SUIT_ALIASES or words[0] in _RANK_ALIASES
                text = " ".join(raw[i : i + 2]) if known and i + 1 < len(raw) else raw[i]
                raise CardParseError(_why_not_a_card(text))
    return tuple(out)


# ---------------------------------------------------------------------------
# Names

_SUIT_NAMES = {
    ("de", "swiss"): ("Schellen", "Rosen", "Schilten", "Eicheln"),
    ("de", "french"): ("Ecken", "Herz", "Schaufeln", "Kreuz"),
    ("en", "swiss"): ("bells", "roses", "shields", "acorns"),
    ("en", "french"): ("diamonds", "hearts", "spades", "clubs"),
    ("fr", "swiss"): ("grelots", "roses", "boucliers", "glands"),
    ("fr", "french"): ("carreau", "cœur", "pique", "trèfle"),
}
# French card names say "<rang> de <couleur>": "de" and never "d'", as no French suit
# name starts with a vowel (tests/rules_core/test_rules_cards.py checks it).
_SUIT_IN_CARD_NAME = {
    ("de", "swiss"): ("Schellen", "Rosen", "Schilten", "Eichel"),
    ("de", "french"): ("Ecken", "Herz", "Schaufel", "Kreuz"),
    ("en", "swiss"): _SUIT_NAMES[("en", "swiss")],
    ("en", "french"): _SUIT_NAMES[("en", "french")],
    ("fr", "swiss"): _SUIT_NAMES[("fr", "swiss")],
    ("fr", "french"): _SUIT_NAMES[("fr", "french")],
}
_RANK_NAMES = {
    ("de", "swiss"): ("6", "7", "8", "9", "Banner", "Under", "Ober", "König", "Ass"),
    ("de", "french"): ("6", "7", "8", "9", "10", "Bube", "Dame", "König", "Ass"),
    ("en", "swiss"): ("6", "7", "8", "9", "10", "Under", "Ober", "king", "ace"),
    ("en", "french"): ("6", "7", "8", "9", "10", "jack", "queen", "king", "ace"),
    ("fr", "swiss"): ("6", "7", "8", "9", "bannière", "under", "ober", "roi", "as"),
    ("fr", "french"): ("6", "7", "8", "9", "10", "valet", "dame", "roi", "as"),
}


def _style(lang: str, deck: str) -> tuple[str, str]:
    if lang not in LANGS:
        raise RulesError(f"unknown language {lang!r}; choose one of: {', '.join(LANGS)}")
    if deck not in DECKS:
        raise RulesError(f"unknown deck {deck!r}; choose one of: {', '.join(DECKS)}")
    return (lang, deck)


def suit_name(suit: Suit | str, lang: str = "de", deck: str = "swiss") -> str:
    """The name of a suit.

    German Swiss deck: Schellen, Rosen, Schilten, Eicheln; German French deck:
    Ecken, Herz, Schaufeln, Kreuz; English: bells, roses, shields, acorns /
    diamonds, hearts, spades, clubs; French: grelots, roses, boucliers, glands /
    carreau, cœur, pique, trèfle.

    >>> [suit_name(s) for s in Suit]
    ['Schellen', 'Rosen', 'Schilten', 'Eicheln']
    >>> [suit_name(s, "en", "french") for s in Suit]
    ['diamonds', 'hearts', 'spades', 'clubs']
    >>> [suit_name(s, "fr") for s in Suit]
    ['grelots', 'roses', 'boucliers', 'glands']
    >>> [suit_name(s, "fr", "french") for s in Suit]
    ['carreau', 'cœur', 'pique', 'trèfle']
    """
    return _SUIT_NAMES[_style(lang, deck)][Suit.parse(suit).value]


def rank_name(rank: Rank | str, lang: str = "de", deck: str = "swiss") -> str:
    """The name of a rank; 6 to 9 (and 10 outside the German and French Swiss deck)
    stay digits.

    >>> [rank_name(r) for r in ("10", "J", "Q", "K", "A")]
    ['Banner', 'Under', 'Ober', 'König', 'Ass']
    >>> [rank_name(r, "de", "french") for r in ("10", "J", "Q")]
    ['10', 'Bube', 'Dame']
    >>> [rank_name(r, "en") for r in ("J", "Q", "K")], rank_name("J", "en", "french")
    (['Under', 'Ober', 'king'], 'jack')
    >>> [rank_name(r, "fr") for r in ("10", "J", "Q", "K", "A")]
    ['bannière', 'under', 'ober', 'roi', 'as']
    >>> [rank_name(r, "fr", "french") for r in ("10", "J", "Q", "K", "A")]
    ['10', 'valet', 'dame', 'roi', 'as']
    """
    return _RANK_NAMES[_style(lang, deck)][Rank.parse(rank).value]


def card_name(card: Card | str, lang: str = "de", deck: str = "swiss") -> str:
    """The name of a card: German "<Suit> <Rank>", English "<rank> of <suit>",
    French "<rang> de <couleur>".

    In card names the German Swiss acorns are "Eichel" and the French spades
    "Schaufel" (the suit names are "Eicheln", "Schaufeln"). French names take the
    suit name as it is: plural for the Swiss deck ("as de glands"), singular for
    the French deck ("as de trèfle").

    >>> card_name("S10"), card_name("CJ"), card_name("SA", deck="french")
    ('Schilten Banner', 'Eichel Under', 'Schaufel Ass')
    >>> card_name("D10", "en"), card_name("CK", "en", "french")
    ('10 of bells', 'king of clubs')
    >>> card_name("HJ", "fr", "french"), card_name("CA", "fr", "french"), card_name("S9", "fr")
    ('valet de cœur', 'as de trèfle', '9 de boucliers')
    >>> card_name("C10", "fr"), card_name("S9", "fr", "french")
    ('bannière de glands', '9 de pique')
    """
    c = Card.parse(card)
    style = _style(lang, deck)
    suit = _SUIT_IN_CARD_NAME[style][c.suit.value]
    rank = _RANK_NAMES[style][c.rank.value]
    if lang == "de":
        return f"{suit} {rank}"
    return f"{rank} of {suit}" if lang == "en" else f"{rank} de {suit}"
