"""How a card is shown: its index letter, its name and its suit symbol per deck.

The rules core knows the names; this module adds what drawing needs and writes German
names the way the site does, with a hyphen: "Rosen-6", "Eichel-Ass", "Schilten-König"
(the core's ``card_name`` gives "Rosen 6"; both parse back to the same card). English
and French names are the core's: "6 of roses", "valet de cœur".
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core import Card, card_name
from rules_core.cards import LANGS

# The corner index. Swiss-German cards show U/O for Under/Ober in every language (the
# French names are «under», «ober» too) and K, A as in the other languages;
# French cards show German (Bube, Dame), English (jack, queen) or French letters: V, D,
# R for valet, dame, roi, as the corners of French playing cards do; the ace stays A.
_INDEX = {
    ("swiss", "de"): {"J": "U", "Q": "O"},
    ("swiss", "en"): {"J": "U", "Q": "O"},
    ("swiss", "fr"): {"J": "U", "Q": "O"},
    ("french", "de"): {"J": "B", "Q": "D"},
    ("french", "en"): {"J": "J", "Q": "Q"},
    ("french", "fr"): {"J": "V", "Q": "D", "K": "R"},
}


@dataclass(frozen=True, slots=True)
class CardView:
    code: str
    suit: str
    index: str
    label: str
    symbol: str


def display_name(card: Card | str, lang: str, deck: str) -> str:
    """A card's name as people read it: "Rosen-6", "Eichel-Ass" / "6 of roses" /
    "valet de cœur".

    >>> display_name("H6", "de", "swiss"), display_name("CA", "de", "swiss")
    ('Rosen-6', 'Eichel-Ass')
    >>> display_name("SK", "de", "french"), display_name("H6", "en", "swiss")
    ('Schaufel-König', '6 of roses')
    >>> display_name("HJ", "fr", "french"), display_name("C10", "fr", "swiss")
    ('valet de cœur', 'bannière de glands')
    """
    lang = lang if lang in LANGS else "de"
    deck = deck if deck in ("swiss", "french") else "swiss"
    name = card_name(card, lang=lang, deck=deck)
    # German names are "<Suit> <Rank>", one word each.
    return name.replace(" ", "-", 1) if lang == "de" else name


def card_view(card: Card | str, lang: str, deck: str) -> CardView:
    """What drawing a card needs: its corner letter, its name and its suit symbol.

    >>> [card_view(c, "fr", "french").index for c in ("HJ", "HQ", "HK", "HA", "H10")]
    ['V', 'D', 'R', 'A', '10']
    >>> [card_view(c, "fr", "swiss").index for c in ("HJ", "HQ", "HK", "HA", "H10")]
    ['U', 'O', 'K', 'A', '10']
    >>> card_view("HQ", "fr", "french").label, card_view("HQ", "de", "french").index
    ('dame de cœur', 'D')
    """
    card = Card.parse(card) if isinstance(card, str) else card
    lang = lang if lang in LANGS else "de"
    deck = deck if deck in ("swiss", "french") else "swiss"
    rank = card.rank.code
    return CardView(
        code=str(card),
        suit=card.suit.code,
        index=_INDEX[(deck, lang)].get(rank, rank),
        label=display_name(card, lang, deck),
        symbol=f"{deck}-{card.suit.code}",
    )
