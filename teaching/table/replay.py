"""The referee: replays a move log around the site's players and judges every
learner decision (formats and decisions in :mod:`teaching.table`)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from rules_core import (
    DECK,
    Card,
    Contract,
    Meld,
    Rank,
    RulesError,
    Step,
    StoeckCall,
    WeisResult,
    best_meld,
    card_points,
    check_stoeck,
    compare_melds,
    explain_best_meld,
    explain_legal_cards,
    resolve_weis,
    trick_winner,
)
from rules_core.scoring import LAST_TRICK_BONUS, MATCH_BONUS

from .bots import bot_card
from .model import (
    BLOCKS,
    Announcement,
    Call,
    Judgement,
    Scenario,
    Table,
    TableError,
    TableScore,
    Trick,
)
from .moves import announce_value, card_of, jasstafel_of, move_kind, writes_of
from .scoring import block_verdict, score_state

__all__ = [
    "RefereeState",
    "announce_strict",
    "reference_move",
    "referee",
    "replay_state",
    "score",
    "step",
]

ROUND_PLAYS = 36
_BY_CODE = {c.code: c for c in DECK}

# A learner's Stöck call as the engine's ``stoeck.call`` verdict judges it:
# verdict -> (outcome, rule, key).
_CALL_JUDGED = {
    "counts": ("right", "R6.2", "stoeck.counts"),
    "prompted": ("info", "R6.4", "stoeck.prompted"),
    "too_late": ("wrong", "R6.3", "stoeck.too_late"),
    "first_card": ("wrong", "R6.2", "stoeck.first_card"),
    "too_early": ("wrong", "R6.4", "stoeck.too_early"),
    "other_seat": ("wrong", "R6.4", "stoeck.not_holder"),
    "no_stoeck": ("wrong", "R6.4", "stoeck.not_holder"),
}


def announce_strict(rules: Any) -> bool:
    """True when the rule set wants the strongest meld announced (W-EN): the
    ``w-en`` preset. Every other rule set follows W-DE ("wählt selbst")."""
    return getattr(rules, "preset_name", lambda: None)() == "w-en"


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


# ---------------------------------------------------------------------------
# Melds in the exchange


def _described(meld: Meld, contract: Contract, rules: Any) -> dict[str, Any]:
    """What a player says of a meld when values are equal: kind, cards, the card the
    ladder compares (rank and end, no suit) and whether it is a trump sequence."""
    reverse = contract is Contract.UNDENUFE and rules.undenufe_reverses_weis
    sequence = meld.kind.value == "sequence"
    card = meld.bottom if reverse else meld.top
    return {
        "kind": meld.kind.value,
        "cards": len(meld.cards),
        "rank": card.rank.code,
        "end": ("bottom" if reverse else "top") if sequence else None,
        "trump": sequence and meld.suit is contract.trump,
    }


# ---------------------------------------------------------------------------
# The replay


class _State:
    """The round being replayed (mutable; :meth:`table` freezes it)."""

    def __init__(self, scenario: Scenario) -> None:
        if not isinstance(scenario, Scenario):
            raise TableError(
                f"referee needs a Scenario, got {type(scenario).__name__}", "scenario.needed"
            )
        self.scenario = scenario
        self.rules = scenario.rules
        self.contract = Contract.parse(scenario.contract)
        self.factor = self.rules.factor(self.contract)
        self.hands = tuple(tuple(_BY_CODE[c] for c in hand) for hand in scenario.hands)
        self.held = [list(h) for h in self.hands]
        self.me = scenario.seat
        self.plays: list[tuple[int, Card]] = []
        self.tricks: list[Trick] = []
        self.leader = 0
        self.announcements: list[Announcement] = []
        self.exchanges: list[dict[str, Any]] = []
        self.claim: tuple[int, int, Meld] | None = None
        # per seat the value announced with the first card (R5.4a), None for silence
        self.claims: list[int | None] = [None] * 4
        self.called: set[str] = set()  # the keys the learner's Stöck calls were judged with
        self.calls: list[Call] = []
        self.reminder: dict[str, Any] | None = None
        self.shown: dict[str, Any] | None = None
        self.writes_done = False
        self.jasstafel: dict[str, Any] | None = None
        self.judgements: list[Judgement] = []
        self.phase = "play"
        self.legal: tuple[Card, ...] = ()
        trump = self.contract.trump
        self.pair: frozenset[Card] = (
            frozenset((Card(trump, Rank.K), Card(trump, Rank.Q))) if trump else frozenset()
        )
        self.holder = next(
            (s for s in range(4) if self.pair and self.pair <= set(self.hands[s])), None
        )
        self.first_play: int | None = None  # the learner's first card
        self.second_play: int | None = None  # the learner's second Stöck card
        self.uncalled: int | None = None  # ... while its deadline runs without a call
        self.scored = False  # the learner's Stöck counts
        self.moves: list[Any] = []
        self._advance(None)

    # -- small helpers -------------------------------------------------------

    def _trick_cards(self) -> tuple[Card, ...]:
        n = len(self.plays)
        return tuple(c for _s, c in self.plays[n - n % 4 :])

    def _to_play(self) -> int:
        return (self.leader + len(self.plays) % 4) % 4

    def _engine_calls(self) -> list[StoeckCall]:
        n = len(self.plays)
        return [
            StoeckCall(c.seat, c.after_play, c.prompted)
            for c in self.calls
            if c.after_play is not None and c.after_play < n
        ]

    def _stoeck_now(self) -> Any:
        return check_stoeck(self.hands, self.contract, self.plays, self._engine_calls(), self.rules)

    def _judge(
        self,
        move: int,
        kind: str,
        outcome: str,
        rule: str,
        skill: str,
        key: str,
        at_play: int,
        given: Any,
        expected: Any,
        verdict: dict[str, Any],
    ) -> None:
        self.judgements.append(
            Judgement(move, kind, outcome, rule, skill, key, at_play, given, expected, verdict)
        )

    def weis(self) -> WeisResult:
        """Who writes Weis: the announced claims compared (R5.4a, R5.4b, R5.6, R5.7)."""
        return resolve_weis(self.hands, self.contract, self.rules, claims=self.claims)

    # -- the flow --------------------------------------------------------------

    def _advance(self, move: int | None) -> None:
        """Let the site's players play until the learner must act."""
        while True:
            n = len(self.plays)
            if n == ROUND_PLAYS:
                self.phase = "jasstafel" if self.jasstafel is None else "done"
                self.legal = ()
                return
            if n == 4 and not self.writes_done:
                self.phase = "writes"
                self.legal = ()
                self._show()
                return
            seat = self._to_play()
            if seat == self.me:
                self.phase = "play"
                self.legal = tuple(
                    explain_legal_cards(self.held[seat], self._trick_cards(), self.contract).legal
                )
                self._maybe_remind(move)
                return
            self._bot_turn(seat, move)

    def _bot_turn(self, seat: int, move: int | None) -> None:
        card = bot_card(self.held[seat], self._trick_cards(), self.contract)
        index = len(self.plays)
        self._play(seat, card, move)
        if index < 4:
            meld = best_meld(self.hands[seat], self.contract, self.rules)
            if meld is not None:
                self._announce(seat, meld.points, index, meld)
        if seat == self.holder and card in self.pair and not self.pair & set(self.held[seat]):
            self.calls.append(Call(seat, index, index, False, True, None))

    def _play(self, seat: int, card: Card, move: int | None) -> None:
        index = len(self.plays)
        self.held[seat].remove(card)
        self.plays.append((seat, card))
        if len(self.plays) % 4 == 0:
            self._gather()
        if self.uncalled is not None and index == self.uncalled + 1:
            self._forgotten(move)

    def _gather(self) -> None:
        t = len(self.plays) // 4 - 1
        seats = [s for s, _c in self.plays[4 * t :]]
        cards = [c for _s, c in self.plays[4 * t :]]
        winner = seats[trick_winner(cards, self.contract)]
        raw = sum(card_points(c, self.contract) for c in cards)
        bonus = 0
        if t == 8:
            bonus = LAST_TRICK_BONUS
            if all(tr.winner is not None and tr.winner % 2 == winner % 2 for tr in self.tricks):
                bonus += MATCH_BONUS
        self.tricks.append(
            Trick(t, seats[0], tuple(seats), tuple(_codes(cards)), winner, raw,
                  (raw + bonus) * self.factor)
        )  # fmt: skip
        self.leader = winner

    def _maybe_remind(self, move: int | None) -> None:
        """The partner's «Denk an die Stöck!» (``stoeck`` scenarios, odd seed): at the
        learner's first turn after the first Stöck card where the second is legal."""
        if not self.scenario.reminder or self.reminder is not None or self.me != self.holder:
            return
        left = self.pair & set(self.held[self.me])
        if len(left) == 1 and next(iter(left)) in self.legal:
            self.reminder = {
                "seat": self.scenario.partner,
                "after_play": len(self.plays) - 1,
                "move": move,
            }

    def _show(self) -> None:
        """The writing team shows its melds at the second trick (R5.7)."""
        weis = self.weis()
        melds = [[m.to_dict() for m in written] for written in weis.written]
        self.shown = {"team": weis.team, "melds": melds}

    # -- announcements -----------------------------------------------------------

    def _announce(self, seat: int, value: int, play: int, claim: Meld | None) -> None:
        """An announcement with the player's first card: ``claim`` is the meld it stands
        for (R5.4a), None for a false Weis (R5.7)."""
        counts = claim is not None
        data = None if claim is None else claim.to_dict()
        self.announcements.append(Announcement(seat, value, play, False, counts, data))
        self.claims[seat] = value  # a false one too: the engine strikes it out (R5.7)
        if claim is not None:
            self._exchange(seat, value, play, claim)

    def _exchange(self, seat: int, value: int, play: int, meld: Meld) -> None:
        """W-DE's exchange when an opponent announces the value of the best claim so far;
        ``meld`` is the claim (R5.4a: the best meld of the announced value)."""
        claim = self.claim
        if claim is None or value > claim[1]:
            self.claim = (seat, value, meld)
            return
        if value < claim[1]:
            return
        first, _value, first_meld = claim
        cmp = compare_melds(first_meld, first, meld, seat, self.contract, self.rules)
        if first % 2 != seat % 2:
            lines: list[dict[str, Any]] = [
                {"seat": seat, "say": "too", "value": value},
                {"seat": first, "say": "meld", **_described(first_meld, self.contract, self.rules)},
            ]
            if cmp.winner == 0 and cmp.step in (Step.CARDS, Step.HIGH_CARD):
                lines.append({"seat": seat, "say": "good"})
            else:
                lines.append(
                    {"seat": seat, "say": "meld", **_described(meld, self.contract, self.rules)}
                )
                lines.append({"seat": seat if cmp.winner == 0 else first, "say": "good"})
            self.exchanges.append(
                {
                    "play": play,
                    "seats": [first, seat],
                    "value": value,
                    "lines": lines,
                    "winner": first if cmp.winner == 0 else seat,
                    "step": cmp.step.value,
                }
            )
        if cmp.winner == 1:
            self.claim = (seat, value, meld)

    def _learner_announce(self, i: int, value: int, index: int) -> None:
        hand = self.hands[self.me]
        choice = explain_best_meld(hand, self.contract, self.rules)
        held = sorted({m.points for m in choice.melds})
        best = choice.best.points if choice.best is not None else 0
        strict = announce_strict(self.rules)
        verdict = {
            "announced": value,
            "held": held,
            "best": best,
            "strict": strict,
            "choice": choice.to_dict(),
        }
        given, expected = {"announce": value}, {"announce": best}
        if value == 0:
            outcome, key = (
                ("info", "announce.none_with_meld") if best else ("right", "announce.none")
            )
            rule = "R5.4"
        elif value == best:
            outcome, rule, key = "right", "R5.4", "announce.best"
        elif value in held:
            outcome, rule = ("wrong" if strict else "right"), "R5.4"
            key = "announce.not_best_strict" if strict else "announce.not_best"
        else:
            outcome, rule, key = "wrong", "R5.7", "announce.not_held"
        self._judge(
            i, "announce", outcome, rule, "weis_value", key, index, given, expected, verdict
        )
        if value:
            # the claim (R5.4a): the best meld of the announced value, also a smaller one
            named = next((m for m in choice.melds if m.points == value), None)
            self._announce(self.me, value, index, named)

    def _late_announce(self, i: int, value: int) -> None:
        n = len(self.plays)
        self.announcements.append(Announcement(self.me, value, n - 1, True, False, None))
        verdict = {
            "announced": value,
            "first_play": self.first_play,
            "plays": n,
            "next_played": True,
        }
        self._judge(
            i, "announce", "wrong", "R5.4", "weis_value", "announce.late", n,
            {"announce": value}, {"announce": None}, verdict,
        )  # fmt: skip

    # -- Stöck -------------------------------------------------------------------

    def _learner_call(self, i: int, said_after: int, *, with_card: bool) -> None:
        """Judge a learner's «Stöck!» said after ``plays[said_after]``."""
        prompted = self.reminder is not None
        holds = self.me == self.holder
        given = {"stoeck": True, "with_card": with_card}
        if holds and self.scored:
            # already counted: saying it again changes nothing
            self.calls.append(Call(self.me, said_after, None, prompted, with_card, i))
            result = self._stoeck_now()
            self._judge(
                i, "stoeck", "info", "R6.2", "stoeck", "stoeck.repeated", said_after,
                given, None, {"result": result.to_dict()},
            )  # fmt: skip
            return
        if holds and not with_card and said_after == self.second_play:
            # The second card completed its trick (or the round) and the trick was
            # gathered before the call: too late (R6.3). For the engine the call is
            # made when the next card is down; after the last card there is none.
            after = said_after + 1 if said_after + 1 < ROUND_PLAYS else None
            self.calls.append(Call(self.me, said_after, after, prompted, False, i))
            self.uncalled = None
            result = self._stoeck_now()
            verdict = {
                "call": {"seat": self.me, "said_after": said_after, "after_play": after},
                "call_verdict": "too_late",
                "after_trick": True,
                "result": result.to_dict(),
            }
            self._judge_call(
                i, said_after, "wrong", "R6.3", "stoeck.too_late", given,
                {"stoeck": True, "with_card": True}, verdict,
            )  # fmt: skip
            return
        self.calls.append(Call(self.me, said_after, said_after, prompted, with_card, i))
        result = self._stoeck_now()
        entries = [e for e in result.trace if e.key == "stoeck.call"]
        call_verdict = entries[-1]["verdict"]
        outcome, rule, key = _CALL_JUDGED[call_verdict]
        if not holds and self.contract.trump is None:
            rule, key = "R6.1", "stoeck.no_trump"
        if call_verdict == "counts":
            self.scored = True
        if said_after == self.second_play:
            self.uncalled = None
        expected = {"stoeck": holds, "with_card": True} if holds else {"stoeck": False}
        verdict = {
            "call": {"seat": self.me, "said_after": said_after, "after_play": said_after},
            "call_verdict": call_verdict,
            "after_trick": False,
            "result": result.to_dict(),
        }
        self._judge_call(i, said_after, outcome, rule, key, given, expected, verdict)

    def _judge_call(
        self,
        i: int,
        said_after: int,
        outcome: str,
        rule: str,
        key: str,
        given: dict[str, Any],
        expected: Any,
        verdict: dict[str, Any],
    ) -> None:
        """A call judged like an earlier one of the learner's is judged once: the repeat
        is ``stoeck.repeated`` (info), so calling again and again costs nothing more
        and shows nothing new (the engine still gets it)."""
        if key in self.called:
            verdict = {**verdict, "repeats": key}
            outcome, rule, key, expected = "info", "R6.2", "stoeck.repeated", None
        else:
            self.called.add(key)
        self._judge(i, "stoeck", outcome, rule, "stoeck", key, said_after, given, expected, verdict)

    def _forgotten(self, move: int | None) -> None:
        """The learner's second Stöck card went without a call and its deadline passed."""
        second = self.uncalled if self.uncalled is not None else self.second_play
        self.uncalled = None
        result = self._stoeck_now()
        prompted = self.reminder is not None
        outcome, rule = ("info", "R6.4") if prompted else ("wrong", "R6.3")
        self._judge(
            -1 if move is None else move, "stoeck", outcome, rule, "stoeck", "stoeck.forgotten",
            second if second is not None else len(self.plays) - 1,
            {"stoeck": False}, {"stoeck": True, "with_card": True}, {"result": result.to_dict()},
        )  # fmt: skip

    # -- learner moves -----------------------------------------------------------

    def apply(self, i: int, move: Any) -> None:
        kind = move_kind(move, i)
        self.moves.append(copy.deepcopy(move))
        if self.phase == "done":
            raise TableError(f"move {i + 1}: the round is over", "move.round_over", {"move": i})
        if kind == "play":
            self._move_play(i, move)
        elif kind == "stoeck":
            self._move_stoeck(i, move["stoeck"])
        elif kind == "announce":
            self._move_announce(i, move["announce"])
        elif kind == "writes":
            self._move_writes(i, move["writes"])
        else:
            self._move_jasstafel(i, move["jasstafel"])

    def _phase_error(self, i: int, wanted: str) -> TableError:
        """``wanted``: what the move brings (one of ``PHASE_WANTS``)."""
        waiting = {
            "play": "your card",
            "writes": "who writes Weis (writes)",
            "jasstafel": "the Jasstafel (jasstafel)",
            "done": "nothing: the round is over",
        }[self.phase]
        what = {
            "card": "a card",
            "stoeck": "«Stöck!»",
            "announce": "an announcement",
            "writes": "who writes Weis",
            "jasstafel": "the Jasstafel",
        }[wanted]
        return TableError(
            f"move {i + 1}: not the time for {what}; the table waits for {waiting}",
            "move.not_now",
            {"move": i, "wanted": wanted, "waiting": self.phase},
        )

    def _move_play(self, i: int, move: Mapping[str, Any]) -> None:
        card = card_of(move["play"], i)
        announce = announce_value(move.get("announce"), i, alone=False)
        stoeck = move.get("stoeck", False)
        if type(stoeck) is not bool:
            raise TableError(
                f"move {i + 1}: stoeck must be true or false, got {stoeck!r}",
                "move.stoeck_value",
                {"move": i},
            )
        if self.phase != "play":
            raise self._phase_error(i, "card")
        hand = self.held[self.me]
        if card not in hand:
            raise TableError(
                f"move {i + 1}: {card.code} is not in your hand ({' '.join(_codes(hand))})",
                "move.not_in_hand",
                {"move": i, "card": card.code, "hand": _codes(hand)},
            )
        trick = self._trick_cards()
        explained = explain_legal_cards(hand, trick, self.contract)
        entry = next(v for v in explained.verdicts if v["card"] == card.code)
        index = len(self.plays)
        legal = bool(entry["legal"])
        verdict = {"card": card.code, "trick": _codes(trick), **explained.to_dict()}
        self._judge(
            i, "play", "right" if legal else "wrong", entry.rule, "trick", entry.key, index,
            {"play": card.code}, {"legal": _codes(explained.legal)}, verdict,
        )  # fmt: skip
        if not legal:
            return  # refused: the learner plays again; nothing else of the move happens
        second = (
            self.me == self.holder and card in self.pair and not (self.pair - {card}) & set(hand)
        )
        self._play(self.me, card, i)
        if self.first_play is None:
            self.first_play = index
            self._learner_announce(i, announce, index)
        elif announce:
            self._late_announce(i, announce)
        if second:
            self.second_play = index
        if stoeck:
            self._learner_call(i, index, with_card=True)
        elif second:
            if len(self.plays) == ROUND_PLAYS:
                self.uncalled = index
                self._forgotten(i)
            else:
                self.uncalled = index
        self._advance(i)

    def _move_stoeck(self, i: int, value: Any) -> None:
        if value is not True:
            raise TableError(
                f'move {i + 1}: a call on its own is {{"stoeck": true}}',
                "move.stoeck_value",
                {"move": i},
            )
        if self.phase not in ("play", "writes", "jasstafel"):
            raise self._phase_error(i, "stoeck")
        if not self.plays:
            raise TableError(
                f"move {i + 1}: no card has been played yet; say «Stöck!» with a card",
                "move.stoeck_first",
                {"move": i},
            )
        self._learner_call(i, len(self.plays) - 1, with_card=False)

    def _move_announce(self, i: int, value: Any) -> None:
        value = announce_value(value, i, alone=True)
        if self.phase not in ("play", "writes", "jasstafel"):
            raise self._phase_error(i, "announce")
        if self.first_play is None:
            raise TableError(
                f"move {i + 1}: announce together with your first card, "
                '{"play": ..., "announce": ...}',
                "move.announce_first",
                {"move": i},
            )
        self._late_announce(i, value)

    def _move_writes(self, i: int, value: Any) -> None:
        given = writes_of(value, i)
        if self.phase != "writes":
            raise self._phase_error(i, "writes")
        weis = self.weis()
        expected = {"team": None if weis.team is None else weis.team + 1, "points": weis.scored}
        team_ok = given["team"] == expected["team"]
        points_ok = given["points"] == expected["points"]
        key = {
            (True, True): "writes.right",
            (False, True): "writes.wrong_team",
            (True, False): "writes.wrong_points",
            (False, False): "writes.wrong_team_and_points",
        }[(team_ok, points_ok)]
        # Each player's own line only for the learner and for those who show melds: the
        # others' hands are not the learner's to know.
        trace = [
            e.to_dict()
            for e in weis.trace
            if not (
                e.key in ("weis.seat", "weis.claim")
                and e["seat"] != self.me
                and not weis.written[e["seat"]]
            )
        ]
        verdict = {
            "weis": {
                "team": weis.team,
                "points": weis.points,
                "factor": weis.factor,
                "scored": weis.scored,
                "step": None if weis.step is None else weis.step.value,
                "best_seat": weis.best_seat,
            },
            "claims": list(self.claims),
            "status": list(weis.status),
            "counted": [m is not None for m in weis.claimed],
            "if_best": self._if_best(weis),
            "shown": copy.deepcopy(self.shown),
            "team_right": team_ok,
            "points_right": points_ok,
            "trace": trace,
        }
        self._judge(
            i, "writes", "right" if team_ok and points_ok else "wrong", "R5.6", "who_writes", key,
            len(self.plays), given, expected, verdict,
        )  # fmt: skip
        self.writes_done = True
        self._advance(i)

    def _if_best(self, weis: WeisResult) -> dict[str, Any] | None:
        """Who would write had the learner announced their best meld, when they
        announced another value or nothing though holding a meld (R5.4a, R5.4b)."""
        best = weis.melds[self.me][0] if weis.melds[self.me] else None
        if best is None or self.claims[self.me] == best.points:
            return None
        claims = list(self.claims)
        claims[self.me] = best.points
        other = resolve_weis(self.hands, self.contract, self.rules, claims=claims)
        return {"value": best.points, "team": other.team, "scored": other.scored}

    def _move_jasstafel(self, i: int, value: Any) -> None:
        given = jasstafel_of(value, i)
        if self.phase != "jasstafel":
            raise self._phase_error(i, "jasstafel")
        result = score_state(self)
        skills = {"weis": "who_writes", "stoeck": "stoeck", "tricks": "target"}
        for team in (0, 1):
            for block in BLOCKS:
                written = given["blocks"][str(team + 1)][block]
                right = result.blocks[team][block]
                self._judge(
                    i, "jasstafel_block", "right" if written == right else "wrong", "R7.1",
                    skills[block], f"jasstafel.{block}", ROUND_PLAYS,
                    {"team": team + 1, "block": block, "points": written},
                    {"team": team + 1, "block": block, "points": right},
                    block_verdict(result, team, block),
                )  # fmt: skip
        target = result.target
        expected = {
            "team": None if target.team is None else target.team + 1,
            "block": target.block,
            "trick": None if target.trick is None else target.trick + 1,
        }
        rule = {"weis": "R7.3", "stoeck": "R7.3", "tricks": "R7.4", None: "R7.5"}[target.block]
        self._judge(
            i, "target", "right" if given["target"] == expected else "wrong", rule, "target",
            f"target.{target.block or 'nobody'}", ROUND_PLAYS, copy.deepcopy(given["target"]),
            expected,
            {"target": target.to_dict(), "blocks": [dict(b) for b in result.blocks],
             "before": list(result.before)},
        )  # fmt: skip
        self.jasstafel = given
        self.phase = "done"

    # -- freezing ----------------------------------------------------------------

    def table(self) -> Table:
        return Table(
            scenario=self.scenario,
            moves=tuple(self.moves),
            hands=self.scenario.hands,
            held=tuple(tuple(_codes(sorted(h))) for h in self.held),
            plays=tuple((s, c.code) for s, c in self.plays),
            tricks=(*self.tricks, *self._open_trick()),
            announcements=tuple(self.announcements),
            exchanges=tuple(copy.deepcopy(self.exchanges)),
            calls=tuple(self.calls),
            reminder=copy.deepcopy(self.reminder),
            shown=copy.deepcopy(self.shown),
            phase=self.phase,
            legal=tuple(_codes(self.legal)),
            judgements=tuple(self.judgements),
            jasstafel=copy.deepcopy(self.jasstafel),
        )

    def _open_trick(self) -> tuple[Trick, ...]:
        n = len(self.plays)
        if n % 4 == 0:
            return ()
        part = self.plays[n - n % 4 :]
        return (
            Trick(n // 4, part[0][0], tuple(s for s, _c in part), tuple(c.code for _s, c in part)),
        )


def _replay(scenario: Scenario, moves: Any) -> _State:
    """The state after ``moves`` (internal; :func:`referee` freezes it)."""
    if isinstance(moves, (str, bytes, Mapping)) or not isinstance(moves, Sequence):
        raise TableError(
            f"moves must be a list of move objects, got {type(moves).__name__}", "log.not_list"
        )
    state = _State(scenario)
    for move in moves:
        step(state, move)
    return state


# The referee's running state, for callers that keep it between moves (the site's
# cache): opaque outside this package; ``.moves`` is its log, ``.table()`` freezes it.
RefereeState = _State


def step(state: _State, move: Any) -> None:
    """Apply one more learner move to ``state``, in place: the referee's one step.

    A full replay (:func:`replay_state`, :func:`referee`) is this step folded over the log
    from the deal, so a state kept after ``n`` moves and stepped once equals the
    replay of the ``n + 1`` moves: the two cannot drift apart. Raises
    :class:`TableError` for a refused move; the state may then be half-changed and
    must be dropped (replay the log again for a clean one).

    >>> from teaching.table import build_scenario, reference_move
    >>> scenario = build_scenario("stoeck", 2)
    >>> state = replay_state(scenario, [])
    >>> move = reference_move(state.table())
    >>> step(state, move)
    >>> state.table() == referee(scenario, [move])
    True
    """
    i = len(state.moves)
    try:
        state.apply(i, move)
    except TableError:
        raise
    except RulesError as err:  # pragma: no cover - a referee bug, reported readably
        raise TableError(f"move {i + 1}: {err}", "move.engine", {"move": i}) from None


def replay_state(scenario: Scenario, moves: Any) -> _State:
    """The referee's state after ``moves``: :func:`step` applied to each move in turn,
    from the deal. Raises :class:`TableError` for a bad log (like :func:`referee`)."""
    return _replay(scenario, moves)


def referee(scenario: Scenario, moves: Any) -> Table:
    """Replay ``moves`` (a list of move objects) with the site's players around the
    learner and judge every learner decision. Pure and deterministic: the same
    scenario and moves give an equal :class:`Table`. Raises :class:`TableError` for a
    bad move (the whole log is refused).
    """
    return _replay(scenario, moves).table()


def _state_from_table(table: Table) -> _State:
    return _replay(table.scenario, list(table.moves))


def score(table: Table) -> TableScore:
    """The written score of a table whose nine tricks are played (phase
    ``jasstafel`` or ``done``); raises :class:`TableError` before that."""
    if len(table.plays) < ROUND_PLAYS:
        raise TableError("the round is not over: score needs all nine tricks", "round.not_over")
    return score_state(_state_from_table(table))


def expected_writes(state: _State) -> dict[str, Any]:
    weis = state.weis()
    return {"team": None if weis.team is None else weis.team + 1, "points": weis.scored}


def expected_jasstafel(result: TableScore) -> dict[str, Any]:
    target = result.target
    return {
        "blocks": {str(t + 1): dict(result.blocks[t]) for t in (0, 1)},
        "target": {
            "team": None if target.team is None else target.team + 1,
            "block": target.block,
            "trick": None if target.trick is None else target.trick + 1,
        },
    }


def state_reference_move(state: _State) -> dict[str, Any]:
    """The reference learner's next move (see :func:`reference_move`)."""
    if state.phase == "play":
        hand = state.held[state.me]
        card = bot_card(hand, state._trick_cards(), state.contract)
        move: dict[str, Any] = {"play": card.code}
        if state.first_play is None:
            meld = best_meld(state.hands[state.me], state.contract, state.rules)
            if meld is not None:
                move["announce"] = meld.points
        if (
            state.me == state.holder
            and card in state.pair
            and not (state.pair - {card}) & set(hand)
        ):
            move["stoeck"] = True
        return move
    if state.phase == "writes":
        return {"writes": expected_writes(state)}
    if state.phase == "jasstafel":
        return {"jasstafel": expected_jasstafel(score_state(state))}
    raise TableError("the round is over: there is no next move", "round.over")


def reference_move(table: Table) -> dict[str, Any]:
    """The next move of the reference learner: the site players' card policy for the
    card, the best meld's value with the first card, «Stöck!» with the second Stöck
    card, and the right ``writes`` and ``jasstafel``. Raises :class:`TableError`
    when the round is over."""
    return state_reference_move(_state_from_table(table))
