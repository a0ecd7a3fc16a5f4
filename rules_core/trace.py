"""Explanation traces: data, not sentences.

Every explanation is a tuple of :class:`TraceEntry`. An entry names the rule it
applies (``rule="R5.5"``), a stable machine key (``key="ladder.cards"``), the
values it looked at (plain JSON data: ints, strings, card codes, booleans, None,
lists and dicts of those) and whether it ``decided`` the outcome. Templates turn
the key and values into a German, English or French sentence.

>>> entry = TraceEntry("R5.5", "ladder.cards", {"a": 5, "b": 4, "winner": 0}, decided=True)
>>> entry.to_dict()
{'rule': 'R5.5', 'key': 'ladder.cards', 'values': {'a': 5, 'b': 4, 'winner': 0}, 'decided': True}
>>> entry["winner"]
0

Keys used by the rules core, with their values (plain JSON data; cards are codes,
melds are :meth:`Meld.to_dict` dicts, seats 0..3, teams 0/1):

Meld ladder, R5.5. ``a``/``b`` are the two sides of :func:`compare_melds`; in
:func:`resolve_weis` side a is team 0's best meld and side b team 1's, so
``winner`` is a team. ``winner`` is None when the step ties (not decided).

- ``ladder.points`` {a, b, winner}: meld values before any factor.
- ``ladder.cards`` {a, b, winner}: numbers of cards.
- ``ladder.high_card`` {order, a, b, a_card, b_card, winner}: ``order`` is
  ``"natural"`` (a/b are rank codes of the top cards, the higher wins) or
  ``"reversed"`` (Undenufe with ``undenufe_reverses_weis``: rank codes of the
  lowest cards, the lower wins); a_card/b_card the cards compared.
- ``ladder.trump`` {trump, a, b, winner}: the trump suit code or None; a/b say
  whether each meld is a sequence in the trump suit.
- ``ladder.seat`` {a, b, winner}: the seats; the lower seat announced first.

The meld to announce, R5.4 (:func:`explain_best_meld`): ``choice.meld``
{meld, rank} per meld of the hand, best first (rank 0 decided); then the
``ladder.*`` steps between the best and the runner-up (no seat step).

Weis, R5.4/R5.6 (:func:`resolve_weis`): ``weis.seat`` {seat, team, melds, best,
announced} x4 (``announced`` the value announced, 0 for silence); with ``claims``,
one ``weis.claim`` {seat, team, announced, claim, status} for each player whose
claim is not their best meld (``claim`` the meld compared, or None; ``status``
``"smaller"``, rule R5.4a: a smaller value held, its meld competes; ``"false"``,
R5.7: no meld of that value, struck out; ``"silent"``, R5.4b: a player with melds
announced nothing); ``weis.team_best`` {team, seat, meld} x2 (each team's best
claim); then the ``ladder.*`` steps (both teams have a claim), or
``weis.only_team`` {team}, or ``weis.no_melds`` {}; last ``weis.writes`` {team,
seat, points, factor, scored, melds} (the melds written, with their ``seat``).

Trick play, R3.1, R3.2, R3.3, R3.4, R3.5 (:func:`explain_legal_cards`, one entry per card, all
decided; values {card, legal, led, trump, ...}):

- ``play.lead`` (R3.1) any card may lead;
- ``play.follows_suit`` (R3.1); ``play.must_follow_suit`` (R3.1, illegal) +{follow};
- ``play.trump_allowed`` (R3.2) +{can_follow};
- ``play.over_trump`` (R3.3) +{highest_trump}; ``play.under_trump`` (R3.3,
  illegal) +{highest_trump}; ``play.only_trumps`` (R3.3) +{highest_trump};
- ``play.follows_trump`` (R3.1); ``play.must_play_trump`` (R3.4, illegal)
  +{trumps}; ``play.puur_exception`` (R3.4) +{puur};
- ``play.cannot_follow`` (R3.5).

Trick winner, R3.6: ``trick.winner`` {cards, led, trump, winner_index,
winner_card, by ("trump" or "led_suit"), order ("trump", "plain", "obenabe",
"undenufe")}. Card points, R4.1, R4.2, R4.3: ``points.card`` {card, points, table
("trump", "plain", "obenabe", "undenufe")}.

Stöck, R6.x (:func:`check_stoeck`): ``stoeck.contract`` {contract, trump};
``stoeck.holder`` {king, queen, king_seat, queen_seat, seat, team} (trump
contracts); ``stoeck.cards_played`` {first_play, second_play, plays, complete}
(when one player holds both); ``stoeck.call`` {seat, after_play, prompted,
verdict} per call, verdict one of ``counts``, ``prompted``, ``too_late``,
``first_card``, ``too_early``, ``other_seat``, ``no_stoeck``; last
``stoeck.result`` {status, reason, team, seat, points, factor} with the
reason's rule.

Target, R7.2, R7.3, R7.4, R7.5 (:func:`resolve_target`): ``target.start`` {target, totals,
order}; ``target.block`` {block, points, totals} (R7.3) for Weis and Stöck;
``target.trick`` {trick, team, points, totals} (R7.4) per trick; totals are
running totals after the entry; the entry that first reaches the target is
decided; ``target.not_reached`` {totals} (R7.5) when no team reaches it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["TraceEntry", "trace_to_list"]


@dataclass(frozen=True)
class TraceEntry:
    """One step of an explanation: rule ID, machine key, values, decided or not.

    ``values`` is a dict of plain JSON data. Entries compare by value; they are
    not hashable (``values`` is a dict).
    """

    rule: str
    key: str
    values: dict[str, Any] = field(default_factory=dict)
    decided: bool = False

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def get(self, name: str, default: Any = None) -> Any:
        """The value ``name``, or ``default``."""
        return self.values.get(name, default)

    def to_dict(self) -> dict[str, Any]:
        """``{"rule", "key", "values", "decided"}`` as plain JSON data."""
        return {
            "rule": self.rule,
            "key": self.key,
            "values": _plain(self.values),
            "decided": self.decided,
        }


def trace_to_list(trace: tuple[TraceEntry, ...]) -> list[dict[str, Any]]:
    """A trace as a list of plain dicts."""
    return [entry.to_dict() for entry in trace]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    return str(value)
