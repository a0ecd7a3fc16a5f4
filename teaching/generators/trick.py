"""Trick-play questions: ``trick`` with the sub-types ``legal`` (R3.1-R3.5),
``winner`` (R3.6) and ``points`` (R4.1-R4.5). Formats: see :mod:`teaching.generators`.

The wrong choices come from *mistaken rule models*: the same question answered
with one rule forgotten or misread (under-trumping allowed, the Puur exception
forgotten, trumps ranked like a plain suit, the last trick's 5 forgotten ...).
These models are the generator's own small functions; the correct answer always
comes from rules_core.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules_core import (
    DECK,
    Card,
    Contract,
    RuleSet,
    card_points,
    explain_card_points,
    explain_legal_cards,
    explain_trick_winner,
    legal_cards,
    parse_cards,
    trick_winner,
)
from rules_core.scoring import LAST_TRICK_BONUS

from .base import Draft, Kind, Retry, Solved, pick_around, trace_dicts
from .deal import ALL_CONTRACTS, NO_TRUMP_CONTRACTS, TRUMP_CONTRACTS, codes, weighted

SUBS = ("legal", "winner", "points")
# rank indices (natural order 6 7 8 9 10 J Q K A = 0..8)
SIX, SEVEN, EIGHT, NINE, TEN, J, OBER, KING, ACE = range(9)
# strength in the trump suit by rank index 6 7 8 9 10 J Q K A (R3.6: J 9 A K Q 10 8 7 6)
TRUMP_STRENGTH = (0, 1, 2, 7, 3, 8, 4, 5, 6)


def _strength(
    c: Card, contract: Contract, *, plain_trumps: bool = False, flip: bool = False
) -> int:
    """Higher wins, within a suit (own model; ``flip`` swaps Obenabe and Undenufe)."""
    r = c.rank.index
    if c.suit is contract.trump and not plain_trumps:
        return TRUMP_STRENGTH[r]
    undenufe = contract is Contract.UNDENUFE
    if flip and contract.trump is None:
        undenufe = not undenufe
    return 8 - r if undenufe else r


def _card(suit: int, rank: int) -> Card:
    return DECK[suit * 9 + rank]


def _suit_cards(suit: int, exclude: Sequence[Card] = ()) -> list[Card]:
    return [c for c in DECK[suit * 9 : suit * 9 + 9] if c not in exclude]


# ---------------------------------------------------------------------------
# legal


@dataclass(frozen=True)
class LegalModel:
    """A reading of R3.1-R3.5; the default is the rule, each flag one mistake."""

    follow_suit: bool = True  # R3.1
    trumping_needs_void: bool = False  # R3.2 forgotten: no trumping while able to follow
    under_trump_allowed: bool = False  # R3.3 forgotten
    only_trumps_exception: bool = True  # R3.3: a hand of only trumps may under-trump
    plain_trump_order: bool = False  # trumps ranked A K Q J 10 9 ... like a plain suit
    puur_exception: bool = True  # R3.4
    puur_exception_always: bool = False  # holding the Puur frees you even with other trumps
    puur_never_on_trump_lead: bool = False  # "need not" misread as "may not"
    trump_lead_free: bool = False  # no need to follow a trump lead
    must_trump_when_void: bool = False  # ruffing obligation of other games
    must_beat: bool = False  # obligation to beat the trick when possible


def model_legal(
    hand: Sequence[Card], trick: Sequence[Card], contract: Contract, m: LegalModel
) -> list[Card]:
    """The cards of ``hand`` that the model ``m`` allows (hand order)."""
    if not trick:
        return list(hand)
    led = trick[0].suit
    trump = contract.trump
    trumps = [c for c in hand if c.suit is trump]
    follow = [c for c in hand if c.suit is led]
    if not m.follow_suit:
        legal = list(hand)
    elif trump is not None and led is trump:
        has_puur = any(c.rank.index == J for c in trumps)
        others = [c for c in trumps if c.rank.index != J]
        if m.trump_lead_free or not trumps or m.puur_exception_always and has_puur:
            legal = list(hand)
        elif m.puur_never_on_trump_lead and has_puur:
            legal = others or [c for c in hand if c not in trumps] or list(hand)
        elif not others:
            legal = list(hand) if m.puur_exception else trumps
        else:
            legal = trumps
    else:
        if follow:
            legal = follow + (
                [] if m.trumping_needs_void else [c for c in trumps if c not in follow]
            )
        elif m.must_trump_when_void and trumps:
            legal = trumps
        else:
            legal = list(hand)
        in_trick = [c for c in trick if c.suit is trump]
        if trump is not None and in_trick and not m.under_trump_allowed:
            high = max(_strength(c, contract, plain_trumps=m.plain_trump_order) for c in in_trick)
            only_trumps = len(trumps) == len(hand)
            if not (only_trumps and m.only_trumps_exception):
                legal = [
                    c
                    for c in legal
                    if c.suit is not trump
                    or _strength(c, contract, plain_trumps=m.plain_trump_order) > high
                ]
    if m.must_beat and trick:
        beaters = [c for c in legal if trick_winner([*trick, c], contract) == len(trick)]
        legal = beaters or legal
    order = {c: i for i, c in enumerate(hand)}
    return sorted(dict.fromkeys(legal), key=order.__getitem__)


LEGAL_MISTAKES: tuple[tuple[str, LegalModel], ...] = (
    ("under_trump_allowed", LegalModel(under_trump_allowed=True)),
    ("plain_order_for_trumps", LegalModel(plain_trump_order=True)),
    ("puur_exception_forgotten", LegalModel(puur_exception=False)),
    ("puur_exception_misapplied", LegalModel(puur_exception_always=True)),
    ("puur_may_not_be_played", LegalModel(puur_never_on_trump_lead=True)),
    ("only_trumps_exception_forgotten", LegalModel(only_trumps_exception=False)),
    (
        "only_trumps_exception_forgotten_and_plain_order",
        LegalModel(only_trumps_exception=False, plain_trump_order=True),
    ),
    ("trump_lead_need_not_be_followed", LegalModel(trump_lead_free=True)),
    ("trumping_needs_void", LegalModel(trumping_needs_void=True)),
    ("must_trump_when_void", LegalModel(must_trump_when_void=True)),
    ("must_beat_the_trick", LegalModel(must_beat=True)),
    ("any_card_allowed", LegalModel(follow_suit=False)),
)


def _trump_contract(rng: random.Random) -> tuple[str, int, list[int]]:
    contract = rng.choice(TRUMP_CONTRACTS)
    t = Contract.parse(contract).trump.index  # type: ignore[union-attr]
    return contract, t, [s for s in range(4) if s != t]


def _pick(rng: random.Random, pool: Sequence[Card], n: int, taken: list[Card]) -> list[Card]:
    free = [c for c in pool if c not in taken]
    if len(free) < n:
        raise Retry("not enough cards")
    out = rng.sample(free, n)
    taken.extend(out)
    return out


def _legal_follow_or_trump(rng: random.Random) -> tuple[str, list[Card], list[Card]]:
    contract, t, plain = _trump_contract(rng)
    led, other = rng.sample(plain, 2)
    taken: list[Card] = []
    k = rng.randint(1, 3)
    trick = _pick(rng, _suit_cards(led), 1, taken)
    trick += _pick(rng, _suit_cards(led) + _suit_cards(other), k - 1, taken)
    hand = _pick(rng, _suit_cards(led), rng.randint(1, 3), taken)
    hand += _pick(rng, _suit_cards(t), rng.randint(1, 2), taken)
    hand += _pick(
        rng, [c for s in plain if s != led for c in _suit_cards(s)], rng.randint(1, 3), taken
    )
    return contract, trick, hand


def _legal_under_trump(rng: random.Random) -> tuple[str, list[Card], list[Card]]:
    contract, t, plain = _trump_contract(rng)
    led = rng.choice(plain)
    taken: list[Card] = []
    k = rng.randint(2, 3)
    trick = _pick(rng, _suit_cards(led), 1, taken)
    # the trump in the trick: often the Nell or the ace, where trump order and plain order differ
    high = _card(t, rng.choice((NINE, NINE, ACE, ACE, KING, OBER, TEN)))
    if high in taken:
        raise Retry("taken")
    fillers = _pick(rng, _suit_cards(led), k - 2, taken)
    trick += fillers
    trick.insert(rng.randint(1, len(trick)), high)
    taken.append(high)
    trumps = _pick(rng, _suit_cards(t), rng.randint(2, 3), taken)
    hand = list(trumps)
    if rng.random() < 0.6:
        hand += _pick(rng, _suit_cards(led), rng.randint(1, 2), taken)
    hand += _pick(
        rng, [c for s in plain if s != led for c in _suit_cards(s)], rng.randint(1, 2), taken
    )
    return contract, trick, hand


def _legal_only_trumps(rng: random.Random) -> tuple[str, list[Card], list[Card]]:
    """A hand of only trumps after an opponent trumped (R3.3's exception): the Nell,
    a trump above the trick's trump in plain order and a low one, so that forgetting
    the exception, with or without the plain order, gives two other answers."""
    contract, t, plain = _trump_contract(rng)
    led = rng.choice(plain)
    high = rng.choice((TEN, OBER))
    taken: list[Card] = [_card(t, high)]
    trick = _pick(rng, _suit_cards(led), 1, taken)
    trick.append(_card(t, high))
    trick += _pick(rng, _suit_cards(led), rng.randint(0, 1), taken)
    hand = [_card(t, NINE), _card(t, rng.choice([r for r in (OBER, KING, ACE) if r > high]))]
    hand.append(_card(t, rng.choice((SIX, SEVEN, EIGHT))))
    taken += hand
    hand += _pick(rng, _suit_cards(t), rng.randint(0, 1), taken)
    return contract, trick, hand


def _legal_puur_alone(rng: random.Random) -> tuple[str, list[Card], list[Card]]:
    contract, t, plain = _trump_contract(rng)
    puur = _card(t, J)
    taken: list[Card] = [puur]
    trick = _pick(rng, _suit_cards(t), 1, taken)
    trick += _pick(
        rng, _suit_cards(t) + [c for s in plain for c in _suit_cards(s)], rng.randint(0, 2), taken
    )
    hand = [puur] + _pick(rng, [c for s in plain for c in _suit_cards(s)], rng.randint(2, 5), taken)
    return contract, trick, hand


def _legal_puur_and_trumps(rng: random.Random) -> tuple[str, list[Card], list[Card]]:
    contract, t, plain = _trump_contract(rng)
    puur = _card(t, J)
    taken: list[Card] = [puur]
    trick = _pick(rng, _suit_cards(t), 1, taken)
    trick += _pick(rng, [c for s in plain for c in _suit_cards(s)], rng.randint(0, 2), taken)
    hand = [puur] + _pick(rng, _suit_cards(t), rng.randint(1, 2), taken)
    hand += _pick(rng, [c for s in plain for c in _suit_cards(s)], rng.randint(2, 4), taken)
    return contract, trick, hand


def _legal_trump_led(rng: random.Random) -> tuple[str, list[Card], list[Card]]:
    contract, t, plain = _trump_contract(rng)
    taken: list[Card] = [_card(t, J)]  # no Puur in this hand: see the Puur cases
    trick = _pick(rng, _suit_cards(t), 1, taken)
    trick += _pick(rng, [c for c in DECK if c not in taken], rng.randint(0, 2), taken)
    hand = _pick(rng, _suit_cards(t), rng.randint(2, 3), taken)
    hand += _pick(rng, [c for s in plain for c in _suit_cards(s)], rng.randint(2, 3), taken)
    return contract, trick, hand


def _legal_void(rng: random.Random) -> tuple[str, list[Card], list[Card]]:
    contract, t, plain = _trump_contract(rng)
    led = rng.choice(plain)
    taken: list[Card] = []
    trick = _pick(rng, _suit_cards(led), 1, taken)
    if rng.random() < 0.5:
        trick += _pick(rng, _suit_cards(t), 1, taken)
    trick += _pick(rng, _suit_cards(led), rng.randint(0, 1), taken)
    hand = _pick(rng, _suit_cards(t), rng.randint(1, 3), taken)
    hand += _pick(
        rng, [c for s in plain if s != led for c in _suit_cards(s)], rng.randint(2, 4), taken
    )
    return contract, trick, hand


def _legal_no_trump(rng: random.Random) -> tuple[str, list[Card], list[Card]]:
    contract = rng.choice(NO_TRUMP_CONTRACTS)
    led = rng.randrange(4)
    taken: list[Card] = []
    trick = _pick(rng, _suit_cards(led), rng.randint(1, 3), taken)
    hand = _pick(rng, _suit_cards(led), rng.randint(2, 3), taken)
    hand += _pick(
        rng, [c for s in range(4) if s != led for c in _suit_cards(s)], rng.randint(2, 3), taken
    )
    return contract, trick, hand


_LEGAL_BUILDERS: list[
    tuple[Callable[[random.Random], tuple[str, list[Card], list[Card]]], float]
] = [
    (_legal_follow_or_trump, 1.0),
    (_legal_under_trump, 1.6),
    (_legal_only_trumps, 0.7),
    (_legal_puur_alone, 1.0),
    (_legal_puur_and_trumps, 0.8),
    (_legal_trump_led, 0.6),
    (_legal_void, 1.0),
    (_legal_no_trump, 0.8),
]


def _solve_legal(inputs: Mapping[str, Any]) -> Solved:
    result = explain_legal_cards(inputs["hand"], inputs["trick"], inputs["contract"])
    return Solved({"cards": codes(result.legal)}, trace_dicts(result.verdicts))


LEGAL_SIZE = 3
# hands of at most five cards: in a larger hand the whole hand, offered by "any card
# allowed", would be a list of six or more cards that is almost never right
LEGAL_HAND_MAX = 4
# a set inside or around both others is the clue of a pupil who picks the middle
# one: kept now and then, more often for the Puur alone (every card, only the Puur,
# all but the Puur: there are no other slips), by "the Puur alone"
LATTICE_CLUE_KEPT = {False: 0.1, True: 0.4}


def _lattice_clue(sets: Sequence[frozenset[Card]]) -> bool:
    """True when the first set (the answer) is contained in, or contains, more of the
    others than any other set does: a pupil would pick the set in the middle."""
    counts = [sum(1 for t in sets if t is not u and (u < t or t < u)) for u in sets]
    return counts[0] > max(counts[1:])


def _legal_choices(
    rng: random.Random, legal: list[Card], pool: list[tuple[list[Card], str]], rank: int
) -> list[tuple[list[Card], str]] | None:
    """Two wrong choices with the answer at ``rank`` by number of cards, not the set
    inside or around both others unless no draw avoids it (then kept now and then)."""
    clue = None
    for _ in range(6):
        picked = pick_around(rng, len(legal), pool, len, LEGAL_SIZE, rank)
        if picked is None:
            return None
        if not _lattice_clue([frozenset(legal)] + [frozenset(x) for x, _t in picked]):
            return picked
        clue = picked
    puur = clue is not None and any(tag == "puur_exception_forgotten" for _x, tag in clue)
    return clue if rng.random() < LATTICE_CLUE_KEPT[puur] else None


def _build_legal(rng: random.Random, rules: RuleSet) -> Draft:
    # the answer's place among the three choices by number of cards is drawn first,
    # evenly, and kept while situations are drawn until the mistakes' answers fit
    rank = rng.randrange(LEGAL_SIZE)
    for _attempt in range(300):
        build = weighted(rng, _LEGAL_BUILDERS)
        contract, trick, hand = build(rng)  # type: ignore[operator]
        if len(hand) > LEGAL_HAND_MAX:
            continue
        hand = sorted(hand)
        c = Contract.parse(contract)
        legal = list(legal_cards(hand, trick, c))
        pool = []
        for tag, model in LEGAL_MISTAKES:
            cards = model_legal(hand, trick, c, model)
            if cards and cards != legal:
                pool.append((cards, tag))
        picked = _legal_choices(rng, legal, pool, rank)
        if picked is not None:
            break
    else:
        raise Retry("no situation fits")
    leader = rng.randrange(4)
    inputs = {
        "sub": "legal",
        "hand": codes(hand),
        "trick": [x.code for x in trick],
        "contract": contract,
        "leader": leader,
    }
    solved = _solve_legal(inputs)
    distractors = [({"cards": codes(cards)}, tag) for cards, tag in picked]
    rules_tested = sorted({e["rule"] for e in solved.explanation})
    return Draft(
        inputs=inputs,
        prompt={
            "sub": "legal",
            "preset": rules.preset_name(),
            "leader": leader,
            "seat": (leader + len(trick)) % 4,
        },
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


# ---------------------------------------------------------------------------
# winner


def _model_winner(trick: Sequence[Card], contract: Contract, mistake: str) -> Card:
    led = trick[0].suit
    trump = contract.trump
    if mistake == "plain_order_for_trumps":
        key = lambda c: (  # noqa: E731
            c.suit is trump,
            c.suit is led or c.suit is trump,
            _strength(c, contract, plain_trumps=True),
        )
    elif mistake == "trump_ignored":
        key = lambda c: (c.suit is led, _strength(c, contract, plain_trumps=True))  # noqa: E731
    elif mistake == "highest_rank_wins":
        key = lambda c: _strength(c, contract, plain_trumps=True)  # noqa: E731
    elif mistake == "obenabe_undenufe_swapped":
        key = lambda c: (c.suit is led, _strength(c, contract, flip=True))  # noqa: E731
    elif mistake == "first_trump_wins":
        trumps = [c for c in trick if c.suit is trump]
        return trumps[0] if trumps else trick[0]
    else:  # pragma: no cover
        raise ValueError(mistake)
    # max() keeps the first of equals, like the first card played
    return max(trick, key=key)


WINNER_MISTAKES = (
    "plain_order_for_trumps",
    "trump_ignored",
    "highest_rank_wins",
    "obenabe_undenufe_swapped",
    "first_trump_wins",
)
# a card of the trick that no such reading makes the winner (a lower card of the led
# suit, a lower trump, a card of another suit that is not the highest)


def _winner_trump_lead(rng: random.Random) -> tuple[str, list[Card]]:
    contract, t, plain = _trump_contract(rng)
    taken: list[Card] = []
    special = _card(t, rng.choice((J, NINE, NINE)))
    taken.append(special)
    trumps = _pick(
        rng,
        [_card(t, r) for r in (ACE, KING, OBER, TEN, EIGHT, SEVEN, SIX)],
        rng.randint(1, 2),
        taken,
    )
    rest = _pick(rng, [c for s in plain for c in _suit_cards(s)], 3 - len(trumps), taken)
    trick = [*trumps[:1], *rng.sample([special, *trumps[1:], *rest], 3)]
    return contract, trick


def _winner_ruffed(rng: random.Random) -> tuple[str, list[Card]]:
    contract, t, plain = _trump_contract(rng)
    led, other = rng.sample(plain, 2)
    taken: list[Card] = []
    first = _pick(rng, _suit_cards(led), 1, taken)
    n_trumps = rng.choice((1, 2, 2))
    pool_t = [_card(t, r) for r in (J, NINE, ACE, KING, OBER, TEN, SIX, SEVEN, EIGHT)]
    trumps = _pick(rng, pool_t, n_trumps, taken)
    others = _pick(
        rng, _suit_cards(led) + [_card(other, ACE), _card(other, KING)], 3 - n_trumps, taken
    )
    return contract, first + rng.sample(trumps + others, 3)


def _winner_no_trump(rng: random.Random) -> tuple[str, list[Card]]:
    contract = rng.choice(NO_TRUMP_CONTRACTS)
    led = rng.randrange(4)
    taken: list[Card] = []
    first = _pick(rng, _suit_cards(led), 1, taken)
    follow = _pick(rng, _suit_cards(led), rng.randint(1, 2), taken)
    strong = ACE if contract == "obenabe" else SIX
    off_pool = [_card(s, strong) for s in range(4) if s != led]
    off = _pick(rng, off_pool, 3 - len(follow), taken)
    return contract, first + rng.sample(follow + off, 3)


_WINNER_BUILDERS = [(_winner_trump_lead, 1.0), (_winner_ruffed, 1.3), (_winner_no_trump, 1.2)]


def _solve_winner(inputs: Mapping[str, Any]) -> Solved:
    result = explain_trick_winner(inputs["trick"], inputs["contract"])
    return Solved({"card": result.card.code}, trace_dicts(result.trace))


_UNDERS_AND_NINES = [x for x in DECK if x.rank.index in (J, NINE)]
_OTHER_CARDS = [x for x in DECK if x.rank.index not in (J, NINE)]
_CONTRACTS = {code: Contract.parse(code) for code in ALL_CONTRACTS}


def _winner_random(rng: random.Random, specials: int) -> tuple[list[str], list[Card]]:
    """Any four cards (every set of four is some trick: a player who does not follow
    suit has none), ``specials`` of them Unders or 9s, and the contracts in the order
    to try them."""
    cards = rng.sample(_UNDERS_AND_NINES, specials) + rng.sample(_OTHER_CARDS, 4 - specials)
    rng.shuffle(cards)
    contracts = list(ALL_CONTRACTS)
    rng.shuffle(contracts)
    return contracts, cards


# Every card of the trick is a choice. Which card wins is drawn first: its place among
# the four sorted by rank (6 lowest, ace highest) evenly, and whether it is an Under or
# a 9 as often as such cards are in the trick (a pupil who bets on the highest card or
# on the Puur gains nothing); tricks are drawn until one fits.
WINNER_SPECIALS = ((0, 0.35), (1, 0.4), (2, 0.2), (3, 0.05))  # Unders and 9s in a trick


def _build_winner(rng: random.Random, rules: RuleSet) -> Draft:
    place = rng.randrange(4)
    specials = int(weighted(rng, WINNER_SPECIALS))  # type: ignore[call-overload]
    special = rng.random() < specials / 4
    found = None
    for _attempt in range(2000):
        if rng.random() < 0.5:
            build = weighted(rng, _WINNER_BUILDERS)
            contract, trick = build(rng)  # type: ignore[operator]
            if sum(1 for x in trick if x.rank.index in (J, NINE)) != specials:
                continue
            contracts = [contract]
        else:
            contracts, trick = _winner_random(rng, specials)
        ranks = [x.rank.index for x in trick]
        if len(set(ranks)) < 4:
            continue
        wanted = sorted(range(4), key=ranks.__getitem__)[place]  # the card that must win
        if (ranks[wanted] in (J, NINE)) != special:
            continue
        for contract in contracts:
            if trick_winner(trick, _CONTRACTS[contract]) == wanted:
                found = contract
                break
        if found is not None:
            break
    else:
        raise Retry("no trick fits")
    contract = found
    c = _CONTRACTS[contract]
    winner = trick[trick_winner(trick, c)]
    leader = rng.randrange(4)
    inputs = {
        "sub": "winner",
        "trick": [x.code for x in trick],
        "contract": contract,
        "leader": leader,
    }
    solved = _solve_winner(inputs)
    mistakes = [
        m
        for m in WINNER_MISTAKES
        if (m != "obenabe_undenufe_swapped" or c.trump is None)
        and (m not in ("first_trump_wins", "plain_order_for_trumps") or c.trump is not None)
    ]
    tag_of: dict[Card, str] = {}
    for m in mistakes:
        tag_of.setdefault(_model_winner(trick, c, m), m)
    distractors = [
        ({"card": x.code}, tag_of.get(x, "card_cannot_win")) for x in trick if x != winner
    ]
    return Draft(
        inputs=inputs,
        prompt={
            "sub": "winner",
            "preset": rules.preset_name(),
            "leader": leader,
            "seats": [(leader + i) % 4 for i in range(4)],
        },
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=["R3.6"],
    )


# ---------------------------------------------------------------------------
# points

# card points by rank index 6 7 8 9 10 J Q K A (R4.1-R4.3), for the mistaken models
PLAIN = (0, 0, 0, 0, 10, 2, 3, 4, 11)
TRUMP = (0, 0, 0, 14, 10, 20, 3, 4, 11)
OBENABE = (0, 0, 8, 0, 10, 2, 3, 4, 11)
UNDENUFE = (11, 0, 8, 0, 10, 2, 3, 4, 0)


POINTS_MISTAKES = (
    "last_trick_bonus_forgotten",
    "last_trick_bonus_added",
    "factor_forgotten",
    "trump_values_as_plain",
    "plain_values_as_trump",
    "obenabe_undenufe_values_swapped",
    "eights_not_counted",
)


def _table_points(trick: Sequence[Card], contract: Contract, mistake: str | None) -> int:
    total = 0
    for c in trick:
        r = c.rank.index
        if contract.trump is None:
            table = OBENABE if contract is Contract.OBENABE else UNDENUFE
            if mistake == "obenabe_undenufe_values_swapped":
                table = UNDENUFE if table is OBENABE else OBENABE
            value = table[r]
            if mistake == "eights_not_counted" and r == EIGHT:
                value = 0
        elif c.suit is contract.trump:
            value = PLAIN[r] if mistake == "trump_values_as_plain" else TRUMP[r]
        else:
            value = TRUMP[r] if mistake == "plain_values_as_trump" else PLAIN[r]
        total += value
    return total


def _points_trick(rng: random.Random, contract: str, wanted_points: int) -> list[Card]:
    """A trick of about ``wanted_points`` card points (so that the answers spread as
    widely as the mistakes' answers do), most often with an Under or a 9 of trump
    and of another suit (trump contracts) or an 8 and a 6 or ace (Obenabe, Undenufe)."""
    c = Contract.parse(contract)
    if c.trump is not None:
        t = c.trump.index
        plain = [s for s in range(4) if s != t]
        wanted = [_card(t, rng.choice((J, NINE))), _card(rng.choice(plain), rng.choice((J, NINE)))]
    else:
        wanted = [_card(rng.randrange(4), EIGHT), _card(rng.randrange(4), rng.choice((SIX, ACE)))]
    best: tuple[int, list[Card]] | None = None
    for _ in range(12):
        taken: list[Card] = []
        for w in wanted:
            if w not in taken and rng.random() < 0.85:
                taken.append(w)
        cards = taken + _pick(rng, [x for x in DECK if x not in taken], 3 - len(taken), list(taken))
        # the last card: one that brings the trick nearest to the wanted points
        have = sum(card_points(x, c) for x in cards)
        free = [x for x in DECK if x not in cards]
        misses = [abs(have + card_points(x, c) - wanted_points) for x in free]
        low = min(misses)
        cards.append(rng.choice([x for x, m in zip(free, misses, strict=True) if m == low]))
        if best is None or low < best[0]:
            best = (low, cards)
        if low <= 2:
            break
    assert best is not None
    cards = best[1]
    rng.shuffle(cards)
    return cards


# the most a choice may show, in card points and the last trick's 5, by "no trump":
# more looks wrong at a glance (four cards of Obenabe or Undenufe hold 42 at most)
MAX_SHOWN_POINTS = {False: 50, True: 40}


def trick_points(trick: Sequence[Any], contract: Any, index: int, rules: RuleSet) -> int:
    """The written points of one trick: card points, +5 on the last (R4.4), times the
    factor (R4.5); the match bonus is not part of a single trick's question."""
    base = sum(card_points(c, contract) for c in parse_cards(trick))
    bonus = LAST_TRICK_BONUS if index == 8 else 0
    return (base + bonus) * rules.factor(contract)


def _solve_points(inputs: Mapping[str, Any], rules: RuleSet) -> Solved:
    trick, contract, index = inputs["trick"], inputs["contract"], inputs["index"]
    points = trick_points(trick, contract, index, rules)
    entries = [explain_card_points(c, contract).to_dict() for c in trick]
    base = sum(e["values"]["points"] for e in entries)
    bonus = LAST_TRICK_BONUS if index == 8 else 0
    factor = rules.factor(contract)
    entries.append(
        {
            "rule": "R4.5" if factor > 1 else "R4.4",
            "key": "points.trick",
            "values": {
                "cards": list(trick),
                "card_points": base,
                "last_trick_bonus": bonus,
                "factor": factor,
                "points": points,
            },
            "decided": True,
        }
    )
    return Solved({"points": points}, entries)


def _subsets(cards: Sequence[Card]) -> list[list[Card]]:
    """Every non-empty subset of ``cards`` (at most four cards here)."""
    return [[c for i, c in enumerate(cards) if mask >> i & 1] for mask in range(1, 1 << len(cards))]


# How often the 5 of the last trick and the factor are among the mistakes. Their
# answers sit 5 (times the factor) from the answer, or at a factor's ratio below it:
# a pupil who looks for such a pair finds the answer in it, so they are shown
# rarely. The bonus is shown about as often forgotten (on a last trick) as wrongly
# added (on another), so that the pair does not tell which of its two is right.
LAST_TRICK_SHARE = 0.35
BONUS_SHOWN = {  # by (no trump, is the last trick)
    (False, True): 0.15,
    (False, False): 0.08,
    (True, True): 0.3,
    (True, False): 0.16,
}
FACTOR_SHOWN = 0.05


def _looks_paired(value: int, answer: int, factor: int) -> bool:
    """Would ``value`` look like the answer with the last trick's 5 or a factor
    (a coincidence for the other mistakes, but a pupil would take it for a clue)?"""
    if abs(value - answer) in (5, 10, 15):
        return True
    lo, hi = sorted((value, answer))
    return lo > 0 and hi in (2 * lo, 3 * lo)


def _points_pool(
    trick: Sequence[Card], c: Contract, index: int, factor: int, answer: int
) -> list[tuple[int, str]]:
    """The answers of the mistakes about card values (written points).

    A mistake about the values of the Unders and 9s may touch one such card of the
    trick or several: counting only the trump Under at the plain value is the same
    slip as counting both trump Under and trump 9 so.
    """
    bonus = LAST_TRICK_BONUS if index == 8 else 0
    pool: list[tuple[int, str]] = []
    specials = [x for x in trick if x.rank.index in (J, NINE)]
    trumps = [x for x in specials if x.suit is c.trump]
    plains = [x for x in specials if x.suit is not c.trump]
    for cards in _subsets(trumps):
        lost = sum(TRUMP[x.rank.index] - PLAIN[x.rank.index] for x in cards)
        pool.append((answer - lost * factor, "trump_values_as_plain"))
    for cards in _subsets(plains):
        gained = sum(TRUMP[x.rank.index] - PLAIN[x.rank.index] for x in cards)
        pool.append((answer + gained * factor, "plain_values_as_trump"))
    if c.trump is None:
        for mistake in ("obenabe_undenufe_values_swapped", "eights_not_counted"):
            pool.append(((_table_points(trick, c, mistake) + bonus) * factor, mistake))
    return pool


def _trump_points(
    rng: random.Random, c: Contract, index: int, factor: int, show_bonus: bool, show_factor: bool
) -> tuple[list[Card], int, list[tuple[int, str]]]:
    """A trick with an Under and a 9 in a trump contract, and as choices the points
    with none of them trump, with one (the Under, or the 9), and with both.

    Each of the three is the right answer a third of the time: the trick is dealt to
    fit (which of the two cards are trumps), and every other choice is the answer of
    counting trumps at plain values or plain cards at trump values. The two other
    cards hold no Under and no 9, so the three choices look alike whichever is right.
    Rarely a fourth choice forgets (or wrongly adds) the last trick's 5, or the factor.
    """
    assert c.trump is not None
    t = c.trump.index
    others = [s for s in range(4) if s != t]
    middle = rng.choice((J, NINE))
    chain: list[tuple[int, ...]] = [(), (middle,), (J, NINE)]
    trumps = chain[rng.randrange(3)]
    specials = [
        _card(t if J in trumps else rng.choice(others), J),
        _card(t if NINE in trumps else rng.choice(others), NINE),
    ]
    taken = list(specials)
    rest = _pick(rng, [x for x in DECK if x.rank.index not in (J, NINE)], 2, taken)
    trick = specials + rest
    rng.shuffle(trick)
    base = sum(card_points(x, c) for x in rest) + (LAST_TRICK_BONUS if index == 8 else 0)

    def points(ts: tuple[int, ...]) -> int:
        return (base + (20 if J in ts else 2) + (14 if NINE in ts else 0)) * factor

    answer = points(trumps)
    picked = [
        (points(ts), "trump_values_as_plain" if len(ts) < len(trumps) else "plain_values_as_trump")
        for ts in chain
        if ts != trumps
    ]
    if show_bonus and index == 8:
        picked.append((answer - LAST_TRICK_BONUS * factor, "last_trick_bonus_forgotten"))
    elif show_bonus:
        picked.append((answer + LAST_TRICK_BONUS * factor, "last_trick_bonus_added"))
    elif show_factor and factor > 1:
        picked.append((answer // factor, "factor_forgotten"))
    return trick, answer, picked


POINTS_SIZES = ((3, 1), (4, 1))  # (choices, weight), in Obenabe and Undenufe
# How often a trick of 0-4, 5-9, ... 40-44 card points is wanted in Obenabe and
# Undenufe: evenly, so that the right answers spread as widely as the wrong ones
# (trump contracts are dealt as a chain, see _trump_points).
POINTS_WANTED = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)


def _build_points(rng: random.Random, rules: RuleSet) -> Draft:
    # Drawn first and kept while tricks are drawn until one fits: how many choices,
    # where the answer stands among them sorted, whether it is the last trick,
    # whether the 5 of the last trick or the factor are among the mistakes, and the
    # contract.
    size = int(weighted(rng, POINTS_SIZES))  # type: ignore[call-overload]
    rank = rng.randrange(size)
    index = 8 if rng.random() < LAST_TRICK_SHARE else rng.randrange(8)
    contract = rng.choice(ALL_CONTRACTS)
    c = Contract.parse(contract)
    show_bonus = rng.random() < BONUS_SHOWN[(c.trump is None, index == 8)]
    show_factor = rng.random() < FACTOR_SHOWN
    wanted = POINTS_WANTED
    factor = rules.factor(contract)
    for _attempt in range(200):
        if c.trump is not None:
            trick, answer, picked = _trump_points(rng, c, index, factor, show_bonus, show_factor)
            break
        low = int(weighted(rng, list(enumerate(wanted))))  # type: ignore[call-overload]
        trick = _points_trick(rng, contract, 5 * low + rng.randrange(5))
        base = sum(card_points(x, c) for x in trick)
        answer = (base + (LAST_TRICK_BONUS if index == 8 else 0)) * factor
        top = MAX_SHOWN_POINTS[c.trump is None] * factor
        if answer > top:
            continue
        must: list[tuple[int, str]] = []
        if show_bonus and index == 8 and rank > 0:
            must.append((answer - LAST_TRICK_BONUS * factor, "last_trick_bonus_forgotten"))
        elif show_bonus and index != 8 and rank < size - 1:
            must.append((answer + LAST_TRICK_BONUS * factor, "last_trick_bonus_added"))
        if show_factor and factor > 1 and rank > len(must) and answer > 0:
            must.append((answer // factor, "factor_forgotten"))
        pool = [
            (v, tag)
            for v, tag in _points_pool(trick, c, index, factor, answer)
            if 0 <= v <= top and not _looks_paired(v, answer, factor)
        ]
        picked = pick_around(rng, answer, pool, lambda v: v, size, rank, must, avoid_midpoint=True)
        if picked is not None:
            break
    else:
        raise Retry("no trick with mistakes on both sides")
    leader = rng.randrange(4)
    inputs = {
        "sub": "points",
        "trick": [x.code for x in trick],
        "contract": contract,
        "leader": leader,
        "index": index,
    }
    solved = _solve_points(inputs, rules)
    assert solved.value["points"] == answer
    distractors = [({"points": v}, tag) for v, tag in picked]
    rules_tested = sorted({e["rule"] for e in solved.explanation[:-1]})
    if index == 8:
        rules_tested.append("R4.4")
    if factor > 1:
        rules_tested.append("R4.5")
    return Draft(
        inputs=inputs,
        prompt={
            "sub": "points",
            "preset": rules.preset_name(),
            "leader": leader,
            "trick_number": index + 1,
            "last": index == 8,
            "factor": factor,
        },
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


# ---------------------------------------------------------------------------


def solve_trick(inputs: Mapping[str, Any], rules: RuleSet) -> Solved:
    sub = inputs["sub"]
    if sub == "legal":
        return _solve_legal(inputs)
    if sub == "winner":
        return _solve_winner(inputs)
    if sub == "points":
        return _solve_points(inputs, rules)
    raise ValueError(f"unknown trick question sub-type {sub!r}")


def build_trick(rng: random.Random, seed: int, rules: RuleSet) -> Draft:
    sub = SUBS[seed % len(SUBS)]
    if sub == "legal":
        return _build_legal(rng, rules)
    if sub == "winner":
        return _build_winner(rng, rules)
    return _build_points(rng, rules)


TRICK = Kind(
    "trick",
    "Trick play: which cards may be played (R3.1-R3.5), who wins a trick (R3.6), "
    "what a trick is worth (R4.1-R4.5).",
    build_trick,
    solve_trick,
    tuple(
        dict.fromkeys(
            [tag for tag, _model in LEGAL_MISTAKES]
            + list(WINNER_MISTAKES + ("card_cannot_win",) + POINTS_MISTAKES)
        )
    ),
)

__all__ = ["TRICK", "LegalModel", "model_legal", "trick_points"]
