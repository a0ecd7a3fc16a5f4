"""The first two lessons' questions: ``basics`` (R1.3, R2.1-R2.3). Formats: see
:mod:`teaching.generators`.

Two sub-types, picked by ``seed % 10``:

- ``trump_name`` (seeds 0 and 1 of every ten): which card is the Puur (0) or the Nell
  (1) in a trump contract? The four choices are the Under and the 9 of the trump
  suit and of one other suit, so every suit and rank shown is shown twice.
- ``seat`` (seeds 2-9): a question about the four players, who are counted from the
  Vorhand: whose partner is who (2-5: players 1-4 asked about), who must choose
  after the Vorhand pushes (6), who leads the first trick after a push (7), who is
  Vorhand in the next round (8), who plays last in a trick the Vorhand leads (9).
  The four players are always the choices, and over any ten seeds each of them is
  the answer twice: the choices tell nothing.
"""

from __future__ import annotations

import random
from typing import TypeAlias

from rules_core import DECK, Card, Contract, RuleSet, team_of, trump_name
from rules_core.cards import Rank, Suit

from .base import CardValue, Draft, Inputs, JSONObject, Kind, SeatValue, Solved

TRUMP_NAMES = ("Puur", "Nell")
SEAT_QUESTIONS = ("partner", "chooser", "first_lead", "next_vorhand", "last_to_play")
RULE_OF = {
    "partner": "R2.1",
    "chooser": "R2.3",
    "first_lead": "R2.3",
    "next_vorhand": "R2.2",
    "last_to_play": "R2.1",
}
VORHAND = 0  # players are counted from the Vorhand (R2.1), so the Vorhand is seat 0

BasicsValue: TypeAlias = CardValue | SeatValue


# -- trump names (R1.3) ------------------------------------------------------------------


def _solve_trump_name(inputs: Inputs) -> Solved[CardValue]:
    contract = Contract.parse(inputs["contract"])
    name = inputs["name"]
    card = next(c for c in DECK if trump_name(c, contract) == name)
    entry: JSONObject = {
        "rule": "R1.3",
        "key": "basics.trump_name",
        "values": {"contract": contract.code, "name": name, "card": card.code},
        "decided": True,
    }
    return Solved({"card": card.code}, [entry])


def _build_trump_name(rng: random.Random, name: str, rules: RuleSet) -> Draft[CardValue]:
    trump = rng.choice(list(Suit))
    other = rng.choice([s for s in Suit if s is not trump])
    inputs = {"sub": "trump_name", "contract": trump.code, "name": name}
    solved = _solve_trump_name(inputs)
    asked, twin = (Rank.UNDER, Rank.NINE) if name == "Puur" else (Rank.NINE, Rank.UNDER)
    distractors: list[tuple[CardValue, str]] = [
        ({"card": Card(trump, twin).code}, "puur_nell_swapped"),
        ({"card": Card(other, asked).code}, "trump_suit_ignored"),
        ({"card": Card(other, twin).code}, "puur_nell_swapped_outside_trump"),
    ]
    return Draft(
        inputs=inputs,
        prompt={"sub": "trump_name", "preset": rules.preset_name(), "name": name},
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=["R1.3"],
    )


# -- the four players (R2.1-R2.3) ------------------------------------------------------


def _partner(seat: int) -> int:
    """The other seat of the same team (R2.1)."""
    return next(s for s in range(4) if s != seat and team_of(s) == team_of(seat))


def _solve_seat(inputs: Inputs) -> Solved[SeatValue]:
    question = inputs["question"]
    asked: int | None = inputs.get("asked")
    if question == "partner":
        if asked is None:
            raise ValueError("a partner question names the player asked about")
        seat = _partner(asked)
    elif question == "chooser":
        seat = _partner(VORHAND)  # after a push the partner must choose (R2.3)
    elif question == "first_lead":
        seat = VORHAND  # the Vorhand leads the first trick either way (R2.3)
    elif question == "next_vorhand":
        seat = (VORHAND + 1) % 4  # the Vorhand moves on by one seat each deal (R2.2)
    elif question == "last_to_play":
        seat = (VORHAND + 3) % 4  # seats play in turn from the leader (R2.1)
    else:
        raise ValueError(f"unknown seat question {question!r}")
    entry: JSONObject = {
        "rule": RULE_OF[question],
        "key": f"basics.{question}",
        "values": {"asked": asked, "seat": seat},
        "decided": True,
    }
    return Solved({"seat": seat}, [entry])


# For each seat question, the mistake each wrong player stands for (by seat 0-3).
def _seat_mistakes(question: str, asked: int | None) -> dict[int, str]:
    if question == "partner":
        assert asked is not None
        return {
            asked: "own_seat_named",
            (asked + 1) % 4: "neighbour_taken_for_partner",
            (asked + 3) % 4: "neighbour_taken_for_partner",
        }
    by_question: dict[str, dict[int, str]] = {
        "chooser": {
            0: "vorhand_chooses_after_pushing",
            1: "next_player_chooses",
            3: "last_player_chooses",
        },
        "first_lead": {1: "next_player_leads", 2: "chooser_leads", 3: "last_player_leads"},
        "next_vorhand": {
            0: "vorhand_stays",
            2: "partner_becomes_vorhand",
            3: "vorhand_passes_backwards",
        },
        "last_to_play": {
            0: "leader_plays_last",
            1: "turn_order_confused",
            2: "turn_order_confused",
        },
    }
    return by_question[question]


def _build_seat(rng: random.Random, case: int, rules: RuleSet) -> Draft[SeatValue]:
    # cases 0-3: whose partner (players 1-4 asked about); then one case per question
    question = "partner" if case < 4 else SEAT_QUESTIONS[case - 3]
    asked = case if question == "partner" else None
    inputs = {"sub": "seat", "question": question, "asked": asked}
    solved = _solve_seat(inputs)
    wrong = _seat_mistakes(question, asked)
    others = [s for s in range(4) if s != solved.value["seat"]]
    rng.shuffle(others)
    return Draft(
        inputs=inputs,
        prompt={"sub": "seat", "preset": rules.preset_name(), "question": question, "asked": asked},
        answer=solved.value,
        distractors=[({"seat": s}, wrong[s]) for s in others],
        explanation=solved.explanation,
        rules_tested=[RULE_OF[question]],
    )


def solve_basics(inputs: Inputs, rules: RuleSet) -> Solved[BasicsValue]:
    sub = inputs["sub"]
    if sub == "trump_name":
        return _solve_trump_name(inputs)
    if sub == "seat":
        return _solve_seat(inputs)
    raise ValueError(f"unknown basics question sub-type {sub!r}")


def build_basics(rng: random.Random, seed: int, rules: RuleSet) -> Draft[BasicsValue]:
    case = seed % 10
    if case < 2:
        return _build_trump_name(rng, TRUMP_NAMES[case], rules)
    return _build_seat(rng, case - 2, rules)


BASICS = Kind(
    "basics",
    "Cards and players: the Puur and the Nell (R1.3), partners, pushing, the first lead "
    "and the next Vorhand (R2.1-R2.3).",
    build_basics,
    solve_basics,
    (
        "puur_nell_swapped",
        "trump_suit_ignored",
        "puur_nell_swapped_outside_trump",
        "own_seat_named",
        "neighbour_taken_for_partner",
        "vorhand_chooses_after_pushing",
        "next_player_chooses",
        "last_player_chooses",
        "next_player_leads",
        "chooser_leads",
        "last_player_leads",
        "vorhand_stays",
        "partner_becomes_vorhand",
        "vorhand_passes_backwards",
        "leader_plays_last",
        "turn_order_confused",
    ),
    ("puur", "nell", *(["partner"] * 4), *SEAT_QUESTIONS[1:]),
)

__all__ = ["BASICS", "solve_basics"]
