"""Consistent rounds built to order: pure functions (seed in, round out), no database.

A Stöck question needs a real round in which the holder plays trump King and Ober
in given tricks, with the call at a given moment. Rather than hope a random deal
does that, :func:`stoeck_scenario` deals the pair to the holder and plays legal
cards (``rules_core.legal_cards``) with a policy that puts the two cards where they
are wanted, retrying with the next sub-seed when the rules forbid it (say, an
under-trump). Every play is legal, and ``rules_core.check_stoeck`` judges the result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from rules_core import (
    DECK,
    Card,
    Contract,
    RoundScore,
    RulesError,
    RuleSet,
    StoeckCall,
    StoeckResult,
    TargetResult,
    TrickResult,
    check_stoeck,
    legal_cards,
    resolve_target,
    resolve_weis,
    score_round,
    stoeck_holder,
    trick_winner,
)
from rules_core.deals import deal_cards, play_round
from rules_core.tables import ROUND_PLAYS, stoeck_pair

CALLS = ("second", "first", "late", "prompted", "none", "pending", "not-yet")
MAX_ATTEMPTS = 400


class ScenarioError(RulesError):
    """No consistent round fits the request (for example trick numbers out of order)."""


@dataclass(frozen=True)
class StoeckScenario:
    contract: Contract
    hands: tuple[tuple[Card, ...], ...]
    plays: tuple[tuple[int, Card], ...]
    calls: tuple[StoeckCall, ...]
    holder: int | None
    first_index: int | None
    second_index: int | None
    result: StoeckResult

    @property
    def tricks(self) -> list[list[tuple[int, Card, int]]]:
        """The plays grouped by trick: ``(seat, card, index in plays)``."""
        grouped: list[list[tuple[int, Card, int]]] = []
        for index, (seat, card) in enumerate(self.plays):
            if index % 4 == 0:
                grouped.append([])
            grouped[-1].append((seat, card, index))
        return grouped


def _deal(rng: random.Random, holder: int, pair: tuple[Card, Card]) -> list[list[Card]]:
    """The holder gets the pair and seven random cards; the others share the rest."""
    rest = [c for c in DECK if c not in pair]
    rng.shuffle(rest)
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[holder] = [*pair, *rest[:7]]
    others = [seat for seat in range(4) if seat != holder]
    for i, seat in enumerate(others):
        hands[seat] = rest[7 + i * 9 : 16 + i * 9]
    return hands


def _play_round(
    rng: random.Random,
    hands: list[list[Card]],
    contract: Contract,
    pair: tuple[Card, Card],
    first_trick: int,
    second_trick: int,
) -> tuple[list[tuple[int, Card]], int, int] | None:
    """Random legal play with the pair, in random order, at the given tricks."""
    order = list(pair)
    rng.shuffle(order)
    played = _play_pair(rng, hands, contract, {order[0]: first_trick, order[1]: second_trick})
    if played is None:
        return None
    plays, indices = played
    return plays, indices[order[0]], indices[order[1]]


def _excerpt(
    call: str, first_seat: int, first_index: int, second_seat: int, second_index: int
) -> tuple[tuple[StoeckCall, ...], int]:
    """The calls a scenario's ``call`` stands for, and how many plays the excerpt shows.

    The excerpt runs to the end of the trick after the deadline, so the deadline has
    visibly passed; "pending" and "not-yet" stop earlier on purpose.
    """
    end = min(ROUND_PLAYS, (second_index + 1) // 4 * 4 + 4 + (4 if second_index % 4 == 3 else 0))
    if call == "second":
        return (StoeckCall(second_seat, second_index),), end
    if call == "first":
        return (StoeckCall(first_seat, first_index),), end
    if call == "late":
        if second_index == ROUND_PLAYS - 1:
            raise ScenarioError("a call after the last card of the round cannot be late")
        return (StoeckCall(second_seat, second_index + 1),), end
    if call == "prompted":
        return (StoeckCall(second_seat, second_index, prompted=True),), end
    if call == "pending":
        if second_index == ROUND_PLAYS - 1:
            # The round is complete then, and an uncalled Stöck is lost (R6.4a).
            raise ScenarioError("the last card of the round leaves nothing pending")
        return (), second_index + 1
    if call == "not-yet":
        return (), min(second_index, first_index // 4 * 4 + 4)
    return (), end


def _judged(
    contract: Contract,
    hands: list[list[Card]],
    plays: list[tuple[int, Card]],
    calls: tuple[StoeckCall, ...],
    holder: int | None,
    first_index: int,
    second_index: int,
    rules: RuleSet,
) -> StoeckScenario:
    """The excerpt as a scenario, with rules_core's verdict on it."""
    hands_t = tuple(tuple(sorted(h)) for h in hands)
    plays_t = tuple(plays)
    return StoeckScenario(
        contract=contract,
        hands=hands_t,
        plays=plays_t,
        calls=calls,
        holder=holder,
        first_index=first_index,
        second_index=second_index,
        result=check_stoeck(hands_t, contract, plays_t, calls, rules),
    )


@lru_cache(maxsize=512)
def stoeck_scenario(
    contract: str,
    holder: int,
    first_trick: int,
    second_trick: int,
    call: str,
    seed: int = 0,
    rules: RuleSet | None = None,
    *,
    first_rank: str | None = None,
    second_position: int | None = None,
) -> StoeckScenario:
    """A round excerpt where ``holder`` plays trump K/Q in the given tricks (1-9).

    ``first_rank`` (``"K"`` or ``"Q"``) fixes which of the two the holder plays
    first (else the seed chooses); ``second_position`` (0-3) fixes where the second
    card falls in its trick (3: the last card of the trick, nobody covers it).

    ``call``: ``second`` (said with the second card: valid), ``first`` (said only
    with the first card), ``late`` (said one card after the second), ``prompted``
    (said with the second card after the partner's reminder), ``none`` (never said),
    ``pending`` (the excerpt ends on the second card: still possible), ``not-yet``
    (the excerpt ends before the second card).

    >>> s = stoeck_scenario("H", 2, 3, 6, "second")
    >>> s.result.status, s.result.reason.value, s.holder
    ('scored', 'valid', 2)
    >>> stoeck_scenario("H", 2, 3, 6, "late").result.reason.value
    'too_late'
    """
    contract_ = Contract.parse(contract)
    rules = rules or RuleSet()
    if contract_.trump is None:
        raise ScenarioError("Stöck scenarios need a trump contract")
    if call not in CALLS:
        raise ScenarioError(f"call must be one of {', '.join(CALLS)}")
    if not (0 <= holder <= 3 and 1 <= first_trick < second_trick <= 9):
        raise ScenarioError("need a seat 0-3 and trick numbers 1 <= first < second <= 9")
    if first_rank not in (None, "K", "Q"):
        raise ScenarioError("first_rank must be 'K' or 'Q'")
    if second_position not in (None, 0, 1, 2, 3):
        raise ScenarioError("second_position must be 0-3 (the place in the trick)")
    pair = stoeck_pair(contract_)
    assert pair is not None  # a trump contract (checked above)
    rng = random.Random(seed)
    for _attempt in range(MAX_ATTEMPTS * 4 if second_position is not None else MAX_ATTEMPTS):
        hands = _deal(rng, holder, pair)
        played = _play_round(rng, hands, contract_, pair, first_trick, second_trick)
        if played is None:
            continue
        first_card = played[0][played[1]][1]
        if first_rank is not None and first_card.rank.code != first_rank:
            continue
        if second_position is not None and played[2] % 4 != second_position:
            continue
        break
    else:
        raise ScenarioError("no legal round puts the cards in those tricks; try other tricks")
    plays, first_index, second_index = played
    calls, end = _excerpt(call, holder, first_index, holder, second_index)
    return _judged(contract_, hands, plays[:end], calls, holder, first_index, second_index, rules)


@dataclass(frozen=True)
class PlayedRound:
    contract: Contract
    hands: tuple[tuple[Card, ...], ...]
    plays: tuple[tuple[int, Card], ...]
    calls: tuple[StoeckCall, ...]


def random_round(contract: str, seed: int, *, call_stoeck: bool = True) -> PlayedRound:
    """A random deal played out with random legal cards; a Stöck holder calls in time.

    >>> r = random_round("S", 7)
    >>> len(r.plays), sorted(len(h) for h in r.hands)
    (36, [9, 9, 9, 9])
    """
    contract_ = Contract.parse(contract)
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [sorted(deck[i * 9 : i * 9 + 9]) for i in range(4)]
    return play_out(hands, contract_, rng, call_stoeck=call_stoeck)


def play_out(
    hands: Sequence[Sequence[Card]],
    contract: Contract,
    rng: random.Random,
    *,
    call_stoeck: bool = True,
) -> PlayedRound:
    """``hands`` played out with cards drawn by ``rng`` among the legal ones (R3.1-R3.6),
    each trick led by the winner of the last; with ``call_stoeck``, the holder of King
    and Ober of trump says «Stöck» with the second of the two (R6.2)."""
    remaining = [list(h) for h in hands]
    pair = set(stoeck_pair(contract) or ())
    holder = stoeck_holder(hands, contract) if call_stoeck else None
    plays: list[tuple[int, Card]] = []
    calls: list[StoeckCall] = []
    leader = 0
    for _trick in range(9):
        trick: list[Card] = []
        seats = [(leader + k) % 4 for k in range(4)]
        for seat in seats:
            card = rng.choice(legal_cards(remaining[seat], tuple(trick), contract))
            remaining[seat].remove(card)
            trick.append(card)
            plays.append((seat, card))
            if seat == holder and card in pair and not (pair & set(remaining[seat])):
                calls.append(StoeckCall(seat, len(plays) - 1))
        leader = seats[trick_winner(tuple(trick), contract)]
    return PlayedRound(
        contract=contract,
        hands=tuple(tuple(h) for h in hands),
        plays=tuple(plays),
        calls=tuple(calls),
    )


@dataclass(frozen=True)
class TargetScenario:
    round: PlayedRound
    score: RoundScore
    before: tuple[int, int]
    target: int
    rules: RuleSet
    result: TargetResult


class ScoredRound(Protocol):
    """What :func:`target_events` reads: a :class:`RoundScore` or the table's score."""

    @property
    def blocks(self) -> Sequence[Mapping[str, int]]: ...

    @property
    def tricks(self) -> Sequence[TrickResult]: ...


def target_events(score: ScoredRound, rules: RuleSet) -> list[tuple[int, int, str, int | None]]:
    """(team, points, block, trick index) in the order the target counts them (R7.3, R7.4).

    The Jasstafel adds a round's points in this order; whoever first reaches the
    target at one of these steps wins (shared by the quiz scenarios and the table).
    """
    events: list[tuple[int, int, str, int | None]] = []
    for block in rules.target_order:
        if block == "tricks":
            events.extend((t.team, t.points, "tricks", t.index) for t in score.tricks if t.points)
        else:
            events.extend(
                (team, score.blocks[team][block], block, None)
                for team in (0, 1)
                if score.blocks[team][block]
            )
    return events


DECIDES = ("weis", "stoeck", "tricks", "nobody")
# The fewest points a block can bring a team, before the factor: a sequence of three
# or Stöck (R5.1, R6.1), a trick with a card that counts (an Under, R4.1-R4.3); and
# what the tricks of a round bring both teams together (R4.4).
LEAST_POINTS = {"weis": 20, "stoeck": 20, "tricks": 2}
ROUND_CARD_POINTS = 157
NEAR_MISS_SHARE = 100  # the card points of the team that takes more, in most rounds


def target_contracts(decides: str, rules: RuleSet, *, overshoot: bool = False) -> tuple[str, ...]:
    """The contracts in which ``decides`` can decide the game under the rule set's
    target, factors and block order (R7.2-R7.5): a quick necessary condition on the
    fewest points, so that a search for a round skips what cannot exist.

    A team lands exactly on the target in the deciding block, or (``overshoot``) may
    pass it there; before that block neither team may have reached it, and for
    nobody neither reaches it at all. A target smaller than one round of points
    times the factor rules some out (a target of 100 with factor 6 leaves nobody
    short of it).

    >>> target_contracts("stoeck", RuleSet())
    ('D', 'H', 'S', 'C')
    >>> target_contracts("nobody", RuleSet(target=500, factors={"obenabe": 8}))
    ('D', 'H', 'S', 'C', 'undenufe')
    >>> target_contracts("weis", RuleSet(target=30, target_order=("tricks", "weis", "stoeck")))
    ()
    """
    if decides not in DECIDES:
        raise ScenarioError("decides must be weis, stoeck, tricks or nobody")
    order, target = rules.target_order, rules.target
    found = []
    for contract in Contract:
        f = rules.factor(contract)
        both_tricks = ROUND_CARD_POINTS * f  # the tricks of both teams, all counted
        if decides == "nobody":
            # necessary: both teams short of it; and a split of the round that leaves
            # both short must be common enough to be found (a team takes ~100 of 157)
            possible = both_tricks <= 2 * (target - 1) and NEAR_MISS_SHARE * f < target
        elif decides == "stoeck" and contract.trump is None:
            possible = False
        else:
            # landing on the target is easy only under a target above a round's points
            least = 0 if overshoot else max(LEAST_POINTS[decides] * f, both_tricks)
            before_it = decides != "tricks" and order.index("tricks") < order.index(decides)
            possible = least <= target and (
                not before_it or both_tricks + LEAST_POINTS[decides] * f <= 2 * target - 1
            )
        if possible:
            found.append(contract.code)
    return tuple(found)


@lru_cache(maxsize=256)
def target_scenario(
    decides: str,
    seed: int = 0,
    rules: RuleSet | None = None,
    *,
    attempts: int = MAX_ATTEMPTS,
    overshoot: bool | None = None,
) -> TargetScenario:
    """A real round and scores before it, built so that ``decides`` decides the game.

    ``decides``: ``weis``, ``stoeck``, ``tricks`` or ``nobody``. Where it can, the
    other team is placed so that it would reach the target later in the same round,
    which is the case R7.3 is about. The answer comes from ``resolve_target``. A team
    lands exactly on the target where a round can; under a target smaller than a
    round's points (see :func:`target_contracts`), or with ``overshoot``, it may pass
    it in the deciding block. Raises :class:`ScenarioError` when no round of
    ``attempts`` fits.

    >>> s = target_scenario("stoeck", 3)
    >>> s.result.block, s.result.team is not None
    ('stoeck', True)
    """
    if decides not in DECIDES:
        raise ScenarioError("decides must be weis, stoeck, tricks or nobody")
    rules = rules or RuleSet()
    target = rules.target
    if overshoot is None or decides == "nobody":
        overshoot = decides != "nobody" and not target_contracts(decides, rules)
    contracts = target_contracts(decides, rules, overshoot=overshoot)
    if not contracts:
        raise ScenarioError(f"{decides} cannot decide under a target of {target}")
    rng = random.Random(seed)
    for _attempt in range(attempts):
        contract = rng.choice(contracts)
        played = random_round(contract, rng.randrange(1 << 30))
        score = score_round(played.hands, played.contract, played.plays, played.calls, rules)
        events = target_events(score, rules)
        before = _place(events, decides, target, rng, overshoot=overshoot)
        if before is None:
            continue
        result = resolve_target(before, score, target, rules)
        wanted_block = None if decides == "nobody" else decides
        if result.block == wanted_block:
            return TargetScenario(played, score, before, target, rules, result)
    raise ScenarioError(f"no round found in which {decides} decides")


Event = tuple[int, int, str, int | None]


def _place(
    events: list[Event], decides: str, target: int, rng: random.Random, *, overshoot: bool = False
) -> tuple[int, int] | None:
    """The totals before the round that make an event of block ``decides`` bring its
    team to the target first (with ``overshoot`` a total may stay 0 and the team pass
    the target there); None when the round cannot give them."""
    if decides == "nobody":
        return _place_nobody(events, target, rng)

    def points(side: int, upto: int) -> int:
        return sum(p for t, p, _b, _i in events[:upto] if t == side)

    candidates = [i for i, e in enumerate(events) if e[2] == decides]
    if overshoot:  # from 0:0 the first events may already pass the target
        candidates = [i for i in candidates if max(points(0, i), points(1, i)) < target]
    if not candidates:
        return None
    k = rng.choice(candidates)
    team = events[k][0]
    other = 1 - team
    before = [0, 0]
    before[team] = target - points(team, k + 1)
    later = [i for i in range(k + 1, len(events)) if events[i][0] == other]
    if later:
        before[other] = target - points(other, rng.choice(later) + 1)
    else:
        before[other] = target - 1 - points(other, len(events))
    if overshoot:
        before = [max(0, b) for b in before]
        if max(before[side] + points(side, k) for side in (0, 1)) >= target:
            return None  # a team reached it before the deciding block
    if min(before) < 0 or max(before) >= target:
        return None
    return before[0], before[1]


def _place_nobody(events: list[Event], target: int, rng: random.Random) -> tuple[int, int] | None:
    """Totals before the round that leave both teams short of the target after it."""
    totals = [sum(p for t, p, _b, _i in events if t == team) for team in (0, 1)]
    gaps = (rng.randrange(1, 120), rng.randrange(1, 120))
    nobody = (target - gaps[0] - totals[0], target - gaps[1] - totals[1])
    return nobody if min(nobody) >= 0 else None


PAIR_CALLS = ("second", "first", "late", "prompted", "none")


def _deal_pair(rng: random.Random, owners: dict[Card, int]) -> list[list[Card]]:
    """Each card of ``owners`` to its seat; the other cards at random."""
    rest = [c for c in DECK if c not in owners]
    rng.shuffle(rest)
    hands: list[list[Card]] = [[] for _ in range(4)]
    for c in sorted(owners):
        hands[owners[c]].append(c)
    for seat in range(4):
        while len(hands[seat]) < 9:
            hands[seat].append(rest.pop())
    return hands


def _play_pair(
    rng: random.Random,
    hands: list[list[Card]],
    contract: Contract,
    wanted: dict[Card, int],
) -> tuple[list[tuple[int, Card]], dict[Card, int]] | None:
    """Random legal play in which each card of ``wanted`` is played in the given trick
    (1-9) and not before; None when the rules forbid it."""
    remaining = [list(h) for h in hands]
    plays: list[tuple[int, Card]] = []
    indices: dict[Card, int] = {}
    leader = 0
    for trick_no in range(1, 10):
        trick: list[Card] = []
        seats = [(leader + k) % 4 for k in range(4)]
        for seat in seats:
            legal = list(legal_cards(remaining[seat], tuple(trick), contract))
            due = [c for c in sorted(wanted) if wanted[c] == trick_no and c in remaining[seat]]
            if due:
                if due[0] not in legal:
                    return None
                choice = due[0]
            else:
                others = [c for c in legal if c not in wanted]
                if not others:
                    return None
                choice = rng.choice(others)
            remaining[seat].remove(choice)
            trick.append(choice)
            if choice in wanted:
                indices[choice] = len(plays)
            plays.append((seat, choice))
        leader = seats[trick_winner(tuple(trick), contract)]
    return plays, indices


@lru_cache(maxsize=512)
def pair_scenario(
    contract: str,
    suit: str,
    king_seat: int,
    queen_seat: int,
    first_trick: int,
    second_trick: int,
    call: str,
    seed: int = 0,
    rules: RuleSet | None = None,
) -> StoeckScenario:
    """A round excerpt around the King and Ober of ``suit``, for the cases where they
    are no Stöck: in Obenabe or Undenufe (R6.1), or split between two players
    (``king_seat != queen_seat``, R6.1). One of the two cards, chosen at random,
    is played in ``first_trick`` and the other in ``second_trick`` (1-9).

    ``call`` (made by the player of the second card, or of the first for
    ``first``): ``second`` (with the second card), ``first`` (with the first card),
    ``late`` (one card after the second), ``prompted`` (with the second card after
    the partner's reminder), ``none``. ``holder`` is the seat holding both cards,
    or None when they are split; ``first_index``/``second_index`` are the plays of
    the two cards.

    >>> s = pair_scenario("obenabe", "H", 1, 1, 2, 5, "second", 3)
    >>> s.result.status, s.result.reason.value, s.holder
    ('none', 'no_trump_contract', 1)
    >>> s = pair_scenario("S", "S", 0, 2, 2, 5, "second", 3)
    >>> s.result.reason.value, s.holder, s.calls[0].seat == s.plays[s.second_index][0]
    ('not_held_by_one_player', None, True)
    """
    contract_ = Contract.parse(contract)
    rules = rules or RuleSet()
    if call not in PAIR_CALLS:
        raise ScenarioError(f"call must be one of {', '.join(PAIR_CALLS)}")
    if not (0 <= king_seat <= 3 and 0 <= queen_seat <= 3 and 1 <= first_trick < second_trick <= 9):
        raise ScenarioError("need seats 0-3 and trick numbers 1 <= first < second <= 9")
    suit_ = Card.parse(suit + "K").suit
    if contract_.trump is not None and suit_ is not contract_.trump:
        raise ScenarioError("in a trump contract, give the trump suit's King and Ober")
    if contract_.trump is not None and king_seat == queen_seat:
        raise ScenarioError("in a trump contract, use stoeck_scenario for a Stöck in one hand")
    # the King and Ober of the suit: the pair that is Stöck when the suit is trump (R6.1)
    like_stoeck = stoeck_pair(Contract.parse(suit_.code))
    assert like_stoeck is not None  # a suit is a trump contract
    king, queen = like_stoeck
    owners = {king: king_seat, queen: queen_seat}
    rng = random.Random(seed)
    for _attempt in range(MAX_ATTEMPTS):
        order = [king, queen]
        rng.shuffle(order)
        hands = _deal_pair(rng, owners)
        played = _play_pair(rng, hands, contract_, {order[0]: first_trick, order[1]: second_trick})
        if played is not None:
            break
    else:
        raise ScenarioError("no legal round puts the cards in those tricks; try other tricks")
    plays, indices = played
    first_index, second_index = indices[order[0]], indices[order[1]]
    first_seat, second_seat = plays[first_index][0], plays[second_index][0]
    calls, end = _excerpt(call, first_seat, first_index, second_seat, second_index)
    holder = king_seat if king_seat == queen_seat else None
    return _judged(contract_, hands, plays[:end], calls, holder, first_index, second_index, rules)


def _calls_in_time(
    hands: tuple[tuple[Card, ...], ...], contract: Contract, plays: list[tuple[int, Card]]
) -> tuple[StoeckCall, ...]:
    """The holder of trump King and Ober calls Stöck with the second of them (R6.2)."""
    pair = stoeck_pair(contract)
    holder = stoeck_holder(hands, contract)
    if pair is None or holder is None:
        return ()
    second = max(i for i, (_s, c) in enumerate(plays) if c in pair)
    return (StoeckCall(holder, second),)


@lru_cache(maxsize=256)
def near_miss_scenario(
    seed: int = 0, rules: RuleSet | None = None, *, attempts: int = MAX_ATTEMPTS
) -> TargetScenario:
    """A real round after which nobody has reached the target (R7.5), with both teams
    close to it. Where the deals allow, the team that lost the Weis (R5.6) ends within
    its own melds' value of the target, so that counting them would wrongly reach it.
    The deal is played out with random legal cards; a Stöck holder calls in time.

    ``attempts`` bounds the rounds played out (deals without a lost Weis are skipped
    at first, which costs little); :class:`ScenarioError` when none fits, or when the
    target is too small for any round to stay short of it (:func:`target_contracts`).

    >>> s = near_miss_scenario(4)
    >>> s.result.team, s.result.block, max(s.result.totals) < s.target
    (None, None, True)
    """
    rules = rules or RuleSet()
    target = rules.target
    contracts = target_contracts("nobody", rules)
    if not contracts:
        raise ScenarioError(f"every round reaches a target of {target}")
    rng = random.Random(seed)
    played_out = 0
    for attempt in range(MAX_ATTEMPTS):
        if played_out >= attempts:
            break
        contract = Contract.parse(rng.choice(contracts))
        deal_rng = random.Random(rng.randrange(1 << 30))
        hands = deal_cards(deal_rng)
        weis = resolve_weis(hands, contract, rules)
        lost = 0
        loser = 0
        if weis.team is not None:
            loser = 1 - weis.team
            melds = weis.melds
            lost = sum(m.points for s in (loser, loser + 2) for m in melds[s]) * weis.factor
        if not lost and attempt < 60:
            continue
        played_out += 1
        plays = play_round(hands, contract, rng=deal_rng)
        played = PlayedRound(contract, hands, tuple(plays), _calls_in_time(hands, contract, plays))
        score = score_round(played.hands, played.contract, played.plays, played.calls, rules)
        gaps = [rng.randint(1, 60), rng.randint(1, 60)]
        if lost:
            gaps[loser] = rng.randint(1, lost)
        before = (target - gaps[0] - score.totals[0], target - gaps[1] - score.totals[1])
        if min(before) < 0:
            continue
        result = resolve_target(before, score, target, rules)
        if result.team is None:
            return TargetScenario(played, score, before, target, rules, result)
    raise ScenarioError("no round found that ends just short of the target")
