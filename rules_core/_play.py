"""Checking and replaying a play log (internal, the hot path of score_round).

A play log is a sequence of ``(seat, card)`` pairs in the order played. Seat 0
leads the first trick (R2.3), each seat plays once per trick in seat order
(R2.1), the winner leads the next trick (R3.6); every card comes from the
player's hand (R2.2), is played once, and is legal (R3.1, R3.2, R3.3, R3.4, R3.5).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import _tables as T
from ._coerce import CARD_INDEX, cards_of, coerce_card
from .aliases import Mask, PlaysLike, Seat
from .cards import DECK
from .contracts import Contract
from .errors import IllegalPlayError, RulesError
from .tables import ROUND_PLAYS
from .tricks import verdict

__all__ = ["ROUND_PLAYS", "PlayLog", "run_plays"]


class PlayLog:
    """What a checked play log tells: per play seat and card index, per complete
    trick ``(leader, winner, card points)``, and the plays of the trump K and Q."""

    __slots__ = ("seats", "cards", "tricks", "stoeck_plays")

    def __init__(
        self,
        seats: list[int],
        cards: list[int],
        tricks: list[tuple[int, int, int]],
        stoeck_plays: list[int],
    ) -> None:
        self.seats = seats
        self.cards = cards
        self.tricks = tricks
        self.stoeck_plays = stoeck_plays


def run_plays(
    masks: tuple[Mask, Mask, Mask, Mask],
    contract: Contract,
    plays: PlaysLike | object,  # checked here
    *,
    complete: bool,
) -> PlayLog:
    """Check a play log against the hands and replay it. Raises IllegalPlayError.

    The running code of the turn order and of trick play: seat 0 leads the first
    trick (R2.3), seats play in turn (R2.1), each card from the player's own hand
    (R2.2), legal by R3.1, R3.2, R3.3, R3.4 and R3.5 (:func:`_tables.legal_mask`);
    the highest trump, else the highest card of the led suit, wins and leads the
    next trick (R3.6); card points by R4.1, R4.2, R4.3.
    """
    if not isinstance(plays, Sequence) or isinstance(plays, (str, bytes, bytearray)):
        raise RulesError(f"plays must be a list of (seat, card) pairs, got {type(plays).__name__}")
    n = len(plays)
    if n > ROUND_PLAYS or (complete and n != ROUND_PLAYS):
        raise RulesError(
            f"a round has {ROUND_PLAYS} plays, got {n}"
            + ("; score_round needs the whole round" if complete and n < ROUND_PLAYS else "")
            + " (R2.2: nine tricks)",
            rule="R2.2",
        )
    ci = contract.index
    trump = T.TRUMP_SUIT[ci]
    legal_mask = T.legal_mask
    strength = T.STRENGTH[ci]
    points = T.POINTS[ci]
    suit_of = T.SUIT_OF
    lower_trumps = T.LOWER_TRUMPS[ci]
    kq = T.STOECK_MASK[ci]
    index_of = CARD_INDEX
    hands = list(masks)
    seats: list[int] = []
    cards: list[int] = []
    tricks: list[tuple[int, int, int]] = []
    stoeck_plays: list[int] = []
    expected = 0
    led = lower = best = winner = leader = trick_points = 0
    for i in range(n):
        play = plays[i]
        try:
            seat, card = play
            c = index_of[card]
        except (TypeError, ValueError, KeyError):
            seat, c = _slow_play(i, play)
        if seat != expected or type(seat) is not int:
            raise _turn_error(i, seat, expected)
        hand = hands[seat]
        bit = 1 << c
        if not hand & bit:
            raise _not_in_hand(i, seat, c, masks, cards)
        sc = suit_of[c]
        k = i & 3
        if k == 0:
            leader = seat
            led = sc
            lower = lower_trumps[c]  # 0 unless c is a trump
            best = strength[c]
            winner = seat
            trick_points = points[c]
        else:
            if not legal_mask(hand, led, lower, ci) & bit:
                raise _illegal(i, seat, c, hand, cards, contract)
            if sc == led or sc == trump:  # noqa: SIM109 (hot path, no tuple)
                st = strength[c]
                if st > best:
                    best = st
                    winner = seat
                    if sc == trump:
                        lower = lower_trumps[c]
            trick_points += points[c]
        hands[seat] = hand ^ bit
        seats.append(seat)
        cards.append(c)
        if bit & kq:
            stoeck_plays.append(i)
        if k == 3:
            tricks.append((leader, winner, trick_points))
            expected = winner
        else:
            expected = (seat + 1) & 3
    return PlayLog(seats, cards, tricks, stoeck_plays)


def _where(i: int) -> str:
    return f"trick {i // 4 + 1}, play {i % 4 + 1}"


def _slow_play(i: int, play: object) -> tuple[object, int]:
    if isinstance(play, (str, bytes)) or not isinstance(play, Sequence) or len(play) != 2:
        raise RulesError(f"{_where(i)}: expected a (seat, card) pair, got {play!r}")
    seat, card = play
    return seat, coerce_card(card, f"{_where(i)}").index


def _turn_error(i: int, seat: object, expected: Seat) -> RulesError:
    if type(seat) is not int or not 0 <= seat <= 3:
        return RulesError(f"{_where(i)}: seat must be 0, 1, 2 or 3, got {seat!r}")
    if i == 0:
        rule, why = "R2.3", "seat 0 (forehand) leads the first trick"
    elif i % 4 == 0:
        rule, why = "R3.6", f"seat {expected} won trick {i // 4} and leads trick {i // 4 + 1}"
    else:
        rule, why = "R2.1", "seats play in turn 0, 1, 2, 3"
    return IllegalPlayError(
        f"{_where(i)}: seat {seat} played, but it is seat {expected}'s turn: {why} ({rule})",
        rule=rule,
    )


def _not_in_hand(
    i: int, seat: Seat, c: int, masks: tuple[Mask, Mask, Mask, Mask], cards: list[int]
) -> RulesError:
    card = DECK[c]
    where = f"trick {i // 4 + 1}, seat {seat} played {card}"
    if c in cards:
        j = cards.index(c)
        return IllegalPlayError(
            f"{where} but {card} was already played in trick {j // 4 + 1}; "
            "every card is in the deck once (R1.1)",
            rule="R1.1",
        )
    holders = [s for s in range(4) if masks[s] & (1 << c)]
    owner = f"it is in seat {holders[0]}'s hand" if holders else "nobody holds it"
    return IllegalPlayError(f"{where} but {card} is not in seat {seat}'s hand ({owner})")


def _illegal(
    i: int, seat: Seat, c: int, hand_mask: Mask, cards: list[int], contract: Contract
) -> RulesError:
    card = DECK[c]
    hand = cards_of(hand_mask)
    trick = tuple(DECK[x] for x in cards[i - i % 4 : i])
    why = verdict(card, hand, trick, contract)
    where = f"trick {i // 4 + 1}, seat {seat} played {card}"
    if why.key == "play.must_follow_suit":
        text = f"must follow suit with {why['led']} ({' '.join(why['follow'])})"
    elif why.key == "play.under_trump":
        text = (
            f"may not under-trump: {why['highest_trump']} is already in the trick and "
            f"seat {seat} holds cards other than trumps"
        )
    elif why.key == "play.must_play_trump":
        text = f"must play a trump when trump is led ({' '.join(why['trumps'])})"
    else:  # pragma: no cover - the fast check and the verdict disagree
        text = f"the play is not allowed ({why.key})"
    return IllegalPlayError(f"{where} but {text} ({why.rule})", rule=why.rule)
