"""The site's players: simple, legal, deterministic (documented in :mod:`teaching.table`).

>>> from rules_core import parse_cards
>>> str(bot_card(parse_cards("S6 SA H6 HJ"), parse_cards("SK"), "H"))  # win with 0 points
'H6'
>>> str(bot_card(parse_cards("S6 SA HJ"), parse_cards("SK"), "H"))  # SA: 11, HJ: 20
'SA'
>>> str(bot_card(parse_cards("S6 SA H6 H9"), parse_cards("SK HJ"), "H"))  # cannot win: lowest
'S6'
>>> str(bot_card(parse_cards("S6 SA H6"), parse_cards("SK SQ"), "H"))  # partner wins: lowest
'S6'
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_core import Card, Contract, card_points, legal_cards, trick_winner

__all__ = ["bot_card", "card_cost", "strength"]

_TRUMP_ORDER = ("6", "7", "8", "10", "Q", "K", "A", "9", "J")  # low to high (R3.6)


def strength(card: Card, contract: Contract) -> int:
    """The card's place in its trick order, higher is stronger (R3.6): trumps
    ``6 7 8 10 Q K A 9 J`` above every other card; other suits and Obenabe natural
    order; Undenufe reversed. Only cards of one suit or trumps compare in a trick.

    >>> strength(Card.parse("HJ"), Contract.H) > strength(Card.parse("HA"), Contract.H)
    True
    >>> u = Contract.UNDENUFE
    >>> strength(Card.parse("S6"), u) > strength(Card.parse("SA"), u)
    True
    """
    trump = contract.trump
    if trump is not None and card.suit is trump:
        return 100 + _TRUMP_ORDER.index(card.rank.code)
    if contract is Contract.UNDENUFE:
        return 8 - card.rank.index
    return card.rank.index


def card_cost(card: Card, contract: Contract) -> tuple[int, int, int]:
    """How much a card is worth giving away: card points (R4.1-R4.3), then trick
    strength, then deck order (so that every tie is broken the same way)."""
    return (card_points(card, contract), strength(card, contract), card.index)


def bot_card(hand: Sequence[Card], trick: Sequence[Card], contract: Contract | str) -> Card:
    """The card a site player plays: among the legal cards (``rules_core.legal_cards``),
    when the partner is not already winning the trick, the cheapest card that wins
    it; otherwise (partner winning, leading, or no card wins) the cheapest card.
    "Cheapest" is :func:`card_cost`."""
    c = Contract.parse(contract) if not isinstance(contract, Contract) else contract
    legal = legal_cards(tuple(hand), tuple(trick), c)
    if trick:
        n = len(trick)
        partner_winning = n >= 2 and trick_winner(tuple(trick), c) == n - 2
        if not partner_winning:
            winners = [x for x in legal if trick_winner((*trick, x), c) == n]
            if winners:
                return min(winners, key=lambda x: card_cost(x, c))
    return min(legal, key=lambda x: card_cost(x, c))
