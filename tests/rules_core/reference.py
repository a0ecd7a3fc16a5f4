"""An independent second implementation of the rules, for the tests and the benchmark.

The naive reference: plain objects and loops over :class:`Card`, no tables, no
bitmasks, its own copies of the values of RULES.md (R3.1 to R3.6, R4.1 to R4.4,
R5.1 to R5.6, R6.1 to R6.5) written from the rule text. The tests compare the
engine with it on thousands of random deals; ``python -m bench.engine`` times
both. It lives under ``tests/`` on purpose: it is not shipped with ``rules_core``
and nothing in the site imports it.

Also here: the random workloads both use (deals, legal rounds with Stöck calls)
and the engine's answers in the reference's shape.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cmp_to_key

from rules_core import (
    Card,
    Contract,
    Rank,
    RuleSet,
    StoeckCall,
    resolve_weis,
    score_round,
)
from rules_core.deals import Hand, Play, deal_cards, play_round

__all__ = [
    "CONTRACTS",
    "RULE_SETS",
    "fast_round_answer",
    "fast_weis_answer",
    "make_deals",
    "make_rounds",
    "naive_legal",
    "naive_points",
    "naive_resolve_weis",
    "naive_score_round",
    "naive_stoeck",
    "naive_winner",
    "random_calls",
]

NATURAL = [Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.UNDER, Rank.OBER,
           Rank.KING, Rank.ACE]  # fmt: skip
TRUMP_ORDER = [Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.TEN, Rank.OBER, Rank.KING, Rank.ACE,
               Rank.NINE, Rank.UNDER]  # fmt: skip
SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100, 6: 150, 7: 200, 8: 250, 9: 300}

# ---------------------------------------------------------------------------
# naive reference implementation


class NaiveMeld:
    def __init__(self, kind: str, cards: list[Card], points: int) -> None:
        self.kind = kind
        self.cards = cards
        self.points = points

    def positions(self) -> list[int]:
        return [NATURAL.index(c.rank) for c in self.cards]


def naive_melds(hand: Sequence[Card], rules: RuleSet) -> list[NaiveMeld]:
    melds = []
    for suit in "DHSC":
        ranks = sorted(NATURAL.index(c.rank) for c in hand if c.suit.code == suit)
        run: list[int] = []
        for r in ranks + [99]:
            if run and r == run[-1] + 1:
                run.append(r)
                continue
            if len(run) >= 3:
                cards = [c for c in hand if c.suit.code == suit and NATURAL.index(c.rank) in run]
                melds.append(NaiveMeld("sequence", cards, SEQUENCE_POINTS[len(run)]))
            run = [r]
    for rank in NATURAL:
        cards = [c for c in hand if c.rank == rank]
        if len(cards) == 4:
            if rank == Rank.UNDER:
                melds.append(NaiveMeld("four", cards, 200))
            elif rank == Rank.NINE:
                melds.append(NaiveMeld("four", cards, 150))
            elif rank in (Rank.SIX, Rank.SEVEN, Rank.EIGHT):
                if rules.low_quads_score:
                    melds.append(NaiveMeld("four", cards, 100))
            else:
                melds.append(NaiveMeld("four", cards, 100))
    return melds


def naive_compare(
    a: NaiveMeld,
    a_seat: int | None,
    b: NaiveMeld,
    b_seat: int | None,
    contract: Contract,
    rules: RuleSet,
) -> tuple[int | None, str | None]:
    """(winner 0/1 or None on a full tie, step name)."""
    if a.points != b.points:
        return (0 if a.points > b.points else 1), "points"
    if len(a.cards) != len(b.cards):
        return (0 if len(a.cards) > len(b.cards) else 1), "cards"
    if contract == Contract.UNDENUFE and rules.undenufe_reverses_weis:
        low_a, low_b = min(a.positions()), min(b.positions())
        if low_a != low_b:
            return (0 if low_a < low_b else 1), "high_card"
    else:
        top_a, top_b = max(a.positions()), max(b.positions())
        if top_a != top_b:
            return (0 if top_a > top_b else 1), "high_card"
    trump = contract.trump
    a_trump = a.kind == "sequence" and trump is not None and a.cards[0].suit == trump
    b_trump = b.kind == "sequence" and trump is not None and b.cards[0].suit == trump
    if a_trump != b_trump:
        return (0 if a_trump else 1), "trump"
    if a_seat is None or b_seat is None:
        return None, None
    return (0 if a_seat < b_seat else 1), "seat"


def naive_best(hand: Sequence[Card], contract: Contract, rules: RuleSet) -> NaiveMeld | None:
    melds = naive_melds(hand, rules)
    if not melds:
        return None

    def order(x: NaiveMeld, y: NaiveMeld) -> int:
        winner, _ = naive_compare(x, None, y, None, contract, rules)
        return 0 if winner is None else (-1 if winner == 0 else 1)

    return sorted(melds, key=cmp_to_key(order))[0]


def naive_claim(
    hand: Sequence[Card], claim: int | None, contract: Contract, rules: RuleSet
) -> NaiveMeld | None:
    """R5.4a: the best meld of the announced value the player holds; None for
    silence or a value no meld of the hand has (a false Weis, R5.7)."""
    if claim is None:
        return None
    melds = [m for m in naive_melds(hand, rules) if m.points == claim]
    if not melds:
        return None

    def order(x: NaiveMeld, y: NaiveMeld) -> int:
        winner, _ = naive_compare(x, None, y, None, contract, rules)
        return 0 if winner is None else (-1 if winner == 0 else 1)

    return sorted(melds, key=cmp_to_key(order))[0]


def naive_resolve_weis(
    hands: Sequence[Sequence[Card]],
    contract: Contract,
    rules: RuleSet,
    claims: Sequence[int | None] | None = None,
) -> tuple[int | None, int, int, int | None, str | None]:
    """(team, points, scored, best seat, deciding step). Without ``claims`` every
    player announces their best meld (R5.4); with them the claims are compared
    (R5.4a) and the winning team writes the melds of its players whose claim counts
    (R5.4b, R5.6)."""
    team_best: list[tuple[int, NaiveMeld] | None] = [None, None]
    counts = [False] * 4
    for seat in range(4):
        if claims is None:
            best = naive_best(hands[seat], contract, rules)
        else:
            best = naive_claim(hands[seat], claims[seat], contract, rules)
        if best is None:
            continue
        counts[seat] = True
        current = team_best[seat % 2]
        if (
            current is None
            or naive_compare(best, seat, current[1], current[0], contract, rules)[0] == 0
        ):
            team_best[seat % 2] = (seat, best)
    factor = rules.factor(contract)
    t0, t1 = team_best
    if t0 is None and t1 is None:
        return None, 0, 0, None, None
    if t0 is not None and t1 is not None:
        winner, step = naive_compare(t0[1], t0[0], t1[1], t1[0], contract, rules)
        assert winner is not None
        team, seat = winner, (t0, t1)[winner][0]
    else:
        team = 0 if t0 is not None else 1
        only = t0 if t0 is not None else t1
        assert only is not None
        seat, step = only[0], None
    points = sum(
        m.points for s in (team, team + 2) if counts[s] for m in naive_melds(hands[s], rules)
    )
    return team, points, points * factor, seat, step


def naive_points(card: Card, contract: Contract) -> int:
    rank = card.rank
    if contract == Contract.OBENABE:
        table = {
            Rank.ACE: 11,
            Rank.TEN: 10,
            Rank.EIGHT: 8,
            Rank.KING: 4,
            Rank.OBER: 3,
            Rank.UNDER: 2,
        }
    elif contract == Contract.UNDENUFE:
        table = {
            Rank.SIX: 11,
            Rank.TEN: 10,
            Rank.EIGHT: 8,
            Rank.KING: 4,
            Rank.OBER: 3,
            Rank.UNDER: 2,
        }
    elif card.suit == contract.trump:
        table = {Rank.UNDER: 20, Rank.NINE: 14, Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4,
                 Rank.OBER: 3}  # fmt: skip
    else:
        table = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.OBER: 3, Rank.UNDER: 2}
    return table.get(rank, 0)


def _beats(card: Card, best: Card, led: object, contract: Contract) -> bool:
    trump = contract.trump
    if card.suit == trump and best.suit != trump:
        return True
    if card.suit == trump and best.suit == trump:
        return TRUMP_ORDER.index(card.rank) > TRUMP_ORDER.index(best.rank)
    if card.suit != led or best.suit == trump:
        return False
    if contract == Contract.UNDENUFE:
        return NATURAL.index(card.rank) < NATURAL.index(best.rank)
    return NATURAL.index(card.rank) > NATURAL.index(best.rank)


def naive_winner(trick: Sequence[Card], contract: Contract) -> int:
    best = 0
    for i in range(1, len(trick)):
        if _beats(trick[i], trick[best], trick[0].suit, contract):
            best = i
    return best


def naive_legal(hand: Sequence[Card], trick: Sequence[Card], contract: Contract) -> list[Card]:
    if not trick:
        return list(hand)
    led = trick[0].suit
    trump = contract.trump
    same = [c for c in hand if c.suit == led]
    trumps = [c for c in hand if c.suit == trump]
    if trump is None:
        return same if same else list(hand)
    if led == trump:
        if trumps and not (len(trumps) == 1 and trumps[0].rank == Rank.UNDER):
            return trumps
        return list(hand)
    allowed = same + trumps if same else list(hand)
    trumps_in_trick = [c for c in trick if c.suit == trump]
    if trumps_in_trick and len(trumps) < len(hand):
        highest = trumps_in_trick[0]
        for c in trumps_in_trick:
            if TRUMP_ORDER.index(c.rank) > TRUMP_ORDER.index(highest.rank):
                highest = c
        allowed = [
            c for c in allowed
            if c.suit != trump or TRUMP_ORDER.index(c.rank) > TRUMP_ORDER.index(highest.rank)
        ]  # fmt: skip
    return [c for c in hand if c in allowed]


def naive_stoeck(
    hands: Sequence[Sequence[Card]],
    contract: Contract,
    plays: Sequence[tuple[int, Card]],
    calls: Sequence[StoeckCall],
    rules: RuleSet,
) -> tuple[str, str, int | None, int]:
    """(status, reason, team, points)."""
    trump = contract.trump
    if trump is None:
        return "none", "no_trump_contract", None, 0
    holder = None
    for seat in range(4):
        ranks = [c.rank for c in hands[seat] if c.suit == trump]
        if Rank.KING in ranks and Rank.OBER in ranks:
            holder = seat
    if holder is None:
        return "none", "not_held_by_one_player", None, 0
    team = holder % 2
    idx = [
        i for i, (s, c) in enumerate(plays) if c.suit == trump and c.rank in (Rank.KING, Rank.OBER)
    ]
    if len(idx) < 2:
        return "pending", "second_card_not_played", team, 0
    first, second = idx
    mine = [c for c in calls if c.seat == holder]
    if any(c.after_play == second and not c.prompted for c in mine):
        return "scored", "valid", team, 20 * rules.factor(contract)
    if any(c.after_play == second for c in mine):
        return "lost", "prompted", team, 0
    if second == len(plays) - 1 and len(plays) < 36:
        return "pending", "still_possible", team, 0
    if any(c.after_play > second for c in mine):
        return "lost", "too_late", team, 0
    if any(c.after_play == first for c in mine):
        return "lost", "declared_at_first_card", team, 0
    return "lost", "not_declared", team, 0


def naive_score_round(
    hands: Sequence[Sequence[Card]],
    contract: Contract,
    plays: Sequence[tuple[int, Card]],
    calls: Sequence[StoeckCall],
    rules: RuleSet,
) -> tuple[tuple[int, int, int], tuple[int, int, int], int | None, str]:
    """((weis, stoeck, tricks) per team, match team, Stöck reason); ValueError if illegal."""
    remaining = [list(h) for h in hands]
    leader = 0
    points = [0, 0]
    tricks_won = [0, 0]
    for t in range(9):
        trick: list[Card] = []
        for k in range(4):
            seat, card = plays[4 * t + k]
            if seat != (leader + k) % 4:
                raise ValueError("wrong seat")
            if card not in naive_legal(remaining[seat], trick, contract):
                raise ValueError("illegal card")
            remaining[seat].remove(card)
            trick.append(card)
        winner = (leader + naive_winner(trick, contract)) % 4
        points[winner % 2] += sum(naive_points(c, contract) for c in trick)
        tricks_won[winner % 2] += 1
        if t == 8:
            points[winner % 2] += 5
        leader = winner
    match = None
    for team in (0, 1):
        if tricks_won[team] == 9:
            match = team
            points[team] += 100
    factor = rules.factor(contract)
    weis_team, _, weis_scored, _, _ = naive_resolve_weis(hands, contract, rules)
    status, reason, stoeck_team, stoeck_points = naive_stoeck(hands, contract, plays, calls, rules)
    b0, b1 = (
        (
            weis_scored if weis_team == team else 0,
            stoeck_points if stoeck_team == team else 0,
            points[team] * factor,
        )
        for team in (0, 1)
    )
    blocks = (b0, b1)
    return blocks[0], blocks[1], match, reason


# ---------------------------------------------------------------------------
# random deals and rounds

RULE_SETS = tuple(RuleSet.preset(name) for name in RuleSet.presets())
CONTRACTS = tuple(Contract)


def random_calls(
    rng: random.Random,
    hands: Sequence[Sequence[Card]],
    contract: Contract,
    plays: Sequence[tuple[int, Card]],
) -> list[StoeckCall]:
    """Stöck calls of every kind: right, prompted, at the first card, late, by another seat."""
    trump = contract.trump
    if trump is None or not plays:
        return []
    idx = [
        i for i, (_, c) in enumerate(plays) if c.suit == trump and c.rank in (Rank.KING, Rank.OBER)
    ]
    holder = plays[idx[0]][0] if idx else rng.randrange(4)
    calls = []
    for _ in range(rng.choice((0, 1, 1, 1, 2))):
        kind = rng.choice(("right", "right", "prompted", "first", "late", "other", "random"))
        seat = holder if kind != "other" else (holder + rng.randrange(1, 4)) % 4
        if kind in ("right", "prompted", "other") and len(idx) == 2:
            after = idx[1]
        elif kind == "first" and idx:
            after = idx[0]
        elif kind == "late" and len(idx) == 2 and idx[1] + 1 < len(plays):
            after = rng.randrange(idx[1] + 1, len(plays))
        else:
            after = rng.randrange(len(plays))
        calls.append(StoeckCall(seat, after, prompted=kind == "prompted"))
    return calls


Deal = tuple[tuple[Hand, Hand, Hand, Hand], Contract, RuleSet]
Round = tuple[tuple[Hand, Hand, Hand, Hand], Contract, list[Play], list[StoeckCall], RuleSet]
WeisAnswer = tuple[int | None, int, int, int | None, str | None]
RoundAnswer = tuple[tuple[int, int, int], tuple[int, int, int], int | None, str]


def make_deals(n: int, seed: int) -> list[Deal]:
    """``n`` random deals, contracts and rule sets cycling through all of them."""
    rng = random.Random(seed)
    return [
        (deal_cards(rng), CONTRACTS[i % 6], RULE_SETS[(i // 6) % len(RULE_SETS)]) for i in range(n)
    ]


def make_rounds(n: int, seed: int) -> list[Round]:
    """``n`` complete random legal rounds with random Stöck calls (every contract, rule set)."""
    rng = random.Random(seed + 1)
    out: list[Round] = []
    for i in range(n):
        hands = deal_cards(rng)
        contract = CONTRACTS[i % 6]
        plays = play_round(hands, contract, rng=rng)
        calls = random_calls(rng, hands, contract, plays)
        out.append((hands, contract, plays, calls, RULE_SETS[(i // 6) % len(RULE_SETS)]))
    return out


def fast_weis_answer(deal: Deal) -> WeisAnswer:
    """The engine's answer in the reference's shape."""
    r = resolve_weis(*deal)
    return (r.team, r.points, r.scored, r.best_seat, None if r.step is None else r.step.value)


def fast_round_answer(rnd: Round) -> RoundAnswer:
    """The engine's answer in the reference's shape."""
    s = score_round(*rnd)
    b0, b1 = s.blocks
    return (
        (b0["weis"], b0["stoeck"], b0["tricks"]),
        (b1["weis"], b1["stoeck"], b1["tricks"]),
        s.match,
        s.stoeck.reason.value,
    )
