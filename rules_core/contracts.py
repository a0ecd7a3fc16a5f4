"""Contracts (RULES R2.4): Trumpf in one of the four suits, Obenabe, Undenufe;
and the trump names Puur and Nell (R1.3), which depend on the contract.

>>> Contract.parse("H"), Contract.parse("Rosen"), Contract.parse("hearts trumps")
(<Contract.H: 'H'>, <Contract.H: 'H'>, <Contract.H: 'H'>)
>>> Contract.parse("Obenabe").trump is None, Contract.parse("undenufe").code
(True, 'undenufe')
>>> Contract.parse("S").trump, Contract.parse("Schilten").display_name("en")
(<Suit.S: 2>, 'Trump shields')
>>> Contract.parse("atout cœur"), Contract.parse("oben-abe"), Contract.parse("unden-ufe")
(<Contract.H: 'H'>, <Contract.OBENABE: 'obenabe'>, <Contract.UNDENUFE: 'undenufe'>)
"""

from __future__ import annotations

from enum import Enum

from .cards import Card, Rank, Suit, normalize_name, suit_name
from .errors import CardParseError

__all__ = ["Contract", "trump_name"]


class Contract(Enum):
    """A contract (R2.4). ``.code`` is stable: ``"D" "H" "S" "C" "obenabe" "undenufe"``.

    Members ``D H S C`` (a trump suit), ``OBENABE`` (no trump, ace high),
    ``UNDENUFE`` (no trump, six high).

    ``index`` (a plain attribute, set once: the hot paths read it) is 0..3 for
    the trump contracts D H S C, 4 Obenabe, 5 Undenufe; ``trump`` is the trump
    :class:`Suit`, or None for Obenabe and Undenufe.

    >>> [c.code for c in Contract]
    ['D', 'H', 'S', 'C', 'obenabe', 'undenufe']
    >>> Contract.for_suit(Suit.C), str(Contract.OBENABE), Contract.OBENABE.index
    (<Contract.C: 'C'>, 'obenabe', 4)
    """

    D = "D"
    H = "H"
    S = "S"
    C = "C"
    OBENABE = "obenabe"
    UNDENUFE = "undenufe"

    _value_: str
    index: int
    _trump: Suit | None

    @property
    def code(self) -> str:
        """Stable code for storage and URLs."""
        return self._value_

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None for Obenabe and Undenufe."""
        return self._trump

    def __str__(self) -> str:
        return self._value_

    def display_name(self, lang: str = "de", deck: str = "swiss") -> str:
        """A name to show: ``Trumpf Rosen`` / ``Trump hearts``, ``Obenabe``, ``Undenufe``;
        in French ``atout roses`` / ``atout cœur``, ``oben-abe``, ``unden-ufe``.

        French names are lower-case (TERMS.md: a capital only starts a sentence), as
        the catalogue puts them inside sentences: «en %(contract)s».

        >>> Contract.H.display_name(), Contract.H.display_name("de", "french")
        ('Trumpf Rosen', 'Trumpf Herz')
        >>> Contract.H.display_name("en", "french"), Contract.UNDENUFE.display_name("en")
        ('Trump hearts', 'Undenufe')
        >>> Contract.H.display_name("fr"), Contract.H.display_name("fr", "french")
        ('atout roses', 'atout cœur')
        >>> Contract.OBENABE.display_name("fr"), Contract.UNDENUFE.display_name("fr", "french")
        ('oben-abe', 'unden-ufe')
        """
        trump = self.trump
        if trump is None:
            suit_name(Suit.D, lang, deck)  # validates lang and deck
            if lang == "fr":
                return "oben-abe" if self is Contract.OBENABE else "unden-ufe"
            return "Obenabe" if self is Contract.OBENABE else "Undenufe"
        suit = suit_name(trump, lang, deck)  # validates lang and deck
        return f"{_TRUMP_WORD[lang]} {suit}"

    @classmethod
    def for_suit(cls, suit: Suit | str) -> Contract:
        """The trump contract of ``suit``."""
        return _BY_SUIT[Suit.parse(suit)]

    @classmethod
    def parse(cls, text: str | Contract) -> Contract:
        """Read a contract: a suit code or name (optionally with "Trumpf"/"trump"/"atout"),
        ``obenabe`` or ``undenufe`` (also ``oben``, ``unde``, ``top-down``,
        ``bottom-up``, ``oben-abe``, ``unden-ufe``), case-insensitive.

        >>> texts = ("d", "Trumpf Eicheln", "spades", "Obe-Abe", "UNDEUFE")
        >>> [Contract.parse(t).code for t in texts]
        ['D', 'C', 'S', 'obenabe', 'undenufe']
        """
        if type(text) is Contract:
            return text
        if not isinstance(text, str):
            raise CardParseError(f"expected a contract, got {type(text).__name__}")
        norm = normalize_name(text)
        squashed = norm.replace(" ", "")
        if squashed in _NO_TRUMP:
            return _NO_TRUMP[squashed]
        words = [w for w in norm.split(" ") if w not in _TRUMP_WORDS]
        if len(words) == 1:
            try:
                return _BY_SUIT[Suit.parse(words[0])]
            except CardParseError:
                pass
        raise CardParseError(
            f"unknown contract {text!r}; use D H S C (or a suit name) for a trump suit, "
            "obenabe or undenufe"
        )


_TRUMP: dict[Contract, Suit | None] = {
    Contract.D: Suit.D,
    Contract.H: Suit.H,
    Contract.S: Suit.S,
    Contract.C: Suit.C,
    Contract.OBENABE: None,
    Contract.UNDENUFE: None,
}
for _index, _contract in enumerate(Contract):
    _contract.index = _index
    _contract._trump = _TRUMP[_contract]
del _index, _contract

_TRUMP_WORD = {"de": "Trumpf", "en": "Trump", "fr": "atout"}
_BY_SUIT = {suit: contract for contract, suit in _TRUMP.items() if suit is not None}
_TRUMP_WORDS = frozenset({"trumpf", "trump", "trumps", "atout", "isch", "ist", "is", "are"})
_NO_TRUMP = {
    **dict.fromkeys(
        ("obenabe", "obeabe", "obenabi", "oben", "obe", "topdown", "obenab"), Contract.OBENABE
    ),
    **dict.fromkeys(
        ("undenufe", "undeufe", "undenuf", "unden", "unde", "untenauf", "bottomup", "undenufi"),
        Contract.UNDENUFE,
    ),
}


def trump_name(card: Card | str, contract: Contract | str) -> str | None:
    """``"Puur"`` for the trump Under, ``"Nell"`` for the trump 9, else None (R1.3).

    >>> trump_name("HJ", "H"), trump_name("H9", "H"), trump_name("SJ", "H")
    ('Puur', 'Nell', None)
    >>> print(trump_name("HJ", "obenabe"))
    None
    """
    c = Card.parse(card)
    trump = Contract.parse(contract).trump
    if c.suit is not trump:
        return None
    if c.rank is Rank.UNDER:
        return "Puur"
    if c.rank is Rank.NINE:
        return "Nell"
    return None
