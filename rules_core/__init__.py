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

Typed inputs. The public functions are friendly: a card may be a :class:`Card`
or a code or name, a contract a :class:`Contract` or a code, and so on. The type
aliases below name what each parameter takes (:mod:`rules_core.aliases`), and
``mypy --strict rules_core`` passes:

- ``CardLike`` = ``Card | str``; ``CardsLike`` = a string of cards, or a sequence
  or set of ``CardLike`` (a tuple of cards, a :class:`CardSet`);
- ``HandsLike`` = four ``CardsLike`` by seat, or one string ``"h0 / h1 / h2 / h3"``;
- ``ContractLike`` = ``Contract | str``; ``RulesLike`` = ``RuleSet | str`` (a preset);
- ``Seat`` (0..3), ``Team`` (0/1), ``Mask`` (a 36-bit set of cards, bit
  ``card.index``); ``PlayLike`` = ``(seat, card)``, ``PlaysLike`` a sequence of them;
- ``ClaimsLike`` = four announced Weis values by seat, None for silence (R5.4a);
- ``CallLike`` = a :class:`StoeckCall` or ``(seat, after_play[, prompted])``,
  ``CallsLike`` a sequence of them or None; ``MeldLike`` = a :class:`Meld` or its cards.

Already-typed input takes a fast path: :func:`legal_cards`, :func:`trick_winner`
and :func:`card_points` given tuples of :class:`Card` (or a :class:`CardSet`
hand) and a :class:`Contract` skip the reading and build no objects; the answer
is the same. :class:`CardSet` is the public bitmask-level hand type:

>>> hand = CardSet("S7 H6 HA")
>>> hand.mask == 1 << 9 | 1 << 17 | 1 << 19, [c.index for c in hand]
(True, [9, 17, 19])
>>> legal_cards(tuple(hand), parse_cards("SK HQ"), Contract.H)
(Card('HA'), Card('S7'))

A round as it happens at the table is a :class:`Round` (:mod:`rules_core.round`):
``play``, ``announce``, ``call_stoeck`` and ``gather`` one action at a time, each
returning a frozen event, with ``legal()``, ``weis()``, ``stoeck``, ``score()`` and
``target()``; the functions above are its stateless view.

Results are immutable: :class:`WeisResult`, :class:`RoundScore` and
:class:`StoeckResult` refuse attribute assignment (their explanations are built
on first access and kept).

Command line referee: ``python -m rules_core --help`` (see :mod:`rules_core.cli`).
The benchmark lives outside the package: ``python -m bench.engine`` in a checkout.
"""

from ._play import ROUND_PLAYS
from .aliases import (
    CardLike,
    CardsLike,
    ClaimsLike,
    ContractLike,
    HandsLike,
    Mask,
    PlayLike,
    PlaysLike,
    RulesLike,
    Seat,
    Team,
)
from .cards import DECK, Card, Rank, Suit, card_name, parse_cards, rank_name, suit_name
from .cardset import CardSet
from .contracts import Contract, trump_name
from .errors import CardParseError, IllegalPlayError, RulesError
from .melds import (
    Comparison,
    Meld,
    MeldChoice,
    MeldKind,
    MeldLike,
    Step,
    best_meld,
    compare_melds,
    explain_best_meld,
    find_melds,
)
from .round import (
    ANNOUNCE_VALUES,
    FIRST_TRICK_GATHERED,
    Announced,
    Gathered,
    IllegalActionError,
    Played,
    Round,
    StoeckCalled,
    announce_deadline,
)
from .rules import DEFAULT_RULES, RuleSet
from .scoring import (
    Blocks,
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
from .stoeck import (
    CallLike,
    CallsLike,
    StoeckCall,
    StoeckReason,
    StoeckResult,
    check_stoeck,
    stoeck_holder,
)
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
    "ANNOUNCE_VALUES",
    "DECK",
    "DEFAULT_RULES",
    "FIRST_TRICK_GATHERED",
    "ROUND_PLAYS",
    "Announced",
    "Blocks",
    "CallLike",
    "CallsLike",
    "Card",
    "CardLike",
    "CardParseError",
    "CardSet",
    "CardsLike",
    "ClaimsLike",
    "Comparison",
    "Contract",
    "ContractLike",
    "Gathered",
    "HandsLike",
    "IllegalActionError",
    "IllegalPlayError",
    "LegalCards",
    "Mask",
    "Meld",
    "MeldChoice",
    "MeldKind",
    "MeldLike",
    "PlayLike",
    "Played",
    "PlaysLike",
    "Rank",
    "Round",
    "RoundScore",
    "RuleSet",
    "RulesError",
    "RulesLike",
    "Seat",
    "Step",
    "StoeckCall",
    "StoeckCalled",
    "StoeckReason",
    "StoeckResult",
    "Suit",
    "TargetResult",
    "Team",
    "TraceEntry",
    "TrickResult",
    "TrickWinner",
    "WeisResult",
    "announce_deadline",
    "best_meld",
    "card_name",
    "card_points",
    "check_stoeck",
    "stoeck_holder",
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
