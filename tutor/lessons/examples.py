"""Live examples in lessons: a fenced ``jass KIND`` block, evaluated by the rules core
every time the page renders, so a lesson can never contradict the engine.

Every number a lesson author types counts as people count: players 1-4 from the
Vorhand, teams as "team1 team2" pairs (Team 1 = players 1 and 3). The rules core
counts from 0; the translation happens here, once.

Kinds and keys (card lists are codes separated by spaces; ``contract`` is D H S C,
obenabe or undenufe; ``rules`` a preset name, default ``default``; ``caption`` free):

- ``cards``: ``cards``
- ``melds``: ``hand``, ``contract``
- ``compare``: ``a``, ``a_player``, ``b``, ``b_player``, ``contract``
- ``weis``: ``player1`` .. ``player4``, ``contract``
- ``points``: ``contract``
- ``legal``: ``hand``, ``trick``, ``contract``
- ``trick``: ``cards``, ``contract``
- ``stoeck``: ``contract``, ``holder`` (1-4), ``first``, ``second`` (trick numbers
  1-9), ``call``; optional ``order`` (``K-first`` or ``Q-first``) and
  ``second_position`` (1-4, the second card's place in its trick)
- ``target``: ``before``, ``weis``, ``stoeck``, ``tricks`` (each "team1 team2"),
  ``target``; or ``decides`` (weis, stoeck, tricks, nobody) and ``seed`` for a
  generated round whose scores before it make that block decide
- ``round``: ``contract``, ``player1`` .. ``player4`` (nine cards each), ``plays``
  (the 36 cards in play order, ``|`` between tricks allowed), optional ``calls``
  (``HQ`` or ``HQ prompted``, comma-separated: a Stöck call right after that card),
  optional ``before`` ("team1 team2") and ``target``

Any block may carry ``expect:`` lines, which :func:`check_expectations` verifies
against the evaluated example (see ``EXPECTATIONS`` for the forms per kind), so a
sentence that states an example's outcome is backed by the engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from typing import Any

from rules_core import (
    DECK,
    Card,
    Contract,
    Meld,
    RulesError,
    RuleSet,
    StoeckCall,
    card_points,
    compare_melds,
    explain_best_meld,
    legal_cards,
    parse_cards,
    resolve_target,
    resolve_target_blocks,
    resolve_weis,
    score_round,
    trick_winner,
)
from rules_core.cards import Rank, Suit
from rules_core.scoring import CARD_POINTS_TOTAL, LAST_TRICK_BONUS, MATCH_BONUS
from rules_core.tables import STOECK_POINTS

from .content import ExampleSpec, Expectation, LessonFile, example_spans, find_examples

# Tests swap this to show that lessons follow the rule set (a live example is never
# typed in by hand).
DEFAULT_PRESET = "default"


class ExampleError(RulesError):
    """A live example cannot be evaluated; the message says which key is wrong."""


class ExpectationError(ExampleError):
    """An ``expect:`` line does not hold, or prose next to an example is not backed."""


@dataclass(frozen=True)
class Evaluated:
    kind: str
    data: dict[str, Any]
    caption: str


def _rules(params: dict[str, str]) -> RuleSet:
    return RuleSet.preset(params.get("rules") or DEFAULT_PRESET)


def _contract(params: dict[str, str], default: str | None = None) -> Contract:
    text = params.get("contract") or default
    if not text:
        raise ExampleError("needs 'contract'")
    return Contract.parse(text)


def _cards(params: dict[str, str], key: str, *, required: bool = True) -> tuple[Card, ...]:
    text = params.get(key, "").replace("|", " ")
    if not text.strip():
        if required:
            raise ExampleError(f"needs {key!r}")
        return ()
    return parse_cards(text)


def _int(params: dict[str, str], key: str) -> int:
    try:
        return int(params[key])
    except KeyError:
        raise ExampleError(f"needs {key!r}") from None
    except ValueError:
        raise ExampleError(f"{key!r} must be a whole number, not {params[key]!r}") from None


def _player(params: dict[str, str], key: str) -> int:
    """A player number 1-4 as a lesson writes it, as the core's seat 0-3."""
    number = _int(params, key)
    if not 1 <= number <= 4:
        raise ExampleError(f"{key!r} is a player 1-4, not {number}")
    return number - 1


def _pair(params: dict[str, str], key: str) -> tuple[int, int]:
    parts = params.get(key, "0 0").split()
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        raise ExampleError(f"{key!r} must be two whole numbers 'team1 team2'")
    return int(parts[0]), int(parts[1])


def _rules_label(rules: RuleSet) -> str:
    from tutor.core.explain import preset_label

    return str(preset_label(rules.preset_name()))


def _cards_example(params: dict[str, str]) -> dict[str, Any]:
    return {"cards": _cards(params, "cards")}


def _melds_example(params: dict[str, str]) -> dict[str, Any]:
    hand = _cards(params, "hand")
    contract = _contract(params)
    rules = _rules(params)
    choice = explain_best_meld(hand, contract, rules)
    return {
        "hand": hand,
        "contract": contract,
        "rules": rules,
        "choice": choice,
        "factor": rules.factor(contract),
        "marked": choice.best.cards if choice.best else (),
    }


def _compare_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    rules = _rules(params)
    a = Meld.of(_cards(params, "a"))
    b = Meld.of(_cards(params, "b"))
    comparison = compare_melds(
        a, _player(params, "a_player"), b, _player(params, "b_player"), contract, rules
    )
    return {"comparison": comparison, "contract": contract, "rules": rules}


def _hands(params: dict[str, str], *, required: bool) -> tuple[tuple[Card, ...], ...]:
    return tuple(_cards(params, f"player{n}", required=required) for n in range(1, 5))


def _weis_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    rules = _rules(params)
    hands = _hands(params, required=False)
    result = resolve_weis(hands, contract, rules)
    return {"hands": hands, "result": result, "contract": contract, "rules": rules}


def _points_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    rules = _rules(params)
    trump = contract.trump
    other = next(s for s in Suit if s is not trump)
    rows = []
    for suit, label in ((trump, "trump"), (other, "other")) if trump else ((other, "all"),):
        rows.append(
            {
                "which": label,
                "cards": [
                    (Card(suit, rank), card_points(Card(suit, rank), contract)) for rank in Rank
                ],
            }
        )
    return {"contract": contract, "rows": rows, "rules": rules, "factor": rules.factor(contract)}


def _legal_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    hand = _cards(params, "hand")
    trick = _cards(params, "trick", required=False)
    legal = set(legal_cards(hand, trick, contract))
    return {
        "hand": hand,
        "trick": trick,
        "contract": contract,
        "legal": [c for c in hand if c in legal],
        "illegal": [c for c in hand if c not in legal],
    }


def _trick_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    cards = _cards(params, "cards")
    if not 1 <= len(cards) <= 4:
        raise ExampleError("a trick has one to four cards")
    winner = trick_winner(cards, contract)
    return {
        "cards": cards,
        "contract": contract,
        "winner": winner,
        "winning_card": cards[winner],
        "winning_card_list": (cards[winner],),
        "points": sum(card_points(c, contract) for c in cards),
    }


_ORDERS = {"K-first": "K", "Q-first": "Q"}


def _stoeck_example(params: dict[str, str]) -> dict[str, Any]:
    from teaching.scenarios import stoeck_scenario

    contract = _contract(params)
    order = params.get("order")
    if order is not None and order not in _ORDERS:
        raise ExampleError(f"'order' is K-first or Q-first, not {order!r}")
    position = _int(params, "second_position") if "second_position" in params else None
    if position is not None and not 1 <= position <= 4:
        raise ExampleError(f"'second_position' is a place 1-4 in the trick, not {position}")
    scenario = stoeck_scenario(
        contract.code,
        _player(params, "holder"),
        _int(params, "first"),
        _int(params, "second"),
        params.get("call", "second"),
        rules=_rules(params),
        first_rank=_ORDERS[order] if order else None,
        second_position=position - 1 if position else None,
    )
    return {"scenario": scenario, "contract": contract, "rules": _rules(params)}


def _order_text(rules: RuleSet) -> str:
    from tutor.core.explain import block_label

    return ", ".join(str(block_label(b)) for b in rules.target_order)


def _target_example(params: dict[str, str]) -> dict[str, Any]:
    """Either written blocks (``before``, ``weis``, ``stoeck``, ``tricks``, optional
    ``target``) or a generated round (``decides``, optional ``seed``)."""
    from teaching.scenarios import target_scenario

    rules = _rules(params)
    if "decides" in params:
        seed = _int(params, "seed") if "seed" in params else 0
        scenario = target_scenario(params["decides"], seed, rules)
        return {
            "result": scenario.result,
            "before": scenario.before,
            # The written blocks and tricks are the score's: a PlayedRound has only the
            # deal and the plays (mypy found the AttributeError; no lesson used this yet).
            "blocks": scenario.score.blocks,
            "tricks": [(t.team, t.points) for t in scenario.score.tricks],
            "contract": scenario.round.contract,
            "rules": rules,
            "order_text": _order_text(rules),
        }
    blocks = [
        {name: _pair(params, name)[team] for name in ("weis", "stoeck", "tricks")}
        for team in (0, 1)
    ]
    target = _int(params, "target") if "target" in params else rules.target
    before = _pair(params, "before")
    result = resolve_target_blocks(before, blocks, target, rules)
    return {
        "result": result,
        "before": before,
        "blocks": blocks,
        "tricks": None,
        "contract": None,
        "rules": rules,
        "order_text": _order_text(rules),
    }


def _plays_by_seat(
    hands: tuple[tuple[Card, ...], ...], cards: tuple[Card, ...]
) -> list[tuple[int, Card]]:
    owner = {card: seat for seat, hand in enumerate(hands) for card in hand}
    missing = [str(c) for c in cards if c not in owner]
    if missing:
        raise ExampleError(f"'plays' has cards no player holds: {' '.join(missing)}")
    return [(owner[card], card) for card in cards]


def _calls(params: dict[str, str], plays: list[tuple[int, Card]]) -> tuple[StoeckCall, ...]:
    index = {card: i for i, (_seat, card) in enumerate(plays)}
    calls = []
    for part in filter(None, (p.strip() for p in params.get("calls", "").split(","))):
        words = part.split()
        card = Card.parse(words[0])
        if card not in index or words[1:] not in ([], ["prompted"]):
            raise ExampleError(f"'calls': {part!r} is a played card, optionally 'prompted'")
        seat = plays[index[card]][0]
        calls.append(StoeckCall(seat, index[card], prompted=len(words) == 2))
    return tuple(calls)


def _round_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    rules = _rules(params)
    hands = _hands(params, required=True)
    plays = _plays_by_seat(hands, _cards(params, "plays"))
    score = score_round(hands, contract, plays, _calls(params, plays), rules)
    data: dict[str, Any] = {
        "hands": hands,
        "contract": contract,
        "rules": rules,
        "rules_label": _rules_label(rules),
        "score": score,
        "factor": rules.factor(contract),
        "result": None,
        "order_text": _order_text(rules),
        "hand_rows": list(zip(hands, score.weis.melds, strict=True)),
        "weis_written": score.blocks[score.weis.team]["weis"] if score.weis.team is not None else 0,
        "trick_rows": [(t, list(zip(t.seats, t.cards, strict=True))) for t in score.tricks],
    }
    if "before" in params:
        before = _pair(params, "before")
        target = _int(params, "target") if "target" in params else rules.target
        data.update(
            before=before,
            blocks=score.blocks,
            tricks=[(t.team, t.points) for t in score.tricks],
            result=resolve_target(before, score, target, rules),
        )
    return data


EVALUATORS: dict[str, Callable[[dict[str, str]], dict[str, Any]]] = {
    "cards": _cards_example,
    "melds": _melds_example,
    "compare": _compare_example,
    "weis": _weis_example,
    "points": _points_example,
    "legal": _legal_example,
    "trick": _trick_example,
    "stoeck": _stoeck_example,
    "target": _target_example,
    "round": _round_example,
}


def evaluate(spec: ExampleSpec) -> Evaluated:
    evaluator = EVALUATORS.get(spec.kind)
    if evaluator is None:
        raise ExampleError(f"unknown example kind {spec.kind!r}; use one of {sorted(EVALUATORS)}")
    data = evaluator(spec.params)
    data.setdefault("rules_label", _rules_label(data["rules"]) if "rules" in data else "")
    return Evaluated(kind=spec.kind, data=data, caption=spec.params.get("caption", ""))


# -- expect: lines ---------------------------------------------------------------------
#
# Each form is a regular expression over the line (after "expect:") and a function
# that returns (what the engine says, what the line claims); they must be equal.
# Numbers are 1-based: "team 1" is the core's team 0, "player 3" its seat 2.

_N = r"(\d+)"
_TEAM = r"team ([12])"
_PLAYER = r"player ([1-4])"


def _team(text: str) -> int:
    return int(text) - 1


def _best_meld(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    best = d["choice"].best
    return (best.points if best else "none"), (m[1] if m[1] == "none" else int(m[1]))


def _weis_writes(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    result = d["result"]
    if m[1] == "nobody":
        return result.team, None
    team = _team(m[2])
    return (result.scored if result.team == team else 0), int(m[3])


def _holds(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    """Whether a player's hand holds the given cards (a fact the prose may state)."""
    hand = set(d["hands"][int(m[1]) - 1])
    cards = set(parse_cards(m[2]))
    return cards <= hand, True


def _round_stoeck(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    result = d["score"].stoeck
    if m[2]:
        return (result.status, result.reason.value), (m[1], m[2])
    return result.status, m[1]


def _announces(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    """The value of a player's best meld, what they announce (0: nothing to announce)."""
    melds = d["result"].melds[int(m[1]) - 1]
    return (melds[0].points if melds else 0), int(m[2])


def _stoeck_status(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    result = d["scenario"].result
    if m[2]:
        return (result.status, result.reason.value), (m[1], m[2])
    return result.status, m[1]


def _stoeck_team(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    return d["scenario"].result.team, _team(m[1])


def _target_winner(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    result = d["result"]
    if result is None:
        raise ExpectationError("this example has no target (give 'before')")
    if m[1] == "nobody":
        return result.team, None
    trick = result.trick + 1 if m[4] and result.trick is not None else None
    return (result.team, result.block, trick), (_team(m[2]), m[3], int(m[4]) if m[4] else None)


def _reaches(d: dict[str, Any], team: int) -> tuple[str, int | None]:
    """Where ``team`` alone reaches the target, counting its own points in order."""
    result = d["result"]
    if result is None:
        raise ExpectationError("this example has no target (give 'before')")
    total = d["before"][team]
    for block in d["rules"].target_order:
        if block == "tricks" and d.get("tricks") is not None:
            for index, (winner, points) in enumerate(d["tricks"]):
                total += points if winner == team else 0
                if total >= result.target:
                    return "tricks", index + 1
            continue
        total += d["blocks"][team][block]
        if total >= result.target:
            return block, None
    return "never", None


def _target_reaches(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    block, trick = _reaches(d, _team(m[1]))
    claimed_trick = int(m[3]) if m[3] else None
    return (block, trick if claimed_trick is not None else None), (m[2], claimed_trick)


def _totals(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    if d.get("result") is None:
        raise ExpectationError("this example has no target (give 'before')")
    return tuple(d["result"].totals), (int(m[1]), int(m[2]))


def _round_blocks(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    blocks = d["score"].blocks[_team(m[1])]
    pairs = re.findall(r"(weis|stoeck|tricks) (\d+)", m[2])
    if not pairs or " ".join(f"{k} {v}" for k, v in pairs) != m[2].strip():
        raise ExpectationError("'blocks team N' takes pairs like 'weis 50 stoeck 20 tricks 137'")
    return [blocks[k] for k, _ in pairs], [int(v) for _, v in pairs]


def _round_trick(d: dict[str, Any], m: re.Match[str]) -> tuple[Any, Any]:
    number = int(m[1])
    if not 1 <= number <= 9:
        raise ExpectationError("a round has tricks 1-9")
    trick = d["score"].tricks[number - 1]
    actual, claimed = [], []
    if m[2]:
        actual.append(trick.winner)
        claimed.append(int(m[2]) - 1)
    if m[3]:
        actual.append(trick.points)
        claimed.append(int(m[3]))
    return actual, claimed


_TARGET_FORMS: list[tuple[str, Callable[[dict[str, Any], re.Match[str]], tuple[Any, Any]]]] = [
    (rf"target (nobody|{_TEAM} (weis|stoeck|tricks)(?: trick {_N})?)", _target_winner),
    (rf"reaches {_TEAM} (weis|stoeck|tricks|never)(?: trick {_N})?", _target_reaches),
    (rf"totals {_N} {_N}", _totals),
]

EXPECTATIONS: dict[
    str, list[tuple[str, Callable[[dict[str, Any], re.Match[str]], tuple[Any, Any]]]]
] = {
    "melds": [
        (r"best (none|\d+)", _best_meld),
        (rf"count {_N}", lambda d, m: (len(d["choice"].melds), int(m[1]))),
    ],
    "compare": [
        (r"winner (a|b)", lambda d, m: (d["comparison"].winner, "ab".index(m[1]))),
        (r"step ([1-5])", lambda d, m: (d["comparison"].step.number, int(m[1]))),
    ],
    "weis": [
        (rf"writes (nobody|{_TEAM} {_N})", _weis_writes),
        (
            r"step (none|[1-5])",
            lambda d, m: (
                d["result"].step.number if d["result"].step else "none",
                m[1] if m[1] == "none" else int(m[1]),
            ),
        ),
        (rf"best {_PLAYER}", lambda d, m: (d["result"].best_seat, int(m[1]) - 1)),
        (rf"announces {_PLAYER} {_N}", _announces),
        (rf"holds {_PLAYER}((?: \S+)+)", _holds),
    ],
    "points": [
        (
            rf"total {_N}",
            lambda d, m: (sum(card_points(c, d["contract"]) for c in DECK), int(m[1])),
        ),
        (
            rf"card (\S+) {_N}",
            lambda d, m: (card_points(Card.parse(m[1]), d["contract"]), int(m[2])),
        ),
    ],
    "legal": [
        (
            r"legal((?: \S+)+)",
            lambda d, m: (set(d["legal"]), set(parse_cards(m[1]))),
        ),
    ],
    "trick": [
        (r"winner card ([1-4])", lambda d, m: (d["winner"], int(m[1]) - 1)),
        (rf"points {_N}", lambda d, m: (d["points"], int(m[1]))),
    ],
    "stoeck": [
        (r"stoeck (none|pending|scored|lost)(?: ([a-z_]+))?", _stoeck_status),
        (rf"{_TEAM}", _stoeck_team),
    ],
    "target": _TARGET_FORMS,
    "round": [
        (rf"blocks {_TEAM}((?: (?:weis|stoeck|tricks) \d+)+)", _round_blocks),
        (rf"trick {_N}(?: winner {_PLAYER})?(?: points {_N})?", _round_trick),
        (
            rf"match (nobody|{_TEAM})",
            lambda d, m: (d["score"].match, None if m[1] == "nobody" else _team(m[2])),
        ),
        (rf"total {_TEAM} {_N}", lambda d, m: (d["score"].totals[_team(m[1])], int(m[2]))),
        (r"stoeck (none|pending|scored|lost)(?: ([a-z_]+))?", _round_stoeck),
        (rf"holds {_PLAYER}((?: \S+)+)", _holds),
        *_TARGET_FORMS,
    ],
}


def _show(value: Any) -> str:
    """A value as the lesson writer would type it (1-based teams and players)."""
    if isinstance(value, set):
        return " ".join(sorted(str(c) for c in value))
    return str(value)


def check_expectation(kind: str, data: dict[str, Any], expectation: Expectation) -> None:
    """Raise :class:`ExpectationError` unless the engine's result agrees with the line."""
    text = " ".join(expectation.text.split())
    for pattern, judge in EXPECTATIONS.get(kind, []):
        match = re.fullmatch(pattern, text)
        if match:
            actual, claimed = judge(data, match)
            if actual != claimed:
                raise ExpectationError(
                    f"line {expectation.line}: expect: {text!r} does not hold; the engine "
                    f"gives {_show(actual)!r} where the line claims {_show(claimed)!r} "
                    "(teams and players in the engine's answer count from 0)"
                )
            return
    forms = ", ".join(p for p, _ in EXPECTATIONS.get(kind, [])) or "none"
    raise ExpectationError(
        f"line {expectation.line}: expect: {text!r} is not a form a {kind} example knows "
        f"(forms: {forms})"
    )


# -- prose next to an example ----------------------------------------------------------

# "Team 1 (players 1 and 3)" names a team; the parenthesis only describes it.
# In French: "l'équipe 1 (joueurs 1 et 3)", "le joueur 2", "les joueurs 2 et 4".
_TEAM_GLOSS = re.compile(r"\((?:players?|Spieler|joueurs?)\s+[1-4]\s+(?:and|und|et)\s+[1-4]\)")
_TEAM_MENTION = re.compile(r"\b(?:Team|team|Teams|teams|[ÉéE]quipes?)\s+([12])\b")
_PLAYER_MENTION = re.compile(
    r"\b(?:[Pp]layers?|Spieler[ns]?|[Jj]oueurs?)\s+([1-4])"
    r"(?:\s*(?:,|and|und|et|or|oder|ou)\s*([1-4]))?\b"
)


def mentions(text: str) -> tuple[set[int], set[int]]:
    """Team and player numbers (1-based, as written) that a stretch of prose names.

    >>> mentions("Team 2 (players 2 and 4) writes nothing; player 3 wins.")
    ({2}, {3})
    """
    text = _TEAM_GLOSS.sub("", text)
    teams = {int(m[1]) for m in _TEAM_MENTION.finditer(text)}
    players = {int(n) for m in _PLAYER_MENTION.finditer(text) for n in m.groups() if n}
    return teams, players


def _backing(spec: ExampleSpec) -> tuple[set[int], set[int]]:
    """Teams and players an example's expect lines speak about, and the players its
    parameters single out (the Stöck holder, the two players compared).

    Holding a hand in a ``weis`` or ``round`` example backs nothing: "player 3 wins"
    needs ``expect: best player 3``, "player 2 announces fifty" needs
    ``expect: announces player 2 50``."""
    lines = " ".join(e.text for e in spec.expects)
    teams = {int(n) for n in re.findall(r"\bteam ([12])\b", lines)}
    players = {int(n) for n in re.findall(r"\bplayer ([1-4])\b", lines)}
    for key in ("holder", "a_player", "b_player"):
        if spec.params.get(key, "").isdigit():
            players.add(int(spec.params[key]))
    return teams, players


_HEADING_START = re.compile(r"(?m)^#{1,6} ")


def _neighbourhoods(body: str) -> Iterable[tuple[str, list[ExampleSpec], int]]:
    """Each stretch of prose with the examples next to it, and its first body line.

    Prose is next to an example when no heading and no other example stands
    between them; a stretch between two examples is next to both.
    """
    spans = example_spans(body)
    bounds = [0, *(pos for start, end, _ in spans for pos in (start, end)), len(body)]
    for k in range(len(spans) + 1):
        start, end = bounds[2 * k], bounds[2 * k + 1]
        text = body[start:end]
        cuts = [0, *(h.start() for h in _HEADING_START.finditer(text)), len(text)]
        pieces = list(zip(cuts, cuts[1:], strict=False))
        for i, (a, b) in enumerate(pieces):
            near = []
            if i == 0 and k > 0:
                near.append(spans[k - 1][2])
            if i == len(pieces) - 1 and k < len(spans):
                near.append(spans[k][2])
            if near:
                yield text[a:b], near, body.count("\n", 0, start + a) + 1


# -- numbers in prose -------------------------------------------------------------------
#
# A sentence that names a team or player next to an example may also state a number:
# a block, a running total, what a meld is worth. Such a number must be one the engine
# computed for that example (or one its expect lines state); "a + b = c" and "a × b = c"
# must add up. Numbers up to 10 are left alone: they are card ranks, tricks and places.

_NUMBER = re.compile(r"(?<![\w.,-])(\d{2,5})(?![\w.,]\d)")
_ARITHMETIC = re.compile(r"(\d+(?:\s*[+×−-]\s*\d+)+)\s*=\s*(\d+)")
# The round's fixed sums may be named beside any example: 152 card points, 157 with the
# last trick, 257 with a match, and 20 for Stöck.
RULE_NUMBERS = frozenset(
    {
        CARD_POINTS_TOTAL,
        CARD_POINTS_TOTAL + LAST_TRICK_BONUS,
        CARD_POINTS_TOTAL + LAST_TRICK_BONUS + MATCH_BONUS,
        STOECK_POINTS,
    }
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n\s*[-*] ")


def engine_numbers(value: Any, _depth: int = 0) -> set[int]:
    """Every whole number reachable from an evaluated example: blocks, totals, running
    totals of the target trace, meld values, trick points (the rule set itself aside).

    >>> sorted(engine_numbers({"totals": (1010, 1117), "blocks": [{"weis": 50}]}))
    [50, 1010, 1117]
    """
    if _depth > 12 or isinstance(value, (bool, str, bytes, RuleSet, Card)):
        return set()
    if isinstance(value, int):
        return set() if isinstance(value, Enum) else {value}
    found: set[int] = set()
    if isinstance(value, dict):
        items: Iterable[Any] = value.values()
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = value
    elif hasattr(value, "to_dict"):
        items = [value.to_dict()]
    elif is_dataclass(value):
        items = [getattr(value, f.name) for f in fields(value)]
    elif hasattr(value, "__slots__"):
        # A slot "_tricks" is filled on first access of the property "tricks": read the
        # public name, so lazily built parts (RoundScore's tricks) are reached too.
        items = [getattr(value, n.lstrip("_"), None) for n in value.__slots__]
    else:
        return found
    for item in items:
        found |= engine_numbers(item, _depth + 1)
    return found


def _evaluate_sum(expression: str) -> int:
    """``"257 × 3"`` or ``"960 + 50 - 10"``: products first, then sums."""
    total = 0
    for sign, term in re.findall(r"([+−-]?)\s*(\d+(?:\s*×\s*\d+)*)", expression):
        value = 1
        for factor in term.split("×"):
            value *= int(factor)
        total += -value if sign in "−-" and sign else value
    return total


def _arithmetic_error(text: str) -> str | None:
    for m in _ARITHMETIC.finditer(text):
        value = _evaluate_sum(m[1])
        if value != int(m[2]):
            return f"{m[0]!r} does not add up (it makes {value})"
    return None


def _unbacked_numbers(sentence: str, backed: set[int]) -> list[int]:
    """Numbers above 10 that are neither backed nor part of a sum that is: in a correct
    "a + b = c" the result is backed by its terms, and the terms by the result."""
    text = _TEAM_GLOSS.sub("", sentence)
    ok = set(backed)
    for m in _ARITHMETIC.finditer(text):
        terms = {int(n) for n in re.findall(r"\d+", m[1])}
        if int(m[2]) in backed or terms <= backed:
            ok |= terms | {int(m[2])}
    return sorted({int(n) for n in _NUMBER.findall(text) if int(n) > 10} - ok)


def _check_mentions(lesson: LessonFile, chunk: str, near: list[ExampleSpec], line: int) -> bool:
    """Raise when ``chunk`` names a team or player no expect line of ``near`` backs;
    False when it names none (nothing more to check)."""
    teams, players = mentions(chunk)
    if not teams and not players:
        return False
    backed_teams: set[int] = set()
    backed_players: set[int] = set()
    for spec in near:
        t, p = _backing(spec)
        backed_teams |= t
        backed_players |= p
    missing = [f"Team {n}" for n in sorted(teams - backed_teams)]
    missing += [f"player {n}" for n in sorted(players - backed_players)]
    if missing:
        raise ExpectationError(
            f"{lesson.path}:{line + lesson.body_offset}: the prose names "
            f"{', '.join(missing)} next to the example at {_where(lesson, near)}, but no "
            "expect: line there says anything about them"
        )
    return True


def _where(lesson: LessonFile, near: list[ExampleSpec]) -> str:
    return ", ".join(f"line {spec.line + lesson.body_offset}" for spec in near)


def check_prose(lesson: LessonFile, evaluated: dict[int, Evaluated] | None = None) -> None:
    """Every team or player named by number next to an example, or in its caption, is
    backed by one of the expect lines of the examples beside it (or, for a player,
    by its parameters); see :func:`_check_sentences` for numbers and claims.
    ``evaluated``: the examples already evaluated, by their line in the body."""
    examples = find_examples(lesson.body)
    known = dict(evaluated or {})

    def example(spec: ExampleSpec) -> Evaluated:
        if spec.line not in known:
            known[spec.line] = evaluate(spec)
        return known[spec.line]

    captions = [(s.params.get("caption", ""), [s], s.line) for s in examples]
    headings = [0] + [
        lesson.body.count("\n", 0, h.start()) + 1 for h in _HEADING_START.finditer(lesson.body)
    ]
    for chunk, near, line in [*_neighbourhoods(lesson.body), *captions]:
        if not _check_mentions(lesson, chunk, near, line):
            continue
        start = max(h for h in headings if h <= line)
        end = next((h for h in headings if h > line), len(lesson.body) + 1)  # past any line
        backed = set(RULE_NUMBERS)
        for spec in near:
            backed |= engine_numbers(example(spec).data)
            backed |= {int(n) for e in spec.expects for n in re.findall(r"\d+", e.text)}
        section = [example(e) for e in examples if start <= e.line < end]
        where = _where(lesson, near)
        _check_sentences(chunk, lesson.path, line + lesson.body_offset, where, backed, section)


# What a sentence says a team writes, in the words the lessons use; each claim is
# checked against the Weis, Stöck or whole-round examples beside it.
_TEAM_N = (
    r"(?:Team|[Ll]'[ÉéE]quipe) ([12])\s+"
    r"(?:\((?:players|Spieler|joueurs) [1-4] (?:and|und|et) [1-4]\)\s+)?"
)
_NO_WEIS = (
    r"(?:writes\s+(?:no\s+Weis|nothing)|schreibt\s+(?:keinen\s+Weis|nichts)"
    r"|ne\s+marque\s+(?:rien|aucune\s+annonce))"
)
_CLAIMS = (
    ("no_weis", re.compile(_TEAM_N + _NO_WEIS)),
    ("no_stoeck", re.compile(
        _TEAM_N + r"(?:writes\s+no\s+Stöck|schreibt\s+keine\s+Stöck|ne\s+marque\s+pas\s+de\s+stöck)"
    )),
    ("stoeck", re.compile(
        _TEAM_N + r"(?:writes\s+the\s+(?:20|Stöck)|schreibt\s+die\s+(?:20|Stöck)"
        r"|marque\s+(?:le\s+stöck|les\s+20))"
    )),
    ("points", re.compile(
        _TEAM_N + r"(?:writes|schreibt|marque)\s+(?:(?:its|the|die|ses|les)\s+)?(\d+)(?!\s*×)"
    )),
)  # fmt: skip


def _claim_holds(kind: str, team: int, points: int | None, example: Evaluated) -> bool | None:
    """Whether one example bears the claim out (None: this kind of example cannot tell)."""
    d = example.data
    if example.kind == "weis" and kind in ("no_weis", "points"):
        result = d["result"]
        writes = result.scored if result.team == team else 0
        return writes == 0 if kind == "no_weis" else writes == points
    if example.kind == "stoeck" and kind in ("no_stoeck", "stoeck", "points"):
        result = d["scenario"].result
        scored = result.status == "scored" and result.team == team
        return not scored if kind == "no_stoeck" else scored and points in (None, 20)
    if example.kind == "round" and kind == "points":
        return points in (d["score"].totals[team], *d["score"].blocks[team].values())
    return None


def _false_claims(sentence: str, evaluated: list[Evaluated]) -> list[str]:
    """The claims of ``sentence`` that an example beside it can judge and none bears out."""
    false = []
    for kind, pattern in _CLAIMS:
        for m in pattern.finditer(sentence):
            team = int(m[1]) - 1
            points = int(m[2]) if kind == "points" else None
            verdicts = [_claim_holds(kind, team, points, e) for e in evaluated]
            judged = [v for v in verdicts if v is not None]
            if judged and not any(judged):
                false.append(m[0])
    return false


def _check_sentences(
    chunk: str,
    path: str,
    first_line: int,
    where: str,
    backed: set[int],
    section: list[Evaluated],
) -> None:
    """A sentence about a team or player states only numbers in ``backed`` (what the
    engine computed for the examples beside it, their expect lines, the round's fixed
    sums), written-out sums add up, and what it says a team writes is what an example
    of its ``section`` shows."""
    position = 0
    for sentence in _SENTENCE_END.split(chunk):
        position = chunk.find(sentence, position)
        here = f"{path}:{first_line + chunk.count(chr(10), 0, position)}"
        wrong = _arithmetic_error(sentence)
        if wrong:
            raise ExpectationError(f"{here}: {wrong}")
        if not any(mentions(sentence)):
            continue
        unbacked = _unbacked_numbers(sentence, backed)
        if unbacked:
            raise ExpectationError(
                f"{here}: the prose states {', '.join(map(str, unbacked))} about a team or "
                f"player next to the example at {where}, but the engine computes no such "
                "number there and no expect: line states it"
            )
        for claim in _false_claims(sentence, section):
            raise ExpectationError(
                f"{here}: the prose says {claim!r}, but no example of its section bears "
                f"that out (next to it: the example at {where})"
            )


def check_examples(lesson: LessonFile) -> None:
    """Evaluate every example of a lesson file and its expect lines, and check the
    prose beside the examples; raise with file and line on the first error."""
    evaluated: dict[int, Evaluated] = {}
    for spec in lesson.examples:
        try:
            example = evaluate(spec)
            for expectation in spec.expects:
                check_expectation(spec.kind, example.data, expectation)
        except RulesError as error:
            raise ExampleError(f"{spec.where(lesson.path)}: jass {spec.kind}: {error}") from None
        evaluated[spec.line - lesson.body_offset] = example  # check_prose counts in the body
    check_prose(lesson, evaluated)


def all_expectations(lessons: Iterable[LessonFile]) -> int:
    """How many expect lines the lessons carry (for the loader's report)."""
    return sum(len(spec.expects) for lesson in lessons for spec in lesson.examples)
