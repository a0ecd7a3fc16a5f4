"""How a card is shown: its index letter, its name and its suit symbol per deck.

The rules core knows the names; this module only adds what drawing needs.
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


def card_view(card: Card | str, lang: str, deck: str) -> CardView:
    card = Card.parse(card) if isinstance(card, str) else card
    lang = lang if lang in ("de", "en") else "de"
    deck = deck if deck in ("swiss", "french") else "swiss"
    rank = card.rank.code
    return CardView(
        code=str(card),
        suit=card.suit.code,
        index=_INDEX[(deck, lang)].get(rank, rank),
        label=card_name(card, lang=lang, deck=deck),
        symbol=f"{deck}-{card.suit.code}",
    )
