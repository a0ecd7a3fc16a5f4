"""Checking and replaying a play log (internal, the hot path of score_round and Round).

A play log is a sequence of ``(seat, card)`` pairs in the order played. Seat 0
leads the first trick (R2.3), each seat plays once per trick in seat order
(R2.1), the winner leads the next trick (R3.6); every card comes from the
player's hand (R2.2), is played once, and is legal (R3.1, R3.2, R3.3, R3.4, R3.5).

:class:`PlayState` is the running code of those rules, one play at a time: the
stateless :func:`run_plays` (behind ``score_round`` and ``check_stoeck``) and the
incremental :class:`rules_core.Round` both step it, so the rules live once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from . import _tables as T
from ._coerce import CARD_INDEX, cards_of, coerce_card
from .aliases import Mask, PlaysLike, Seat
from .cards import DECK, Card
from .contracts import Contract
from .errors import IllegalPlayError, RulesError
from .tables import ROUND_PLAYS
from .tricks import verdict

__all__ = ["ROUND_PLAYS", "PlayLog", "PlayState", "run_plays"]


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

    def copy(self) -> PlayLog:
        """An independent copy (four short lists)."""
        return PlayLog(self.seats[:], self.cards[:], self.tricks[:], self.stoeck_plays[:])


class PlayState:
    """A round's trick play so far, one checked play at a time (mutable, internal).

    The running code of the turn order and of trick play: seat 0 leads the first
    trick (R2.3), seats play in turn (R2.1), each card from the player's own hand
    (R2.2), legal by R3.1, R3.2, R3.3, R3.4 and R3.5 (:func:`_tables.legal_mask`);
    the highest trump, else the highest card of the led suit, wins and leads the
    next trick (R3.6); card points by R4.1, R4.2, R4.3.
    """

    __slots__ = (
        "masks",
        "contract",
        "hands",
        "log",
        "to_play",
        "led",
        "lower",
        "best",
        "winner",
        "leader",
        "points",
        "_t",
    )

    def __init__(self, masks: tuple[Mask, Mask, Mask, Mask], contract: Contract) -> None:
        self.masks = masks
        self.contract = contract
        self.hands = list(masks)
        self.log = PlayLog([], [], [], [])
        self.to_play = 0
        # the trick in play: led suit, trumps below its highest trump, the winning
        # card's strength, the winning seat, the leader and the card points so far
        self.led = self.lower = self.best = self.winner = self.leader = self.points = 0
        ci = contract.index
        # the contract's tables, bound once (the hot path of score_round)
        self._t = (ci, T.STRENGTH[ci], T.POINTS[ci], T.LOWER_TRUMPS[ci], T.TRUMP_SUIT[ci])

    def copy(self) -> PlayState:
        """An independent copy (a snapshot costs four short lists)."""
        new = PlayState.__new__(PlayState)
        new.masks = self.masks
        new.contract = self.contract
        new.hands = self.hands[:]
        new.log = self.log.copy()
        new.to_play = self.to_play
        new.led, new.lower, new.best = self.led, self.lower, self.best
        new.winner, new.leader, new.points = self.winner, self.leader, self.points
        new._t = self._t
        return new

    def legal_mask(self) -> Mask:
        """The cards the player to move may play (R3.1 to R3.5)."""
        hand = self.hands[self.to_play]
        if not len(self.log.cards) & 3:
            return hand
        return T.legal_mask(hand, self.led, self.lower, self.contract.index)

    def play(self, seat: object, c: int) -> bool:
        """Check and make one play (``c`` a card index); True when it closes a trick.
        Raises IllegalPlayError (turn order, card not held, R3) and changes nothing then."""
        self.extend(((seat, DECK[c]),))
        return not len(self.log.cards) & 3

    def extend(self, plays: Sequence[object]) -> None:
        """Check and make the ``(seat, card)`` plays in order (the loop of run_plays:
        local variables, no call per play). On IllegalPlayError the plays before the
        bad one are made and the bad one is not, so a single bad play changes nothing."""
        log = self.log
        seats, cards, tricks, stoeck_plays = log.seats, log.cards, log.tricks, log.stoeck_plays
        ci, strength, points, lower_trumps, trump = self._t
        legal_mask = T.legal_mask
        suit_of = T.SUIT_OF
        kq = T.STOECK_MASK[ci]
        index_of = CARD_INDEX
        hands = self.hands
        expected = self.to_play
        led, lower, best = self.led, self.lower, self.best
        winner, leader, trick_points = self.winner, self.leader, self.points
        i = len(cards)
        try:
            for play in plays:
                try:
                    seat, card = cast("tuple[object, Card]", play)  # else the fallback
                    c = index_of[card]
                except (TypeError, ValueError, KeyError):
                    seat, c = _slow_play(i, play)
                if seat != expected or type(seat) is not int:
                    raise _turn_error(i, seat, expected)
                hand = hands[seat]
                bit = 1 << c
                if not hand & bit:
                    raise _not_in_hand(i, seat, c, self.masks, cards)
                sc = suit_of[c]
                if i & 3 == 0:
                    leader = winner = seat
                    led = sc
                    lower = lower_trumps[c]  # 0 unless c is a trump
                    best = strength[c]
                    trick_points = points[c]
                else:
                    if not legal_mask(hand, led, lower, ci) & bit:
                        raise _illegal(i, seat, c, hand, cards, self.contract)
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
                if i & 3 == 3:
                    tricks.append((leader, winner, trick_points))
                    expected = winner
                else:
                    expected = (seat + 1) & 3
                i += 1
        finally:
            # stored once: after a bad play the state is that of the plays before it
            self.to_play = expected
            self.led, self.lower, self.best = led, lower, best
            self.winner, self.leader, self.points = winner, leader, trick_points


def run_plays(
    masks: tuple[Mask, Mask, Mask, Mask],
    contract: Contract,
    plays: PlaysLike | object,  # checked here
    *,
    complete: bool,
) -> PlayLog:
    """Check a play log against the hands and replay it on a :class:`PlayState`.
    Raises IllegalPlayError. The stateless view of the trick play of ``Round``."""
    if not isinstance(plays, Sequence) or isinstance(plays, (str, bytes, bytearray)):
        raise RulesError(f"plays must be a list of (seat, card) pairs, got {type(plays).__name__}")
    _check_count(len(plays), complete)
    state = PlayState(masks, contract)
    state.extend(plays)
    return state.log


def _check_count(n: int, complete: bool) -> None:
    """Nine tricks of four plays (R2.2); ``complete`` asks for all of them."""
    if n > ROUND_PLAYS or (complete and n != ROUND_PLAYS):
        raise RulesError(
            f"a round has {ROUND_PLAYS} plays, got {n}"
            + ("; score_round needs the whole round" if complete and n < ROUND_PLAYS else "")
            + " (R2.2: nine tricks)",
            rule="R2.2",
        )


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
