"""Trick-play questions: ``trick`` with the sub-types ``legal`` (R3.1-R3.5),
``winner`` (R3.6) and ``points`` (R4.1-R4.5). Formats: see :mod:`teaching.generators`.

The wrong choices come from *mistaken readings of the rules*: the same question
answered with one rule forgotten, misread or borrowed from another game
(under-trumping allowed, the Puur exception forgotten, trumps ranked like a plain
suit, the last trick's 5 forgotten ...). Each reading is computed from rules_core
(``legal_cards``, ``trick_winner``, ``card_points`` and the tables of
:mod:`rules_core.tables`) with that one rule changed, and its docstring names the
rule (R-ID) and the change; the correct answer always comes from rules_core.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeAlias

from rules_core import (
    DECK,
    Card,
    CardsLike,
    Contract,
    ContractLike,
    Rank,
    RuleSet,
    card_points,
    explain_card_points,
    explain_legal_cards,
    explain_trick_winner,
    legal_cards,
    parse_cards,
    trick_winner,
)
from rules_core.scoring import LAST_TRICK_BONUS, trick_bonus, written_trick_points
from rules_core.tables import card_points_of_rank, trick_order

from .base import (
    CardsValue,
    CardValue,
    Draft,
    Inputs,
    JSONObject,
    Kind,
    PointsValue,
    Retry,
    Solved,
    pick_around,
    trace_dicts,
)
from .deal import (
    ALL_CONTRACTS,
    NO_TRUMP_CONTRACTS,
    TRUMP_CONTRACTS,
    codes,
    trump_index,
    weighted,
)

SUBS = ("legal", "winner", "points")
_CONTRACTS = {code: Contract.parse(code) for code in ALL_CONTRACTS}
# rank indices (natural order 6 7 8 9 10 J Q K A = 0..8)
SIX, SEVEN, EIGHT, NINE, TEN, J, OBER, KING, ACE = (rank.index for rank in Rank)


def _card(suit: int, rank: int) -> Card:
    return DECK[suit * 9 + rank]


def _suit_cards(suit: int, exclude: Sequence[Card] = ()) -> list[Card]:
    return [c for c in DECK[suit * 9 : suit * 9 + 9] if c not in exclude]


# ---------------------------------------------------------------------------
# legal


Cards = Sequence[Card]
LegalReading = Callable[[Cards, Cards, Contract], list[Card]]
"""``(hand, trick, contract) -> the cards of hand it allows``, in hand order."""


def _legal(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """The rule (R3.1-R3.5): rules_core's legal cards, in hand order."""
    return list(legal_cards(tuple(hand), tuple(trick), contract))


def _trump_led(trick: Cards, contract: Contract) -> bool:
    return bool(trick) and contract.trump is not None and trick[0].suit is contract.trump


def _puur(contract: Contract) -> Card | None:
    trump = contract.trump
    return None if trump is None else Card(trump, Rank.UNDER)


def _under_trump_allowed(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.3 forgotten: a trump below the trick's highest trump may be played. The
    engine's answer for the trick reduced to its lead card (no trump in it to stay
    above; R3.3 never applies to a trump lead)."""
    return _legal(hand, trick[:1], contract)


def _r3_3_read(
    hand: Cards, trick: Cards, contract: Contract, order: Sequence[Rank], *, exception: bool
) -> list[Card]:
    """R3.3 applied to the engine's answer without it (:func:`_under_trump_allowed`)
    with the trumps ranked by ``order`` (strongest first), and, without
    ``exception``, to a hand of nothing but trumps as well. With the trump order of
    R3.6 and the exception this is the rule itself (a test checks it against
    rules_core); the mistakes below change one of the two."""
    allowed = _under_trump_allowed(hand, trick, contract)
    trump = contract.trump
    in_trick = [x for x in trick if x.suit is trump]
    if trump is None or not in_trick or _trump_led(trick, contract):
        return allowed
    if exception and all(x.suit is trump for x in hand):
        return allowed
    high = min(order.index(x.rank) for x in in_trick)
    return [x for x in allowed if x.suit is not trump or order.index(x.rank) < high]


def _plain_order_for_trumps(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.6 misread for R3.3: trumps ranked like a plain suit (A K Q J 10 9 ..., the
    Puur and the Nell as a plain J and 9) when staying above the trick's trump."""
    order = trick_order(contract, trump=False)
    return _r3_3_read(hand, trick, contract, order, exception=True)


def _only_trumps_exception_forgotten(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.3's exception forgotten: a hand of nothing but trumps must stay above the
    trick's highest trump too."""
    order = trick_order(contract, trump=True)
    return _r3_3_read(hand, trick, contract, order, exception=False)


def _only_trumps_exception_forgotten_and_plain_order(
    hand: Cards, trick: Cards, contract: Contract
) -> list[Card]:
    """R3.3's exception forgotten, and R3.6 misread as above: the two slips of a hand
    of nothing but trumps (the one mistake here that changes two rules)."""
    order = trick_order(contract, trump=False)
    return _r3_3_read(hand, trick, contract, order, exception=False)


def _puur_exception_forgotten(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.4 forgotten: the Puur, the only trump in hand, must follow a trump lead
    like any other trump."""
    trumps = [x for x in hand if x.suit is contract.trump]
    if _trump_led(trick, contract) and trumps == [_puur(contract)]:
        return trumps
    return _legal(hand, trick, contract)


def _puur_exception_misapplied(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.4 stretched: holding the Puur frees a player from following a trump lead
    even beside other trumps (any card)."""
    if _trump_led(trick, contract) and _puur(contract) in hand:
        return list(hand)
    return _legal(hand, trick, contract)


def _puur_may_not_be_played(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.4 misread, "need not" as "may not": the Puur may not be played to a trump
    lead (the engine's answer without it, unless nothing else is left)."""
    legal = _legal(hand, trick, contract)
    if _trump_led(trick, contract):
        return [x for x in legal if x != _puur(contract)] or legal
    return legal


def _trump_lead_need_not_be_followed(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.1 forgotten for a trump lead: any card may be played to it."""
    if _trump_led(trick, contract):
        return list(hand)
    return _legal(hand, trick, contract)


def _trumping_needs_void(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.2 forgotten: a player who can follow suit may not trump (the engine's
    answer without its trumps, when the hand can follow a plain lead)."""
    legal = _legal(hand, trick, contract)
    if trick and not _trump_led(trick, contract) and any(x.suit is trick[0].suit for x in hand):
        return [x for x in legal if x.suit is not contract.trump]
    return legal


def _must_trump_when_void(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.5 changed to another game's rule: a player who cannot follow must trump
    (the engine's answer reduced to its trumps, when the hand holds any)."""
    legal = _legal(hand, trick, contract)
    trump = contract.trump
    if (
        trick
        and trump is not None
        and not _trump_led(trick, contract)
        and not any(x.suit is trick[0].suit for x in hand)
        and any(x.suit is trump for x in hand)
    ):
        return [x for x in legal if x.suit is trump]
    return legal


def _must_beat_the_trick(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.1-R3.5 with another game's rule added: a player must win the trick when a
    legal card can (the engine's answer reduced to the cards that win it)."""
    legal = _legal(hand, trick, contract)
    if not trick:
        return legal
    played = tuple(trick)
    beaters = [x for x in legal if trick_winner((*played, x), contract) == len(played)]
    return beaters or legal


def _any_card_allowed(hand: Cards, trick: Cards, contract: Contract) -> list[Card]:
    """R3.1 forgotten: no need to follow suit, any card may be played."""
    return list(hand)


LEGAL_MISTAKES: tuple[tuple[str, LegalReading], ...] = (
    ("under_trump_allowed", _under_trump_allowed),
    ("plain_order_for_trumps", _plain_order_for_trumps),
    ("puur_exception_forgotten", _puur_exception_forgotten),
    ("puur_exception_misapplied", _puur_exception_misapplied),
    ("puur_may_not_be_played", _puur_may_not_be_played),
    ("only_trumps_exception_forgotten", _only_trumps_exception_forgotten),
    (
        "only_trumps_exception_forgotten_and_plain_order",
        _only_trumps_exception_forgotten_and_plain_order,
    ),
    ("trump_lead_need_not_be_followed", _trump_lead_need_not_be_followed),
    ("trumping_needs_void", _trumping_needs_void),
    ("must_trump_when_void", _must_trump_when_void),
    ("must_beat_the_trick", _must_beat_the_trick),
    ("any_card_allowed", _any_card_allowed),
)
"""The mistaken readings of R3.1-R3.5, by mistake name, in order of preference
(the first reading that gives a set of cards names it)."""


def mistaken_legal(
    mistake: str, hand: CardsLike, trick: CardsLike, contract: ContractLike
) -> list[Card]:
    """The cards of ``hand`` that the mistake ``mistake`` (a name of
    :data:`LEGAL_MISTAKES`) allows to be played to ``trick``, in hand order."""
    reading = dict(LEGAL_MISTAKES)[mistake]
    return reading(parse_cards(hand), parse_cards(trick), Contract.parse(contract))


def _trump_contract(rng: random.Random) -> tuple[str, int, list[int]]:
    contract = rng.choice(TRUMP_CONTRACTS)
    t = trump_index(contract)
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


def _solve_legal(inputs: Inputs) -> Solved[CardsValue]:
    result = explain_legal_cards(inputs["hand"], inputs["trick"], inputs["contract"])
    return Solved({"cards": codes(result.legal)}, trace_dicts(result.verdicts))


# hands of at most four cards: in a larger hand the whole hand, offered by "any card
# allowed", would be a list of five or more cards that is almost never right
LEGAL_HAND_MAX = 4
# The three choices hold different numbers of cards. Which three numbers (of 1 to 4)
# is drawn first, then which of them the answer holds, evenly: so a number of cards
# is right a third of the times it is shown, whichever it is (a pupil who remembers
# that lists of two cards were often right gains nothing), and so is the answer's
# place among the three. Situations are drawn until one fits.
LEGAL_SIZE_SETS = (((1, 2, 3), 1.0), ((1, 2, 4), 1.0), ((1, 3, 4), 1.0), ((2, 3, 4), 1.0))
LEGAL_ATTEMPTS = 2000
# a set inside or around both others is the clue of a pupil who picks the middle
# one: kept now and then, more often for the Puur alone (every card, only the Puur,
# all but the Puur: there are no other slips), by "the Puur alone"
LATTICE_CLUE_KEPT = {False: 0.0, True: 0.15}


def _lattice_clue(sets: Sequence[frozenset[Card]]) -> bool:
    """True when the first set (the answer) is contained in, or contains, more of the
    others than any other set does: a pupil would pick the set in the middle."""
    counts = [sum(1 for t in sets if t is not u and (u < t or t < u)) for u in sets]
    return counts[0] > max(counts[1:])


LegalSlips = list[tuple[list[Card], str]]


def _legal_choices(
    rng: random.Random, legal: list[Card], options: Sequence[LegalSlips]
) -> LegalSlips | None:
    """A wrong choice from each of ``options`` (the mistakes' sets of one number of
    cards each), not the set inside or around both others unless no draw avoids it
    (then kept now and then)."""
    clue = None
    for _ in range(6):
        picked = [rng.choice(option) for option in options]
        if not _lattice_clue([frozenset(legal)] + [frozenset(x) for x, _t in picked]):
            return picked
        clue = picked
    puur = clue is not None and any(tag == "puur_exception_forgotten" for _x, tag in clue)
    return clue if rng.random() < LATTICE_CLUE_KEPT[puur] else None


def _legal_slips(hand: Cards, trick: Cards, contract: Contract, legal: list[Card]) -> LegalSlips:
    """The mistakes' sets of cards other than the answer, each once (named after the
    first reading that gives it)."""
    seen = {frozenset(legal)}
    slips: LegalSlips = []
    for tag, reading in LEGAL_MISTAKES:
        cards = reading(hand, trick, contract)
        if cards and frozenset(cards) not in seen:
            seen.add(frozenset(cards))
            slips.append((cards, tag))
    return slips


def _build_legal(rng: random.Random, rules: RuleSet) -> Draft[CardsValue]:
    sizes = weighted(rng, LEGAL_SIZE_SETS)
    wanted = rng.choice(sizes)
    for _attempt in range(LEGAL_ATTEMPTS):
        build = weighted(rng, _LEGAL_BUILDERS)
        contract, trick, hand = build(rng)
        if len(hand) > LEGAL_HAND_MAX or len(hand) < max(sizes):
            continue
        hand = sorted(hand)
        c = _CONTRACTS[contract]
        legal = _legal(hand, trick, c)
        if len(legal) != wanted:
            continue
        slips = _legal_slips(hand, trick, c, legal)
        options = [[x for x in slips if len(x[0]) == n] for n in sizes if n != wanted]
        if all(options):
            picked = _legal_choices(rng, legal, options)
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
    distractors: list[tuple[CardsValue, str]] = [
        ({"cards": codes(cards)}, tag) for cards, tag in picked
    ]
    rules_tested = sorted({e["rule"] for e in solved.explanation})
    return Draft(
        inputs=inputs,
        prompt=_to_play_prompt("legal", rules, leader, trick),
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


def _to_play_prompt(sub: str, rules: RuleSet, leader: int, trick: Sequence[Card]) -> JSONObject:
    """The prompt of a question about the player to play: who led, who is to play."""
    seat = (leader + len(trick)) % 4
    return {"sub": sub, "preset": rules.preset_name(), "leader": leader, "seat": seat}


def may_play_draft(
    rng: random.Random,
    hand: CardsLike,
    trick: CardsLike,
    contract: str,
    leader: int,
    rules: RuleSet,
    place: int | None = None,
) -> Draft[CardValue] | None:
    """The ``may_play`` question of a given position (a table position of the trainer,
    issue 25): which of three cards of the hand may the player to move play to
    ``trick``, led by ``leader``? One card that may be played and two that may not, of
    three suits (so the suit met once among the choices tells nothing) and three ranks,
    the card that may be played the ``place``-th lowest of them (0-2; None: any), drawn
    among all such sets; each card that may not be played is named after the first
    mistaken reading of R3.1-R3.5 that allows it (:data:`LEGAL_MISTAKES`). None where
    the hand has no such three cards.

    A hand's legal cards are a set; the ``legal`` sub-type asks for it, with choices of
    different sizes whose answer's place the generator draws evenly by building the
    situation. A position of a played round cannot be built: its legal set is mostly
    between "any card" and a smaller slip, so the middle choice would win. One card
    each has no such place.

    >>> draft = may_play_draft(random.Random(1), "H6 S7 SK D8 C9", "S6", "H", 1, RuleSet())
    >>> draft.answer["card"] in ("H6", "S7", "SK"), sorted(t for _v, t in draft.distractors)
    (True, ['any_card_allowed', 'any_card_allowed'])
    >>> may_play_draft(random.Random(1), "S7 SK D8", "S6", "H", 1, RuleSet()) is None
    True
    """
    cards = sorted(parse_cards(hand))
    played = list(parse_cards(trick))
    c = _CONTRACTS[contract]
    legal = _legal(cards, played, c)
    illegal = [x for x in cards if x not in legal]
    sets = [
        (right, (a, b))
        for right in legal
        for i, a in enumerate(illegal)
        for b in illegal[i + 1 :]
        if len({a.suit, b.suit, right.suit}) == 3
        and len({a.rank, b.rank, right.rank}) == 3
        and (place is None or sorted((a.rank, b.rank, right.rank)).index(right.rank) == place)
    ]
    if not sets:
        return None
    right, wrong = rng.choice(sets)
    inputs = {
        "sub": "may_play",
        "hand": codes(cards),
        "trick": [x.code for x in played],
        "contract": contract,
        "leader": leader,
        "offered": codes(sorted((right, *wrong))),
    }
    solved = _solve_may_play(inputs)
    return Draft(
        inputs=inputs,
        prompt=_to_play_prompt("may_play", rules, leader, played),
        answer=solved.value,
        distractors=[({"card": x.code}, _slip_allowing(x, cards, played, c)) for x in wrong],
        explanation=solved.explanation,
        rules_tested=sorted({e["rule"] for e in solved.explanation}),
    )


def _slip_allowing(card: Card, hand: Cards, trick: Cards, contract: Contract) -> str:
    """The first mistaken reading of R3.1-R3.5 that lets ``card`` be played."""
    return next(tag for tag, reading in LEGAL_MISTAKES if card in reading(hand, trick, contract))


def _solve_may_play(inputs: Inputs) -> Solved[CardValue]:
    """The one card of ``inputs["offered"]`` that may be played (R3.1-R3.5), with the
    engine's verdict on each offered card."""
    result = explain_legal_cards(inputs["hand"], inputs["trick"], inputs["contract"])
    offered = set(inputs["offered"])
    allowed = [x.code for x in result.legal if x.code in offered]
    if len(allowed) != 1:
        raise ValueError(f"{len(allowed)} of the offered cards may be played, not one")
    verdicts = [v for v in trace_dicts(result.verdicts) if v["values"]["card"] in offered]
    return Solved({"card": allowed[0]}, verdicts)


# ---------------------------------------------------------------------------
# winner


WinnerReading = Callable[[Cards, Contract], Card | None]
"""``(trick, contract) -> the card it makes the winner``; None where the mistake
cannot be made (no trump to misrank in Obenabe and Undenufe ...)."""


def _winner_plain_order_for_trumps(trick: Cards, contract: Contract) -> Card | None:
    """R3.6 misread: the trumps ranked like a plain suit (A K Q J 10 9 ..., the Puur
    and the Nell as a plain J and 9); trump contracts only."""
    if contract.trump is None:
        return None
    trumps = [x for x in trick if x.suit is contract.trump]
    if not trumps:
        return trick[trick_winner(tuple(trick), contract)]
    order = trick_order(contract, trump=False)
    return min(trumps, key=lambda x: order.index(x.rank))


def _winner_trump_ignored(trick: Cards, contract: Contract) -> Card | None:
    """R3.6 without its trumps: the highest card of the led suit wins (the engine's
    winner of the trick read as Obenabe, whose order is the plain one)."""
    read_as = Contract.OBENABE if contract.trump is not None else contract
    return trick[trick_winner(tuple(trick), read_as)]


def _winner_highest_rank(trick: Cards, contract: Contract) -> Card | None:
    """R3.6 with the suits ignored (R3.1's led suit forgotten): the highest rank of
    the contract's plain order wins, the first played of equal ranks."""
    order = trick_order(contract, trump=False)
    return min(trick, key=lambda x: order.index(x.rank))


def _winner_obenabe_undenufe_swapped(trick: Cards, contract: Contract) -> Card | None:
    """R3.6's orders of Obenabe and Undenufe swapped (the engine's winner under the
    other one); those contracts only."""
    if contract.trump is not None:
        return None
    other = Contract.UNDENUFE if contract is Contract.OBENABE else Contract.OBENABE
    return trick[trick_winner(tuple(trick), other)]


def _winner_first_trump(trick: Cards, contract: Contract) -> Card | None:
    """R3.6's trump order forgotten: the first trump played takes the trick (the lead
    card when none is played); trump contracts only."""
    if contract.trump is None:
        return None
    trumps = [x for x in trick if x.suit is contract.trump]
    return trumps[0] if trumps else trick[0]


WINNER_MISTAKES: tuple[tuple[str, WinnerReading], ...] = (
    ("plain_order_for_trumps", _winner_plain_order_for_trumps),
    ("trump_ignored", _winner_trump_ignored),
    ("highest_rank_wins", _winner_highest_rank),
    ("obenabe_undenufe_swapped", _winner_obenabe_undenufe_swapped),
    ("first_trump_wins", _winner_first_trump),
)
"""The mistaken readings of R3.6, by mistake name, in order of preference (the
first reading that makes a card the winner names it)."""
# a card of the trick that no such reading makes the winner (a lower card of the led
# suit, a lower trump, a card of another suit that is not the highest) is
# "card_cannot_win"


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


_WINNER_BUILDERS: list[tuple[Callable[[random.Random], tuple[str, list[Card]]], float]] = [
    (_winner_trump_lead, 1.0),
    (_winner_ruffed, 1.3),
    (_winner_no_trump, 1.2),
]


def _solve_winner(inputs: Inputs) -> Solved[CardValue]:
    result = explain_trick_winner(inputs["trick"], inputs["contract"])
    return Solved({"card": result.card.code}, trace_dicts(result.trace))


_UNDERS_AND_NINES = [x for x in DECK if x.rank.index in (J, NINE)]
_OTHER_CARDS = [x for x in DECK if x.rank.index not in (J, NINE)]


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
WINNER_ATTEMPTS = 2000


def _build_winner(rng: random.Random, rules: RuleSet) -> Draft[CardValue]:
    place = rng.randrange(4)
    specials = weighted(rng, WINNER_SPECIALS)
    special = rng.random() < specials / 4
    found = None
    for _attempt in range(WINNER_ATTEMPTS):
        if rng.random() < 0.5:
            build = weighted(rng, _WINNER_BUILDERS)
            contract, trick = build(rng)
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
    tag_of: dict[Card, str] = {}
    for tag, reading in WINNER_MISTAKES:
        made = reading(trick, c)
        if made is not None:
            tag_of.setdefault(made, tag)
    distractors: list[tuple[CardValue, str]] = [
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

POINTS_MISTAKES = (
    "last_trick_bonus_forgotten",
    "last_trick_bonus_added",
    "factor_forgotten",
    "trump_values_as_plain",
    "plain_values_as_trump",
    "obenabe_undenufe_values_swapped",
    "eights_not_counted",
)


def _as_trump(card: Card) -> int:
    """R4.1 read for ``card`` as if its suit were trump (an Under worth the Puur's
    points, a 9 the Nell's)."""
    return card_points(card, Contract.for_suit(card.suit))


def _as_plain(card: Card, contract: Contract) -> int:
    """R4.1 read for ``card`` as if its suit were not trump (the Puur and the Nell
    worth a plain J's and 9's points)."""
    return card_points_of_rank(card.rank, contract, trump=False)


def _values_swapped(trick: Cards, contract: Contract) -> int:
    """R4.2 and R4.3 swapped: the card points of the trick under the other one of
    Obenabe and Undenufe (the engine's points there)."""
    other = Contract.UNDENUFE if contract is Contract.OBENABE else Contract.OBENABE
    return sum(card_points(x, other) for x in trick)


def _eights_not_counted(trick: Cards, contract: Contract) -> int:
    """R4.2 and R4.3 without the 8's points (an 8 counted as nothing, as in a trump
    contract)."""
    return sum(card_points(x, contract) for x in trick if x.rank is not Rank.EIGHT)


NO_TRUMP_POINTS_MISTAKES: tuple[tuple[str, Callable[[Cards, Contract], int]], ...] = (
    ("obenabe_undenufe_values_swapped", _values_swapped),
    ("eights_not_counted", _eights_not_counted),
)
"""The card points of a trick in Obenabe or Undenufe read with one rule changed."""


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


def trick_points(trick: CardsLike, contract: ContractLike, index: int, rules: RuleSet) -> int:
    """The written points of one trick: card points, +5 on the last (R4.4), times the
    factor (R4.5); the match bonus is not part of a single trick's question."""
    base = sum(card_points(c, contract) for c in parse_cards(trick))
    return written_trick_points(base, index, rules.factor(contract))


def _solve_points(inputs: Inputs, rules: RuleSet) -> Solved[PointsValue]:
    trick, contract, index = inputs["trick"], inputs["contract"], inputs["index"]
    points = trick_points(trick, contract, index, rules)
    entries = [explain_card_points(c, contract).to_dict() for c in trick]
    base = sum(e["values"]["points"] for e in entries)
    bonus, _match = trick_bonus(index, None)
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
    # the 5 of the last trick under no factor, 2 or 3
    if abs(value - answer) in (LAST_TRICK_BONUS, 2 * LAST_TRICK_BONUS, 3 * LAST_TRICK_BONUS):
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
    bonus, _match = trick_bonus(index, None)
    pool: list[tuple[int, str]] = []
    specials = [x for x in trick if x.rank.index in (J, NINE)]
    trumps = [x for x in specials if x.suit is c.trump]
    plains = [x for x in specials if x.suit is not c.trump]
    for cards in _subsets(trumps):
        lost = sum(card_points(x, c) - _as_plain(x, c) for x in cards)
        pool.append((answer - lost * factor, "trump_values_as_plain"))
    for cards in _subsets(plains):
        gained = sum(_as_trump(x) - card_points(x, c) for x in cards)
        pool.append((answer + gained * factor, "plain_values_as_trump"))
    if c.trump is None:
        for mistake, read in NO_TRUMP_POINTS_MISTAKES:
            pool.append(((read(trick, c) + bonus) * factor, mistake))
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
    base = sum(card_points(x, c) for x in rest) + trick_bonus(index, None)[0]

    def points(ts: tuple[int, ...]) -> int:
        under = card_points_of_rank(Rank.UNDER, c, trump=J in ts)
        nine = card_points_of_rank(Rank.NINE, c, trump=NINE in ts)
        return (base + under + nine) * factor

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
# With a factor the written points are what a pupil sees and remembers: a trick whose
# answer falls in a band of ten written points (0-9, 10-19 ...) is kept with these
# odds, by factor, so that each band is right as often as the choices in it are shown
# (the wrong choices lie around the answer, unevenly; tuned with
# tests/quizzes/choice_leakage.py: with every trick kept, under Swisslos's factor 3 the
# answers crowded into 20-59 while the mistakes spread to 0-9 and 80-119, and a pupil
# who remembered which bands were right won +6.8 points; now +3 or less). Without an
# entry every trick is kept.
POINTS_BAND_KEPT: dict[int, tuple[float, ...]] = {
    3: (0.7, 0.6, 0.2, 0.3, 0.3, 0.3, 0.6, 0.8, 1.0, 1.0, 0.9, 1.0, 0.4),
}


PointsDeal = tuple[list[Card], int, list[tuple[int, str]]]
"""A points question's trick, answer and wrong choices (points, mistake)."""


def _no_trump_points(
    rng: random.Random,
    c: Contract,
    index: int,
    factor: int,
    size: int,
    rank: int,
    shown: tuple[bool, bool],
) -> PointsDeal | None:
    """A trick in Obenabe or Undenufe whose mistakes' answers put the answer at
    ``rank`` among ``size`` choices; None when the drawn trick does not fit.
    ``shown``: whether the last trick's 5 and the factor are among the mistakes."""
    show_bonus, show_factor = shown
    bonus, _match = trick_bonus(index, None)
    low = weighted(rng, list(enumerate(POINTS_WANTED)))
    trick = _points_trick(rng, c.code, 5 * low + rng.randrange(5))
    base = sum(card_points(x, c) for x in trick)
    answer = (base + bonus) * factor
    kept = POINTS_BAND_KEPT.get(factor)
    if kept is not None and rng.random() >= kept[min(answer // 10, len(kept) - 1)]:
        return None
    top = MAX_SHOWN_POINTS[c.trump is None] * factor
    if answer > top:
        return None
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
    picked = pick_around(rng, answer, pool, _identity, size, rank, must, avoid_midpoint=True)
    return None if picked is None else (trick, answer, picked)


def _identity(value: int) -> int:
    return value


def _build_points(rng: random.Random, rules: RuleSet) -> Draft[PointsValue]:
    # Drawn first and kept while tricks are drawn until one fits: how many choices,
    # where the answer stands among them sorted, whether it is the last trick,
    # whether the 5 of the last trick or the factor are among the mistakes, and the
    # contract.
    size = weighted(rng, POINTS_SIZES)
    rank = rng.randrange(size)
    index = 8 if rng.random() < LAST_TRICK_SHARE else rng.randrange(8)
    contract = rng.choice(ALL_CONTRACTS)
    c = Contract.parse(contract)
    show_bonus = rng.random() < BONUS_SHOWN[(c.trump is None, index == 8)]
    show_factor = rng.random() < FACTOR_SHOWN
    factor = rules.factor(contract)
    found: PointsDeal | None = None
    for _attempt in range(200):
        if c.trump is not None:
            found = _trump_points(rng, c, index, factor, show_bonus, show_factor)
        else:
            shown = (show_bonus, show_factor)
            found = _no_trump_points(rng, c, index, factor, size, rank, shown)
        if found is not None:
            break
    if found is None:
        raise Retry("no trick with mistakes on both sides")
    trick, answer, picked = found
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
    distractors: list[tuple[PointsValue, str]] = [({"points": v}, tag) for v, tag in picked]
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


TrickValue: TypeAlias = CardsValue | CardValue | PointsValue


def solve_trick(inputs: Inputs, rules: RuleSet) -> Solved[TrickValue]:
    sub = inputs["sub"]
    if sub == "legal":
        return _solve_legal(inputs)
    if sub == "winner":
        return _solve_winner(inputs)
    if sub == "points":
        return _solve_points(inputs, rules)
    if sub == "may_play":
        return _solve_may_play(inputs)
    raise ValueError(f"unknown trick question sub-type {sub!r}")


def build_trick(rng: random.Random, seed: int, rules: RuleSet) -> Draft[TrickValue]:
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
            [tag for tag, _reading in LEGAL_MISTAKES]
            + [tag for tag, _reading in WINNER_MISTAKES]
            + ["card_cannot_win", *POINTS_MISTAKES]
        )
    ),
    SUBS,
)

__all__ = ["LEGAL_MISTAKES", "TRICK", "WINNER_MISTAKES", "mistaken_legal", "trick_points"]
