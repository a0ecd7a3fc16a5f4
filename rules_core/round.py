"""A round as it happens at the table: :class:`Round` (RULES R2 to R7).

In the style of python-chess's ``Board`` and pokerkit's ``State``: build it from the
four hands, the contract and the rule set, then make the table's actions one at a
time. Each action checks the rules, changes the round and returns a frozen event;
each has a ``can_...`` check beside it that answers True or False instead of
raising. Seats count from 0 (seat 0 = Vorhand, R2.1); people count from 1, so a
screen adds 1 at its edge.

- :meth:`Round.play` a card of the player to move (R2.1, R2.3, R3.1 to R3.6):
  :class:`Played`, with the closed trick's :class:`TrickResult` on every fourth card;
- :meth:`Round.announce` the value of a Weis with one's first card (R5.4, R5.4a):
  :class:`Announced`; a player who says nothing writes nothing (R5.4b);
- :meth:`Round.call_stoeck` «Stöck!» by any seat at the present moment (R6.2, R6.3,
  R6.4): :class:`StoeckCalled` with the engine's verdict;
- :meth:`Round.gather` the complete trick on the table (optional; the next card
  gathers it too): :class:`Gathered`. It ends the last player's time to announce
  (R5.4) and the time to call Stöck with a card that ended its trick (R6.3).

The results are the engine's own types: :meth:`Round.legal` (:class:`LegalCards`,
with each card's R3 reason), :attr:`Round.tricks`, :meth:`Round.weis` (the claims
compared, R5.4a, R5.4b, R5.6, R5.7), :attr:`Round.stoeck`, :meth:`Round.score`
(:class:`RoundScore`) and :meth:`Round.target` (:class:`TargetResult`).

The stateless functions (:func:`legal_cards`, :func:`resolve_weis`,
:func:`check_stoeck`, :func:`score_round`, :func:`resolve_target`) are the
stateless view of the same rules: Round steps the same trick-play code as
:func:`score_round`, judges Stöck and Weis with the same functions, and a test
plays random rounds through both and finds them equal.

>>> r = Round("HK HQ S6 S7 S8 S9 S10 SJ SQ / D6 D7 D8 D9 D10 DJ DQ DK DA /"
...           "H6 H7 H8 H9 H10 HJ HA SK SA / C6 C7 C8 C9 C10 CJ CQ CK CA", "H")
>>> r.to_play, r.stoeck_pair, r.stoeck_holder
(0, (Card('HK'), Card('HQ')), 0)
>>> r.play("S6").index, r.announce(200).status
(0, 'best')
>>> r.play("D6"), r.can_announce(20, seat=0)
(Played(index=1, seat=1, card=Card('D6'), trick=None), False)
>>> r.play("SA").seat, r.play("C6").winner, r.weis().team, r.stoeck.status
(2, 2, 0, 'pending')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._coerce import cards_of, coerce_card, coerce_contract, coerce_rules, coerce_seat, hands_masks
from ._play import ROUND_PLAYS, PlayState
from .aliases import CardLike, ContractLike, HandsLike, Mask, RulesLike, Seat
from .cards import DECK, Card
from .contracts import Contract
from .errors import IllegalPlayError, RulesError
from .melds import Meld, best_meld
from .rules import DEFAULT_RULES, RuleSet
from .scoring import (
    RoundScore,
    TargetResult,
    TrickResult,
    match_of,
    resolve_target,
    score_of_log,
    trick_result,
)
from .stoeck import StoeckCall, StoeckResult, call_verdict, holder_of_pair, stoeck_of_log
from .tables import FOUR_OF_A_KIND_POINTS, SEQUENCE_POINTS, stoeck_pair
from .tricks import LegalCards, explain_legal_cards
from .weis import WeisResult, weis_of_claims

__all__ = [
    "ANNOUNCE_VALUES",
    "FIRST_TRICK_GATHERED",
    "Announced",
    "Gathered",
    "IllegalActionError",
    "Played",
    "Round",
    "StoeckCalled",
    "announce_deadline",
]

ANNOUNCE_VALUES: tuple[int, ...] = tuple(
    sorted(set(SEQUENCE_POINTS.values()) | set(FOUR_OF_A_KIND_POINTS.values()))
)
"""The values a Weis can be announced with: those of some meld (R5.1, R5.2)."""

FIRST_TRICK_GATHERED = 4
"""The moment after the first trick was gathered, as an ``after`` of
:func:`announce_deadline` (the plays of the first trick are 0 to 3)."""


class IllegalActionError(RulesError):
    """An announcement, Stöck call or gathering the round does not accept now; a
    card is refused with :class:`IllegalPlayError` instead. ``rule`` names the rule.
    """


def announce_deadline(seat: Seat, after: int) -> str:
    """Whether a Weis announced by ``seat`` after play ``after`` of the first trick
    counts (R5.4): ``"in_time"`` with the player's own card, until the next player has
    played; ``"next_card_played"`` later; for the last player of the trick (seat 3) the
    time runs until the trick is gathered, after that ``"trick_gathered"``
    (``after`` = :data:`FIRST_TRICK_GATHERED`). Seat 0 leads the first trick (R2.3), so
    a seat's first card is play ``seat``; an announcement before it raises.

    >>> [announce_deadline(1, a) for a in (1, 2, 3, 4)]
    ['in_time', 'next_card_played', 'next_card_played', 'next_card_played']
    >>> announce_deadline(3, 3), announce_deadline(3, FIRST_TRICK_GATHERED)
    ('in_time', 'trick_gathered')
    """
    if type(seat) is not int or not 0 <= seat <= 3 or type(after) is not int:
        raise IllegalActionError(f"seat must be 0, 1, 2 or 3, got {seat!r}", rule="R2.1")
    if not seat <= after <= FIRST_TRICK_GATHERED:
        raise IllegalActionError(
            f"an announcement by seat {seat} comes with or after its own card to the first "
            f"trick (after play {seat} to {FIRST_TRICK_GATHERED}), not after play {after}",
            rule="R5.4",
        )
    if after == seat:
        return "in_time"
    return "next_card_played" if seat < 3 else "trick_gathered"


# -- events ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Played:
    """A card played: ``index`` in the round's plays (0..35), ``seat``, ``card``;
    ``trick`` the :class:`TrickResult` when this card closed a trick (its winner,
    card points, R4.4 bonuses and written points), else None."""

    index: int
    seat: Seat
    card: Card
    trick: TrickResult | None

    @property
    def trick_closed(self) -> bool:
        """True for the fourth card of a trick."""
        return self.trick is not None

    @property
    def winner(self) -> Seat | None:
        """The seat that won the trick this card closed (R3.6), else None."""
        return None if self.trick is None else self.trick.winner

    @property
    def points(self) -> int:
        """The closed trick's written points (R4.1 to R4.5), else 0."""
        return 0 if self.trick is None else self.trick.points


@dataclass(frozen=True, slots=True)
class Announced:
    """A Weis announced in time (R5.4): ``value`` said by ``seat`` after play
    ``after_play``; ``claim`` the meld it stands for, the best meld of that value the
    player holds (R5.4a), None for a false Weis (R5.7); ``status`` ``"best"``,
    ``"smaller"`` (a smaller meld than the player's best competes) or ``"false"``."""

    seat: Seat
    value: int
    after_play: int
    claim: Meld | None
    status: str


@dataclass(frozen=True, slots=True)
class StoeckCalled:
    """«Stöck!» said by ``seat`` after play ``after_play`` (and after that trick was
    gathered when ``gathered``). ``verdict`` is how the engine judges this call:
    ``"counts"``, ``"prompted"``, ``"too_late"``, ``"first_card"``, ``"too_early"``,
    ``"other_seat"``, ``"no_stoeck"``; ``rule`` the rule behind it (R6.1 to R6.4);
    ``stoeck`` the round's Stöck after the call."""

    seat: Seat
    after_play: int
    prompted: bool
    gathered: bool
    verdict: str
    rule: str
    stoeck: StoeckResult


@dataclass(frozen=True, slots=True)
class Gathered:
    """The complete trick on the table was gathered: ``trick`` is its result."""

    trick: TrickResult


# -- the round ---------------------------------------------------------------------


class Round:
    """One round (deal) of Schieber as it happens at the table (see the module).

    ``hands``: the four hands dealt, by seat (seat 0 = Vorhand), nine cards each;
    ``contract`` and ``rules`` as everywhere (a code or preset name is read).
    Mutable like python-chess's Board; :meth:`copy` is a cheap snapshot.

    >>> r = Round("D6 D7 D8 D9 D10 DJ DQ DK DA / H6 H7 H8 H9 H10 HJ HQ HK HA /"
    ...           "S6 S7 S8 S9 S10 SJ SQ SK SA / C6 C7 C8 C9 C10 CJ CQ CK CA", "D")
    >>> [str(c) for c in r.legal_cards()][:3]
    ['D6', 'D7', 'D8']
    >>> r.announce()  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    rules_core.round.IllegalActionError: seat 0 announces with its first card to the
    first trick (R5.4); no card has been played yet
    >>> e = r.play("DA"); r.announce().value
    300
    >>> while not r.is_over:
    ...     e = r.play(r.legal_cards()[-1])
    >>> r.score().blocks[0]
    {'weis': 300, 'stoeck': 0, 'tricks': 257}
    >>> r.target((900, 0)).block
    'weis'
    """

    __slots__ = (
        "_masks",
        "_contract",
        "_rules",
        "_factor",
        "_play",
        "_claims",
        "_calls",
        "_late",
        "_gathered",
        "_holder",
    )

    _masks: tuple[Mask, Mask, Mask, Mask]
    _contract: Contract
    _rules: RuleSet
    _factor: int
    _play: PlayState
    _claims: list[int | None]
    _calls: list[StoeckCall]
    _late: list[StoeckCall]
    _gathered: bool
    _holder: Seat | None

    def __init__(
        self, hands: HandsLike, contract: ContractLike, rules: RulesLike = DEFAULT_RULES
    ) -> None:
        self._masks = hands_masks(hands, full_deal=True)
        self._contract = coerce_contract(contract)
        self._rules = coerce_rules(rules)
        self._factor = self._rules.factor(self._contract)
        self._play = PlayState(self._masks, self._contract)
        self._claims = [None, None, None, None]
        self._calls = []
        self._late = []  # Stöck calls made after their trick was gathered
        self._gathered = False  # the complete trick of the last play was gathered
        self._holder = holder_of_pair(self._masks, self._contract)

    # -- snapshots -----------------------------------------------------------------

    def copy(self) -> Round:
        """An independent copy of the round so far (a few short lists).

        >>> r = Round("D6 D7 D8 D9 D10 DJ DQ DK DA / H6 H7 H8 H9 H10 HJ HQ HK HA /"
        ...           "S6 S7 S8 S9 S10 SJ SQ SK SA / C6 C7 C8 C9 C10 CJ CQ CK CA", "D")
        >>> snapshot = r.copy(); _ = r.play("D6")
        >>> len(r.plays), len(snapshot.plays)
        (1, 0)
        """
        new = Round.__new__(Round)
        new._masks = self._masks
        new._contract = self._contract
        new._rules = self._rules
        new._factor = self._factor
        new._play = self._play.copy()
        new._claims = self._claims[:]
        new._calls = self._calls[:]
        new._late = self._late[:]
        new._gathered = self._gathered
        new._holder = self._holder
        return new

    __copy__ = copy

    def __repr__(self) -> str:
        return (
            f"Round(contract={self._contract.code!r}, plays={len(self._play.log.cards)}, "
            f"to_play={self.to_play})"
        )

    # -- what the round is -----------------------------------------------------------

    @property
    def contract(self) -> Contract:
        """The contract (R2.4)."""
        return self._contract

    @property
    def rules(self) -> RuleSet:
        """The rule set (R8)."""
        return self._rules

    @property
    def factor(self) -> int:
        """The contract's factor under the rule set (R4.5)."""
        return self._factor

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The four hands as dealt, by seat, in card order."""
        return tuple(cards_of(m) for m in self._masks)

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` still holds, in card order."""
        return cards_of(self._play.hands[coerce_seat(seat)])

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The ``(seat, card)`` plays so far, in order (a play log for score_round)."""
        log = self._play.log
        return tuple(zip(log.seats, cards_of_indices(log.cards), strict=True))

    @property
    def is_over(self) -> bool:
        """True once all 36 cards are played (R2.2)."""
        return len(self._play.log.cards) == ROUND_PLAYS

    @property
    def to_play(self) -> Seat | None:
        """The seat to play next (R2.1, R2.3, R3.6), None once the round is over."""
        return None if self.is_over else self._play.to_play

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick being played to, in order (empty between tricks)."""
        cards = self._play.log.cards
        n = len(cards)
        return cards_of_indices(cards[n - n % 4 :])

    @property
    def tricks(self) -> tuple[TrickResult, ...]:
        """The closed tricks in order (R3.6 winners, R4.4 bonuses, R4.5 factor)."""
        log = self._play.log
        match = match_of(log.tricks)
        return tuple(trick_result(log, t, match, self._factor) for t in range(len(log.tricks)))

    @property
    def gathered(self) -> bool:
        """True when the complete trick on the table has been gathered (:meth:`gather`)."""
        return self._gathered

    # -- playing (R2, R3) ----------------------------------------------------------------

    def legal(self) -> LegalCards:
        """The legal cards of the player to move, with each card's reason
        (R3.1 to R3.5, :func:`explain_legal_cards`); nothing once the round is over."""
        if self.is_over:
            return LegalCards((), (), self._contract)
        return explain_legal_cards(self.hand(self._play.to_play), self.trick, self._contract)

    def legal_cards(self) -> tuple[Card, ...]:
        """The legal cards of the player to move, in card order, without reasons
        (the bitmask path of R3.1 to R3.5)."""
        if self.is_over:
            return ()
        return cards_of(self._play.legal_mask())

    def can_play(self, card: CardLike) -> bool:
        """True when the player to move may play ``card`` now (R3.1 to R3.5)."""
        try:
            c = coerce_card(card)
        except RulesError:
            return False
        return not self.is_over and bool(self._play.legal_mask() & c.bit)

    def play(self, card: CardLike) -> Played:
        """Play ``card`` for the player to move. Raises :class:`IllegalPlayError`
        (with ``rule``) for a card not held or not allowed, and changes nothing then.

        >>> r = Round("S7 H6 HA D6 D7 D8 D9 D10 DJ / SK S6 S8 S9 S10 SJ SQ SA C6 /"
        ...           "HQ H7 H8 H9 H10 HJ HK DQ DK / DA C7 C8 C9 C10 CJ CQ CK CA", "H")
        >>> for card in ("D6", "C6", "HQ", "DA", "H7", "C7"):
        ...     event = r.play(card)
        >>> r.can_play("D7"), r.legal().verdicts[3].rule
        (False, 'R3.4')
        >>> r.play("D7")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
          ...
        rules_core.errors.IllegalPlayError: trick 2, seat 0 played D7 but must play a trump
        when trump is led (H6 HA) (R3.4)
        """
        if self.is_over:
            raise IllegalPlayError(
                "the round is over: all nine tricks are played (R2.2)", rule="R2.2"
            )
        c = coerce_card(card)
        state = self._play
        seat = state.to_play
        index = len(state.log.cards)
        closed = state.play(seat, c.index)
        self._gathered = False
        trick = None
        if closed:
            t = index // 4
            trick = trick_result(state.log, t, match_of(state.log.tricks), self._factor)
        return Played(index, seat, c, trick)

    def can_gather(self) -> bool:
        """True when a complete trick lies on the table, not yet gathered."""
        n = len(self._play.log.cards)
        return n > 0 and n % 4 == 0 and not self._gathered

    def gather(self) -> Gathered:
        """Gather the complete trick on the table. Optional: the next card gathers it
        too. Once gathered, the last player of the first trick can no longer announce
        (R5.4), and a Stöck card that ended the trick can no longer be called (R6.3)."""
        if not self.can_gather():
            raise IllegalActionError(
                "there is no complete trick on the table to gather (R3.6)", rule="R3.6"
            )
        self._gathered = True
        return Gathered(self.tricks[-1])

    # -- Weis (R5.4, R5.4a, R5.4b, R5.6, R5.7) --------------------------------------------

    @property
    def claims(self) -> tuple[int | None, int | None, int | None, int | None]:
        """Per seat the Weis value announced in time, None for silence (R5.4a, R5.4b)."""
        c0, c1, c2, c3 = self._claims
        return (c0, c1, c2, c3)

    @property
    def announcer(self) -> Seat | None:
        """The seat that may announce now (R5.4): the player who just played their
        first card, or the last player of the first trick until it is gathered; None
        when nobody may (or that player announced already)."""
        seat = self._moment()
        if 0 <= seat <= 3 and self._claims[seat] is None:
            return seat
        return None

    def _moment(self) -> int:
        """The moment as an ``after`` of :func:`announce_deadline`: the last play
        of the first trick, or :data:`FIRST_TRICK_GATHERED` (-1 before the first card)."""
        n = len(self._play.log.cards)
        if n > 4 or (n == 4 and self._gathered):
            return FIRST_TRICK_GATHERED
        return n - 1

    def can_announce(self, value: int | None = None, seat: Seat | None = None) -> bool:
        """True when :meth:`announce` would accept this announcement now."""
        try:
            self._check_announce(value, seat)
        except RulesError:
            return False
        return True

    def announce(self, value: int | None = None, seat: Seat | None = None) -> Announced:
        """Announce a Weis of ``value`` for ``seat`` (default: the player who just
        played) with their first card (R5.4). ``value`` None announces the value of the
        player's best meld. The value is the claim (R5.4a); a value the player holds
        no meld of is a false Weis, struck out in the comparison (R5.7). Raises
        :class:`IllegalActionError` (``rule`` R5.4) before the player's first card,
        after the deadline (:func:`announce_deadline`), for a second announcement or
        a value no meld has."""
        seat_, value_ = self._check_announce(value, seat)
        self._claims[seat_] = value_
        weis = self.weis()
        return Announced(
            seat_, value_, len(self._play.log.cards) - 1, weis.claimed[seat_], weis.status[seat_]
        )

    def _check_announce(self, value: int | None, seat: Seat | None) -> tuple[Seat, int]:
        moment = self._moment()
        if moment < 0:
            raise IllegalActionError(
                f"seat {0 if seat is None else seat} announces with its first card to the "
                "first trick (R5.4); no card has been played yet",
                rule="R5.4",
            )
        if seat is None:
            seat = min(moment, 3)
        if type(seat) is int and 0 <= seat <= 3 and moment < seat:
            raise IllegalActionError(
                f"seat {seat} announces with its first card to the first trick (R5.4); "
                "it has not played yet",
                rule="R5.4",
            )
        deadline = announce_deadline(seat, moment)
        if deadline != "in_time":
            why = (
                "the next player has played"
                if deadline == "next_card_played"
                else ("the first trick was gathered")
            )
            raise IllegalActionError(f"seat {seat} announces too late: {why} (R5.4)", rule="R5.4")
        if self._claims[seat] is not None:
            raise IllegalActionError(
                f"seat {seat} announced already; a player announces once (R5.4)", rule="R5.4"
            )
        return seat, self._value(value, seat)

    def _value(self, value: int | None, seat: Seat) -> int:
        if value is None:
            meld = best_meld(cards_of(self._masks[seat]), self._contract, self._rules)
            if meld is None:
                raise IllegalActionError(
                    f"seat {seat} holds no meld to announce (R5.1, R5.2)", rule="R5.4"
                )
            return meld.points
        if type(value) is not int or value not in ANNOUNCE_VALUES:
            raise IllegalActionError(
                f"a Weis is announced by a meld's value "
                f"({', '.join(map(str, ANNOUNCE_VALUES))}), got {value!r} (R5.4)",
                rule="R5.4",
            )
        return value

    def weis(self) -> WeisResult:
        """Who writes Weis: the claims so far compared (R5.4a, R5.5), the team with
        the best claim writing every meld of its players who announced (R5.6, R5.4b),
        false claims struck out (R5.7). The stateless view:
        ``resolve_weis(hands, contract, rules, claims=round.claims)``."""
        return weis_of_claims(self._masks, self.claims, self._contract, self._rules)

    # -- Stöck (R6) ------------------------------------------------------------------

    @property
    def stoeck_pair(self) -> tuple[Card, Card] | None:
        """King and Ober of trump (R6.1), None in Obenabe and Undenufe."""
        return stoeck_pair(self._contract)

    @property
    def stoeck_holder(self) -> Seat | None:
        """The seat holding both Stöck cards (R6.1), else None."""
        return self._holder

    @property
    def calls(self) -> tuple[StoeckCall, ...]:
        """The Stöck calls made at a play's moment (see :meth:`call_stoeck`)."""
        return tuple(self._calls)

    @property
    def stoeck(self) -> StoeckResult:
        """The Stöck so far (R6.1 to R6.5): ``status`` none, pending, scored or lost.
        The stateless view: ``check_stoeck(hands, contract, plays, calls, rules)``."""
        return stoeck_of_log(
            self._masks,
            self._contract,
            self._play.log,
            tuple(self._calls),
            self._factor,
            gathered=self._gathered,
            late=tuple(self._late),
        )

    def call_stoeck(self, seat: Seat | None = None, *, prompted: bool = False) -> StoeckCalled:
        """«Stöck!» said by ``seat`` (default: the player who just played) now, after
        the last card; ``prompted`` when a partner's reminder came first (R6.4). Every
        call is judged, none refused: it counts only as the holder's own call with
        the second Stöck card, before the next card and before that card's trick is
        gathered (R6.2, R6.3, R6.4). Raises :class:`IllegalActionError` before the
        first card (there is no moment to call at)."""
        log = self._play.log
        n = len(log.cards)
        if n == 0:
            raise IllegalActionError(
                "no card has been played yet; «Stöck!» is said with the second card (R6.2)",
                rule="R6.2",
            )
        if seat is None:
            seat = log.seats[-1]
        call = StoeckCall(seat, n - 1, prompted)
        (self._late if self._gathered else self._calls).append(call)
        played = log.stoeck_plays
        verdict, rule = call_verdict(
            call,
            self._holder,
            played[0] if played else None,
            played[1] if len(played) > 1 else None,
            late=self._gathered,
        )
        return StoeckCalled(
            call.seat, call.after_play, prompted, self._gathered, verdict, rule, self.stoeck
        )

    # -- the score and the target (R7) ---------------------------------------------------

    def score(self) -> RoundScore:
        """The written score once all nine tricks are played (R7.1): the tricks, the
        claims' Weis and the Stöck, three blocks per team after the factor. The
        stateless view: ``score_round(hands, contract, plays, calls, rules,
        claims=round.claims)``."""
        if not self.is_over:
            raise IllegalActionError(
                f"the round is not over: {len(self._play.log.cards)} of {ROUND_PLAYS} cards "
                "played; the score needs all nine tricks (R2.2)",
                rule="R2.2",
            )
        return score_of_log(self._play.log, self.weis(), self.stoeck, self._contract, self._rules)

    def target(self, before: Sequence[int], target: int | None = None) -> TargetResult:
        """Who reaches the target in this round, from the totals ``before`` it
        (R7.2 to R7.5, :func:`resolve_target`); ``target`` None takes the rule set's."""
        return resolve_target(before, self.score(), target, self._rules)


def cards_of_indices(indices: Sequence[int]) -> tuple[Card, ...]:
    """The cards of card indices, in the order given."""
    return tuple(DECK[i] for i in indices)
