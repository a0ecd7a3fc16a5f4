"""The rules core of the Jass (Schieber) tutor: pure Python, no Django.

Cards, contracts, rule sets, melds and the comparison ladder, Weis, trick play,
Stöck, round scoring and the target, each citing the rule IDs of RULES.md in
explanation traces that are data, not sentences (see :mod:`rules_core.trace`).
Bad input raises :class:`RulesError` (a ``ValueError``); nothing else escapes.

Seats are 0..3 in playing order from forehand; team 0 is seats 0 and 2, team 1
seats 1 and 3 (R2.1).

>>> from rules_core import resolve_weis, RuleSet
>>> result = resolve_weis(["S10 SJ SQ SK", "C6 C7 C8", "", ""], "H")
>>> result.team, result.scored, result.step.value
(0, 50, 'points')

Command line referee: ``python -m rules_core --help`` (see :mod:`rules_core.cli`);
benchmark: ``python -m rules_core.bench``.
"""

from .cards import DECK, Card, Rank, Suit, card_name, parse_cards, rank_name, suit_name, trump_name
from .contracts import Contract
from .errors import CardParseError, IllegalPlayError, RulesError
from .melds import (
    Comparison,
    Meld,
    MeldChoice,
    MeldKind,
    Step,
    best_meld,
    compare_melds,
    explain_best_meld,
    find_melds,
)
from .rules import DEFAULT_RULES, RuleSet
from .scoring import (
    RoundScore,
    TargetResult,
    TrickResult,
    first_forehand,
    resolve_target,
    resolve_target_blocks,
    revoke_penalty,
    score_round,
    team_of,
)
from .stoeck import StoeckCall, StoeckReason, StoeckResult, check_stoeck
from .trace import TraceEntry
from .tricks import (
    LegalCards,
    TrickWinner,
    card_points,
    explain_card_points,
    explain_legal_cards,
    explain_trick_winner,
    legal_cards,
    trick_winner,
)
from .weis import WeisResult, resolve_weis

__all__ = [
    "DECK",
    "DEFAULT_RULES",
    "Card",
    "CardParseError",
    "Comparison",
    "Contract",
    "IllegalPlayError",
    "LegalCards",
    "Meld",
    "MeldChoice",
    "MeldKind",
    "Rank",
    "RoundScore",
    "RuleSet",
    "RulesError",
    "Step",
    "StoeckCall",
    "StoeckReason",
    "StoeckResult",
    "Suit",
    "TargetResult",
    "TraceEntry",
    "TrickResult",
    "TrickWinner",
    "WeisResult",
    "best_meld",
    "card_name",
    "card_points",
    "check_stoeck",
    "compare_melds",
    "explain_best_meld",
    "explain_card_points",
    "explain_legal_cards",
    "explain_trick_winner",
    "find_melds",
    "first_forehand",
    "legal_cards",
    "parse_cards",
    "rank_name",
    "resolve_target",
    "resolve_target_blocks",
    "resolve_weis",
    "revoke_penalty",
    "score_round",
    "suit_name",
    "team_of",
    "trick_winner",
    "trump_name",
]
