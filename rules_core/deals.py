"""Deals and legal play logs, for exercises, quiz generators, tests and the benchmark.

>>> import random
>>> hands = deal_cards(random.Random(7))
>>> [len(h) for h in hands]
[9, 9, 9, 9]
>>> plays = play_round(hands, "H", rng=random.Random(7))
>>> len(plays), plays[0][0]
(36, 0)
>>> from rules_core import score_round
>>> blocks = score_round(hands, "H", plays, []).blocks
>>> blocks[0]["tricks"] + blocks[1]["tricks"]
157
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ._coerce import cards_of, coerce_card, coerce_contract, hands_masks
from ._play import ROUND_PLAYS, PlayState
from .aliases import CardLike, ContractLike, HandsLike, Seat
from .cards import DECK, Card, parse_cards
from .errors import IllegalPlayError, RulesError
from .tricks import verdict

__all__ = ["deal_cards", "fill_hands", "parse_hands", "play_round"]

Hand = tuple[Card, ...]
Play = tuple[Seat, Card]


def deal_cards(rng: random.Random | int) -> tuple[Hand, Hand, Hand, Hand]:
    """Shuffle and deal nine cards to each seat; ``rng`` is a Random or a seed.

    >>> deal_cards(1) == deal_cards(random.Random(1))
    True
    """
    if isinstance(rng, bool) or not isinstance(rng, (random.Random, int)):
        raise RulesError(f"rng must be a random.Random or an integer seed, got {rng!r}")
    rng = random.Random(rng) if isinstance(rng, int) else rng
    cards = list(DECK)
    rng.shuffle(cards)
    h0, h1, h2, h3 = (tuple(sorted(cards[9 * s : 9 * s + 9])) for s in range(4))
    return h0, h1, h2, h3


def parse_hands(text: str) -> tuple[Hand, Hand, Hand, Hand]:
    """Four hands from ``"hand0 / hand1 / hand2 / hand3"`` (no card twice).

    >>> parse_hands("H6 H7 / S6 / / C6")[1]
    (Card('S6'),)
    """
    hands_masks(text)  # checks the four hands
    h0, h1, h2, h3 = (parse_cards(part) for part in text.split("/"))
    return h0, h1, h2, h3


def fill_hands(partial: HandsLike) -> tuple[Hand, Hand, Hand, Hand]:
    """Complete four partial hands to nine cards each with the unused cards, in
    deck order (D6 first). Handy to set up a scene and deal the rest.

    >>> [len(h) for h in fill_hands("HK HQ / / / DA")]
    [9, 9, 9, 9]
    >>> fill_hands("HK HQ / / / DA")[0][:3]
    (Card('D6'), Card('D7'), Card('D8'))
    """
    masks = hands_masks(partial)
    hands = [list(cards_of(m)) for m in masks]
    used = masks[0] | masks[1] | masks[2] | masks[3]
    rest = [c for c in DECK if not used & c.bit]
    for hand in hands:
        while len(hand) < 9:
            hand.append(rest.pop(0))
    h0, h1, h2, h3 = (tuple(sorted(h)) for h in hands)
    return h0, h1, h2, h3


def play_round(
    hands: HandsLike,
    contract: ContractLike,
    *,
    rng: random.Random | None = None,
    prefix: Sequence[tuple[Seat, CardLike]] = (),
    choose: Callable[[tuple[Card, ...]], Card] | None = None,
    plays: int = ROUND_PLAYS,
) -> list[Play]:
    """A legal play log: ``prefix`` (checked), then ``choose(legal_cards)`` for each
    further play (default: a random legal card with ``rng``, else the first one
    in card order), up to ``plays`` plays. Seat 0 leads (R2.3), seats play in turn
    (R2.1), every card is legal (R3.1, R3.2, R3.3, R3.4, R3.5) and the winner leads
    the next trick (R3.6). The stateless view of the same rules as
    :class:`~rules_core.Round`: it steps the same trick-play code.

    >>> log = play_round(parse_hands("D6 D7 D8 D9 D10 DJ DQ DK DA / H6 H7 H8 H9 H10 HJ HQ HK HA"
    ...                              "/ S6 S7 S8 S9 S10 SJ SQ SK SA / C6 C7 C8 C9 C10 CJ CQ CK CA"),
    ...                  "H", plays=5)
    >>> [(s, str(c)) for s, c in log]
    [(0, 'D6'), (1, 'H6'), (2, 'S6'), (3, 'C6'), (1, 'H7')]
    """
    c = coerce_contract(contract)
    masks = hands_masks(hands, full_deal=True)
    if type(plays) is not int or not 0 <= plays <= ROUND_PLAYS:
        raise RulesError(f"plays must be 0..36, got {plays!r}")
    if choose is None:
        choose = (lambda legal: rng.choice(legal)) if rng is not None else (lambda legal: legal[0])
    state = PlayState(masks, c)  # the trick play of score_round and Round
    log: list[Play] = []
    for i in range(plays):
        seat = state.to_play
        legal = cards_of(state.legal_mask())
        if i < len(prefix):
            card = _prefix_card(i, prefix[i], seat, legal, state)
        else:
            card = choose(legal)
            if card not in legal:
                hand, trick = _hand_and_trick(state)
                why = verdict(card, hand, trick, c) if card in hand else None
                raise IllegalPlayError(
                    f"choose() returned {card}, not one of the legal cards",
                    rule=None if why is None else why.rule,
                )
        state.extend(((seat, card),))
        log.append((seat, card))
    return log


def _hand_and_trick(state: PlayState) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The hand of the player to move and the cards of the trick in play."""
    cards = state.log.cards
    n = len(cards)
    return cards_of(state.hands[state.to_play]), tuple(DECK[x] for x in cards[n - n % 4 :])


def _prefix_card(
    i: int, play: tuple[Seat, CardLike], seat: Seat, legal: tuple[Card, ...], state: PlayState
) -> Card:
    """Play ``i`` of a prefix, checked: the seat to play (R2.3, R3.6, R2.1) and a legal card."""
    given_seat, given = play
    card = coerce_card(given, f"prefix play {i}")
    if given_seat == seat and card in legal:
        return card
    hand, trick = _hand_and_trick(state)
    rule: str | None
    if given_seat != seat:
        rule = "R2.3" if i == 0 else "R3.6" if not trick else "R2.1"
    else:
        rule = verdict(card, hand, trick, state.contract).rule if card in hand else None
    raise IllegalPlayError(
        f"prefix play {i}: seat {given_seat} plays {card}, but seat {seat} is to play "
        f"one of {' '.join(x.code for x in legal)}" + (f" ({rule})" if rule else ""),
        rule=rule,
    )
