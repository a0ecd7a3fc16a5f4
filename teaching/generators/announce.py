"""Announcing Weis at the first trick: ``announce`` (R5.4, R5.4a, R5.4b; R5.5, R5.6).
Formats: see :mod:`teaching.generators`.

A question shows the first trick card by card and what the players say, in order:
an announcement made right after a player's card belongs to that card; one made
later is shown after the card it followed (``after``, an index into the four plays;
4: after the trick was gathered). Seats are also the places in the trick, as the
Vorhand (seat 0) leads the first trick (R2.3).

Two sub-types (``inputs["sub"]`` = ``prompt["sub"]``), the case by ``seed % 7``
(:data:`CASES`):

- ``deadline`` (cases ``in_time``, ``next_card_played``, ``trick_gathered``): does one
  player's announcement still count (R5.4)? It counts until the next player has
  played; the last player of the trick may announce until the trick is gathered.
  The three deadlines are always the three choices, each right in one case.
- ``writes`` (cases ``all_announce``, ``silent_partner``, ``smaller_claim``,
  ``late_claim``): which team writes Weis, and how much? The announced value is the
  player's claim (R5.4a), and the team with the best claim writes every meld of its
  partners who announced (R5.6); a silent player writes none of theirs (R5.4b). The
  hands are dealt the same way in every case: player x holds a big meld and a
  three-card sequence, the partner y a small meld; z of the other team a meld worth
  less than x's big one and more than y's, its partner w a small meld. Only the
  announcements differ, so the four choices are always the same four values and each
  is right in a quarter of the questions: x and y announce (x's team writes both
  players' melds), y is silent (x's only), x announces twenty instead of the big meld
  or announces too late (the other team writes z's melds, and w's when w announced).

The comparison of claims is the engine's: rules_core's ``resolve_weis(...,
claims=...)``; :func:`resolve_claims` words its result for the explanation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from rules_core import (
    DECK,
    Card,
    Comparison,
    Contract,
    Meld,
    RulesError,
    RuleSet,
    best_meld,
    find_melds,
    legal_cards,
    parse_cards,
    resolve_weis,
)

from .base import (
    DeadlineValue,
    Draft,
    Inputs,
    JSONObject,
    Kind,
    Retry,
    Solved,
    TeamPointsValue,
    trace_dicts,
)
from .deal import ALL_CONTRACTS, codes, other_team_seat

GATHERED = 4
"""``after`` of an announcement made once the first trick was gathered."""

DEADLINES = ("in_time", "next_card_played", "trick_gathered")
"""Whether an announcement counts (R5.4): in time, or too late for one of two reasons."""

CASES = (
    "in_time",
    "all_announce",
    "next_card_played",
    "silent_partner",
    "trick_gathered",
    "smaller_claim",
    "late_claim",
)
"""What ``seed % 7`` aims at (``Kind.cases``)."""

# Values said at the table (R5.4): what the generated announcements use.
VALUES = (20, 50, 100, 150, 200)
# (the other team's best value, the writing team's big meld): the big one always wins
# on points, so that a smaller claim or a late announcement loses the comparison
BIG_PAIRS = ((50, 100), (50, 150), (100, 150), (100, 200), (50, 200))
SMALL = (20, 50)


AnnounceValue: TypeAlias = DeadlineValue | TeamPointsValue
Announcement = tuple[int, int, int]  # seat, value said, after (an index into the plays)


def deadline_of(seat: int, after: int) -> str:
    """Whether an announcement by ``seat`` made after play ``after`` of the first trick
    counts (R5.4): ``in_time`` until the next player has played; for the last player of
    the trick (seat 3), until the trick is gathered (``after`` = :data:`GATHERED`).

    >>> deadline_of(1, 1), deadline_of(1, 2), deadline_of(3, 3), deadline_of(3, 4)
    ('in_time', 'next_card_played', 'in_time', 'trick_gathered')
    """
    if not 0 <= seat <= 3 or not seat <= after <= GATHERED:
        raise RulesError(
            f"an announcement by seat {seat} comes with or after its own card to the first "
            f"trick (after play {seat} to {GATHERED}), not after play {after}",
            rule="R5.4",
        )
    if after == seat:
        return "in_time"
    return "next_card_played" if seat < 3 else "trick_gathered"


# -- claims (R5.4a, R5.4b, R5.6) -------------------------------------------------------


@dataclass(frozen=True)
class ClaimsResult:
    """Who writes Weis when the announced values are compared (R5.4a).

    ``claims``: per seat the claimed meld (the best meld of the announced value in that
    hand), None for a player whose announcement does not count or who said nothing;
    ``melds``: per seat every meld of the hand, best first; ``team_best``: per team
    ``(seat, meld)`` of its best claim or None; ``comparison``: the ladder between the
    two teams' best claims (side a = team 0), or None; ``team``: the writing team or
    None; ``written``: ``(seat, meld)`` of every meld the writing team writes (the
    melds of its players whose claims count); ``points`` before, ``scored`` after the
    factor.
    """

    contract: Contract
    claims: tuple[Meld | None, ...]
    melds: tuple[tuple[Meld, ...], ...]
    team_best: tuple[tuple[int, Meld] | None, tuple[int, Meld] | None]
    comparison: Comparison | None
    team: int | None
    written: tuple[tuple[int, Meld], ...]
    factor: int

    @property
    def points(self) -> int:
        return sum(meld.points for _seat, meld in self.written)

    @property
    def scored(self) -> int:
        return self.points * self.factor


def resolve_claims(
    hands: Sequence[Sequence[Card]],
    contract: Contract,
    claims: Sequence[int | None],
    rules: RuleSet,
) -> ClaimsResult:
    """Resolve the Weis of four hands from the values the players announced in time
    (``claims``, per seat; None: nothing, or nothing that counts).

    A claim is the best meld of the announced value the player holds (R5.4a); a value
    the hand holds no meld of claims nothing. The team with the best claim (R5.5)
    writes every meld of its players whose claims count (R5.6, R5.4b).

    >>> hands = [parse_cards(h) for h in ("H6 H7 H8 S9 S10 SJ SQ SK", "C6 C7 C8 C9", "", "")]
    >>> r = resolve_claims(hands, Contract.parse("D"), [20, 50, None, None], RuleSet())
    >>> r.team, r.scored, str(r.claims[0])  # the Fünfblatt was not claimed
    (1, 50, 'H6 H7 H8')
    >>> resolve_claims(hands, Contract.parse("D"), [100, 50, None, None], RuleSet()).scored
    120
    """
    # The rule lives once, in the engine (R5.4a, R5.4b, R5.6): this is its view for
    # the question's explanation.
    result = resolve_weis(hands, contract, rules, claims=claims)
    return ClaimsResult(
        contract=contract,
        claims=tuple(result.claimed),
        melds=tuple(tuple(melds) for melds in result.melds),
        team_best=(result.team_best[0], result.team_best[1]),
        comparison=result.comparison,
        team=result.team,
        written=tuple((seat, meld) for seat in range(4) for meld in result.written[seat]),
        factor=result.factor,
    )


def _announcements(inputs: Inputs) -> list[Announcement]:
    out = [(int(seat), int(value), int(after)) for seat, value, after in inputs["announcements"]]
    seats = [seat for seat, _v, _a in out]
    if len(set(seats)) != len(seats):
        raise RulesError("a player announces once, with the first card (R5.4)", rule="R5.4")
    return out


def _meld_dict(meld: Meld | None) -> JSONObject | None:
    return None if meld is None else meld.to_dict()


_Said: TypeAlias = dict[int, tuple[int, int, str]]
"""Per announcing seat: the value said, the play it followed, and its deadline verdict."""


def _said_by_seat(inputs: Inputs) -> _Said:
    """Every announcement with whether it came in time (R5.4): the explanation shows the
    late ones too, so the learner sees why they claim nothing."""
    return {
        seat: (value, after, deadline_of(seat, after))
        for seat, value, after in _announcements(inputs)
    }


def _claims_in_time(said: _Said) -> list[int | None]:
    """The claims the engine compares: only an announcement in time is one (R5.4)."""
    return [
        said[seat][0] if seat in said and said[seat][2] == "in_time" else None for seat in range(4)
    ]


def _seat_entry(seat: int, said: _Said, result: ClaimsResult) -> JSONObject:
    """What one player said, when, and what it claims from the melds in the hand."""
    value, after, deadline = said.get(seat) or (None, None, None)
    return {
        # a silent player with melds is R5.4b's case; everybody else is R5.4's
        "rule": "R5.4b" if value is None and result.melds[seat] else "R5.4",
        "key": "announce.seat",
        "values": {
            "seat": seat,
            "team": seat % 2,
            "said": value,
            "after": after,
            "deadline": deadline,
            "claim": _meld_dict(result.claims[seat]),
            "melds": [m.to_dict() for m in result.melds[seat]],
        },
        "decided": False,
    }


def _team_best_entry(team: int, best: tuple[int, Meld] | None) -> JSONObject:
    """A team's best claim (R5.4a): the one it enters into the comparison."""
    return {
        "rule": "R5.4a",
        "key": "announce.team_best",
        "values": {
            "team": team,
            "seat": None if best is None else best[0],
            "meld": None if best is None else best[1].to_dict(),
        },
        "decided": False,
    }


def _decision_entries(result: ClaimsResult) -> list[JSONObject]:
    """How the writing team was found: the engine's ladder when both teams claimed,
    otherwise the one team that claimed (or nobody) writes without a comparison (R5.6)."""
    if result.comparison is not None:
        return trace_dicts(result.comparison.trace)
    key = "announce.no_claims" if result.team is None else "announce.only_team"
    return [{"rule": "R5.6", "key": key, "values": {"team": result.team}, "decided": True}]


def _silent_writers(result: ClaimsResult, claims: Sequence[int | None]) -> list[int]:
    """The writing team's players who hold melds but claimed nothing: they write none of
    them (R5.4b), which the explanation names because it is the tempting slip."""
    if result.team is None:
        return []
    return [s for s in (result.team, result.team + 2) if claims[s] is None and result.melds[s]]


def _writes_entry(result: ClaimsResult, silent: list[int]) -> JSONObject:
    """The decision: who writes which melds, and the points with the factor (R5.6)."""
    return {
        "rule": "R5.6",
        "key": "announce.writes",
        "values": {
            "team": result.team,
            "points": result.points,
            "factor": result.factor,
            "scored": result.scored,
            "melds": [{"seat": s, **m.to_dict()} for s, m in result.written],
            "silent": silent,
        },
        "decided": True,
    }


def solve_claims(inputs: Inputs, rules: RuleSet) -> tuple[ClaimsResult, list[JSONObject]]:
    """The result of a ``writes`` question and its explanation (see the module): each
    player's announcement, each team's best claim, the comparison, and who writes."""
    hands = [parse_cards(" ".join(h)) for h in inputs["hands"]]
    contract = Contract.parse(inputs["contract"])
    said = _said_by_seat(inputs)
    claims = _claims_in_time(said)
    result = resolve_claims(hands, contract, claims, rules)
    trace = [_seat_entry(seat, said, result) for seat in range(4)]
    trace += [_team_best_entry(team, best) for team, best in enumerate(result.team_best)]
    trace += _decision_entries(result)
    trace.append(_writes_entry(result, _silent_writers(result, claims)))
    return result, trace


def solve_announce(inputs: Inputs, rules: RuleSet) -> Solved[AnnounceValue]:
    sub = inputs["sub"]
    if sub == "deadline":
        seat = int(inputs["asked"])
        after = next(a for s, _v, a in _announcements(inputs) if s == seat)
        deadline = deadline_of(seat, after)
        entry: JSONObject = {
            "rule": "R5.4",
            "key": "announce.deadline",
            "values": {"seat": seat, "after": after, "deadline": deadline},
            "decided": True,
        }
        value: DeadlineValue = {"deadline": deadline}
        return Solved(value, [entry])
    if sub == "writes":
        result, trace = solve_claims(inputs, rules)
        written: TeamPointsValue = {"team": result.team, "points": result.scored}
        return Solved(written, trace)
    raise ValueError(f"unknown announce question sub-type {sub!r}")


# -- building ----------------------------------------------------------------------------


def _first_trick(rng: random.Random, hands: Sequence[Sequence[Card]], contract: str) -> list[Any]:
    """Four legal cards of the first trick, the Vorhand (seat 0) leading (R3.1-R3.5)."""
    trick: list[Card] = []
    plays: list[Any] = []
    for seat in range(4):
        card = rng.choice(legal_cards(hands[seat], trick, contract))
        trick.append(card)
        plays.append([seat, card.code])
    return plays


def _deal(rng: random.Random) -> list[list[Card]]:
    cards = list(DECK)
    rng.shuffle(cards)
    return [sorted(cards[i * 9 : (i + 1) * 9]) for i in range(4)]


def _late_after(rng: random.Random, seat: int) -> int:
    """An ``after`` too late for ``seat``: after the next card (the gathering for seat 3)."""
    return GATHERED if seat == 3 else rng.randrange(seat + 1, 4)


def _ordered(announcements: list[Announcement]) -> list[list[int]]:
    """In the order spoken: by the play they followed; a player's own card first."""
    ordered = sorted(announcements, key=lambda a: (a[2], a[0] != a[2], a[0]))
    return [list(a) for a in ordered]


_DEADLINE_MISTAKES: dict[tuple[str, str], str] = {
    ("in_time", "next_card_played"): "deadline_thought_earlier",
    ("in_time", "trick_gathered"): "deadline_thought_earlier",
    ("next_card_played", "in_time"): "late_announcement_counted",
    ("next_card_played", "trick_gathered"): "gathering_deadline_for_everybody",
    ("trick_gathered", "in_time"): "gathered_trick_counted",
    ("trick_gathered", "next_card_played"): "last_player_deadline_confused",
}


def _build_deadline(rng: random.Random, wanted: str, rules: RuleSet) -> Draft[DeadlineValue]:
    contract = rng.choice(ALL_CONTRACTS)
    plays = _first_trick(rng, _deal(rng), contract)
    if wanted == "in_time":
        seat = rng.randrange(4)
        after = seat
    elif wanted == "next_card_played":
        seat = rng.randrange(3)
        after = rng.randrange(seat + 1, 4)
    else:
        seat, after = 3, GATHERED
    said = [(seat, rng.choice(VALUES), after)]
    for other in range(4):
        if other != seat and rng.random() < 0.5:
            said.append((other, rng.choice(VALUES), other))
    return _deadline_draft(rules, contract, plays, said, seat, wanted)


def deadline_draft(
    rng: random.Random,
    wanted: str,
    plays: Sequence[Sequence[Any]],
    hands: Sequence[Sequence[str]],
    contract: str,
    rules: RuleSet,
) -> Draft[DeadlineValue] | None:
    """The ``deadline`` question of a given first trick (a table position of the
    trainer, issue 25): ``plays`` as ``[seat, card]``, the Vorhand leading. A player
    holding a meld announces its value (their best meld) at the moment ``wanted``
    calls for (with their card; after a later card; the last player after the
    gathering), the others holding one with their card, as the trainer's players do.
    None where no player fits (nobody holds a meld; for ``trick_gathered`` the last
    player holds none). Drawing ``wanted`` evenly keeps the three choices right
    equally often, as the generator does.

    >>> hands = ["H6 H7 H8 S9 C9 D9 H9 SA CK", "D6 D7 D8 D10 S6 S7 C6 C7 C8",
    ...          "DJ DQ DK DA HJ HQ HK HA SJ", "H10 S8 S10 SQ SK C10 CJ CQ CA"]
    >>> plays = [[0, "SA"], [1, "S6"], [2, "SJ"], [3, "S8"]]
    >>> draft = deadline_draft(random.Random(1), "trick_gathered", plays,
    ...                        [h.split() for h in hands], "H", RuleSet())
    >>> draft.answer, draft.prompt["asked"]
    ({'deadline': 'trick_gathered'}, 3)
    """
    melds = [best_meld(hand, contract, rules) for hand in hands]
    seats = [
        seat
        for seat in range(4)
        if melds[seat] is not None
        and (wanted != "trick_gathered" or seat == 3)
        and (wanted != "next_card_played" or seat < 3)
    ]
    if not seats:
        return None
    seat = rng.choice(seats)
    after = seat if wanted == "in_time" else _late_after(rng, seat)
    said = [
        (other, meld.points, after if other == seat else other)
        for other, meld in enumerate(melds)
        if meld is not None
    ]
    return _deadline_draft(rules, contract, plays, said, seat, wanted)


def _deadline_draft(
    rules: RuleSet,
    contract: str,
    plays: Sequence[Sequence[Any]],
    said: list[Announcement],
    seat: int,
    wanted: str,
) -> Draft[DeadlineValue]:
    inputs = {
        "sub": "deadline",
        "contract": contract,
        "plays": plays,
        "announcements": _ordered(said),
        "asked": seat,
    }
    solved = solve_announce(inputs, rules)
    answer: DeadlineValue = {"deadline": wanted}
    assert solved.value == answer
    return Draft(
        inputs=inputs,
        prompt={"sub": "deadline", "preset": rules.preset_name(), "asked": seat},
        answer=answer,
        distractors=[
            ({"deadline": other}, _DEADLINE_MISTAKES[(wanted, other)])
            for other in DEADLINES
            if other != wanted
        ],
        explanation=solved.explanation,
        rules_tested=["R5.4"],
    )


def _planned_hands(rng: random.Random, rules: RuleSet) -> tuple[list[list[Card]], list[int]]:
    """Hands of the ``writes`` plan (see the module) and the seats x, y, z, w."""
    from .weis import _Plan  # the Weis questions' planner: melds placed, nothing else made

    x = rng.randrange(4)
    z = other_team_seat(rng, x)
    seats = [x, (x + 2) % 4, z, (z + 2) % 4]
    small_other, big = rng.choice(BIG_PAIRS)
    plan = _Plan()
    plan.add_value(rng, x, big, rules)
    plan.add_run(rng, x, 3)  # the smaller meld x may announce instead (R5.4a)
    plan.add_value(rng, seats[1], rng.choice([v for v in SMALL if v < small_other]), rules)
    plan.add_value(rng, z, small_other, rules)
    plan.add_value(rng, seats[3], rng.choice(SMALL), rules)
    return plan.deal(rng), seats


_X_WRITES = ("all_announce", "silent_partner")
"""The ``writes`` cases in which x announces the big meld in time, so x's team writes;
in the other two x's claim loses to z's (too small or too late)."""


def _x_announcement(rng: random.Random, wanted: str, x: int, big: int) -> Announcement:
    """What x says, which is what the case turns on: the big meld in time; twenty in
    time, a claim that loses to z's although x holds more (R5.4a); or the big meld
    after the deadline (R5.4)."""
    if wanted in _X_WRITES:
        return (x, big, x)
    if wanted == "smaller_claim":
        return (x, 20, x)
    return (x, big, _late_after(rng, x))


@dataclass(frozen=True)
class _Spoken:
    """The announcements of a ``writes`` question and the two that vary within a case:
    whether x's partner y and z's partner w announced (each decides whether their team,
    if it writes, writes the partner's meld too, R5.4b)."""

    said: list[Announcement]
    y_announces: bool
    w_announces: bool


def _writes_announcements(
    rng: random.Random, wanted: str, seats: Sequence[int], best: dict[int, int]
) -> _Spoken:
    """z always announces its best meld in time; x as the case says; y announces in
    ``all_announce``, never in ``silent_partner`` and by chance otherwise (it writes
    nothing then anyway); w by chance. Everyone says their best value."""
    x, y, z, w = seats
    said: list[Announcement] = [(z, best[z], z), _x_announcement(rng, wanted, x, best[x])]
    y_announces = wanted == "all_announce" or (wanted != "silent_partner" and rng.random() < 0.5)
    if y_announces:
        said.append((y, best[y], y))
    w_announces = rng.random() < 0.5
    if w_announces:
        said.append((w, best[w], w))
    return _Spoken(said, y_announces, w_announces)


def _writes_values(
    melds: Sequence[Sequence[Meld]], seats: Sequence[int], factor: int
) -> dict[str, TeamPointsValue]:
    """The four choices every ``writes`` question offers, by who is written: x alone or
    with y for x's team, z alone or with w for the other team (melds times the factor)."""
    x, y, z, w = seats

    def written(*who: int) -> int:
        return sum(m.points for s in who for m in melds[s]) * factor

    return {
        "x": {"team": x % 2, "points": written(x)},
        "xy": {"team": x % 2, "points": written(x, y)},
        "z": {"team": z % 2, "points": written(z)},
        "zw": {"team": z % 2, "points": written(z, w)},
    }


def _right_and_mistakes(wanted: str, spoken: _Spoken) -> tuple[str, dict[str, str]]:
    """Which of the four choices is right, and the mistake behind each: when x's team
    writes, the other team's values mean z's claim was thought to win; when it does
    not, x's values mean the small or late claim was counted as x's big meld."""
    if wanted in _X_WRITES:
        tags = {
            "x": "announcing_partner_left_out",
            "xy": "silent_partner_counted",
            "z": "other_team_claim_wins",
            "zw": "other_team_claim_wins",
        }
        return ("xy" if spoken.y_announces else "x"), tags
    slip = "held_meld_compared" if wanted == "smaller_claim" else "late_announcement_counted"
    tags = {
        "x": slip,
        "xy": slip,
        "z": "announcing_partner_left_out",
        "zw": "silent_partner_counted",
    }
    return ("zw" if spoken.w_announces else "z"), tags


def _writes_rules_tested(wanted: str, silent: bool, factor: int) -> list[str]:
    """R5.4a only where a smaller value was said, R5.4b only where the writing team has a
    silent player with melds, R4.5 only where a factor multiplies the Weis."""
    rules_tested = ["R5.4"]
    if wanted == "smaller_claim":
        rules_tested.append("R5.4a")
    if silent:
        rules_tested.append("R5.4b")
    rules_tested += ["R5.5", "R5.6"]
    if factor > 1:
        rules_tested.append("R4.5")
    return rules_tested


def _build_writes(rng: random.Random, wanted: str, rules: RuleSet) -> Draft[TeamPointsValue]:
    contract = rng.choice(ALL_CONTRACTS)
    hands, seats = _planned_hands(rng, rules)
    melds = [find_melds(h, rules) for h in hands]
    best = {s: max(m.points for m in melds[s]) for s in range(4)}
    spoken = _writes_announcements(rng, wanted, seats, best)
    inputs = {
        "sub": "writes",
        "hands": [codes(h) for h in hands],
        "contract": contract,
        "plays": _first_trick(rng, hands, contract),
        "announcements": _ordered(spoken.said),
    }
    result, trace = solve_claims(inputs, rules)
    values = _writes_values(melds, seats, result.factor)
    right, tags = _right_and_mistakes(wanted, spoken)
    answer: TeamPointsValue = {"team": result.team, "points": result.scored}
    if values[right] != answer:
        raise Retry("the plan did not come out as meant")
    distractors: list[tuple[TeamPointsValue, str]] = [
        (value, tags[name]) for name, value in values.items() if name != right
    ]
    rng.shuffle(distractors)
    # the last entry is the decision; its silent players write nothing (R5.4b)
    silent = bool(trace[-1]["values"]["silent"])
    return Draft(
        inputs=inputs,
        prompt={
            "sub": "writes",
            "preset": rules.preset_name(),
            "factor": result.factor,
            "melds": [[codes(m.cards) for m in seat_melds] for seat_melds in melds],
        },
        answer=answer,
        distractors=distractors,
        explanation=trace,
        rules_tested=_writes_rules_tested(wanted, silent, result.factor),
    )


def build_announce(rng: random.Random, seed: int, rules: RuleSet) -> Draft[AnnounceValue]:
    wanted = CASES[seed % len(CASES)]
    if wanted in DEADLINES:
        return _build_deadline(rng, wanted, rules)
    return _build_writes(rng, wanted, rules)


ANNOUNCE = Kind(
    "announce",
    "Announcing Weis at the first trick: does an announcement still count (R5.4), and who "
    "writes when the announced values are compared (R5.4a, R5.4b, R5.6).",
    build_announce,
    solve_announce,
    (
        "deadline_thought_earlier",
        "late_announcement_counted",
        "gathering_deadline_for_everybody",
        "gathered_trick_counted",
        "last_player_deadline_confused",
        "announcing_partner_left_out",
        "silent_partner_counted",
        "other_team_claim_wins",
        "held_meld_compared",
    ),
    CASES,
)

__all__ = [
    "ANNOUNCE",
    "CASES",
    "DEADLINES",
    "GATHERED",
    "ClaimsResult",
    "deadline_of",
    "resolve_claims",
    "solve_announce",
    "solve_claims",
]
