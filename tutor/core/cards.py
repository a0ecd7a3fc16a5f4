"""How a card is shown: its index letter, its name and its suit symbol per deck.

The rules core knows the names; this module adds what drawing needs and writes German
names the way the site does, with a hyphen: "Rosen-6", "Eichel-Ass", "Schilten-König"
(the core's ``card_name`` gives "Rosen 6"; both parse back to the same card).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core import Card, card_name

# The corner index. Swiss-German cards show U/O for Under/Ober in both languages;
# French cards show German (Bube, Dame) or English (jack, queen) letters.
_INDEX = {
    ("swiss", "de"): {"J": "U", "Q": "O"},
    ("swiss", "en"): {"J": "U", "Q": "O"},
    ("french", "de"): {"J": "B", "Q": "D"},
    ("french", "en"): {"J": "J", "Q": "Q"},
}


@dataclass(frozen=True, slots=True)
class CardView:
    code: str
    suit: str
    index: str
    label: str
    symbol: str


def display_name(card: Card | str, lang: str, deck: str) -> str:
    """A card's name as people read it: "Rosen-6", "Eichel-Ass" / "6 of roses".

    >>> display_name("H6", "de", "swiss"), display_name("CA", "de", "swiss")
    ('Rosen-6', 'Eichel-Ass')
    >>> display_name("SK", "de", "french"), display_name("H6", "en", "swiss")
    ('Schaufel-König', '6 of roses')
    """
    lang = lang if lang in ("de", "en") else "de"
    deck = deck if deck in ("swiss", "french") else "swiss"
    name = card_name(card, lang=lang, deck=deck)
    # German names are "<Suit> <Rank>", one word each.
    return name.replace(" ", "-", 1) if lang == "de" else name


def card_view(card: Card | str, lang: str, deck: str) -> CardView:
    card = Card.parse(card) if isinstance(card, str) else card
    lang = lang if lang in ("de", "en") else "de"
    deck = deck if deck in ("swiss", "french") else "swiss"
    rank = card.rank.code
    return CardView(
        code=str(card),
        suit=card.suit.code,
        index=_INDEX[(deck, lang)].get(rank, rank),
        label=display_name(card, lang, deck),
        symbol=f"{deck}-{card.suit.code}",
    )
