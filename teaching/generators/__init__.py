"""Quiz question generators (issue 5): pure functions, seed in, question out.

No Django import here: the generators use :mod:`rules_core` and the round
builders of :mod:`teaching.scenarios`. Templates are written from this page.

API
===
- ``generate(kind, seed, rules=RuleSet()) -> Question``. Pure and deterministic:
  the same ``(kind, seed, rules)`` gives the same question in any process (the
  random stream is ``random.Random(f"{kind}:{seed}")``; nothing depends on
  ``hash()``). ``rules`` is a ``RuleSet``, a preset name or ``RuleSet.to_dict()``
  data; it is the caller's choice (a teacher's) and is never varied.
  ``seed % n`` picks what the question aims at (the ladder step, the Stöck
  reason, the deciding block, the hand type, the trick sub-type), so any run of
  consecutive seeds covers every case evenly.
- ``recompute(question) -> value``: the correct answer value, computed afresh
  from ``question.inputs`` and ``question.rules`` with rules_core only (a
  ``Question`` or its ``to_dict()`` data). A stored answer is right iff
  ``question.answer_value == recompute(question)``.
- ``recompute_under(question, rules) -> value``: the answer the same situation has
  under another rule set; where it differs from the question's answer, the answer
  depends on the rule set (a variant question).
- ``KINDS``: the kind names in teaching order; ``REGISTRY``: name -> ``Kind``
  (``name``, ``skill``: one line for a menu, ``build``, ``solve``, ``mistakes``,
  ``cases``); ``get_kind(name)``; ``MISTAKES``: kind -> every mistake name its
  questions may carry (the names are listed below; a feedback text per name is the
  site's job).
- ``case_of(question) -> str``: the case the generator aimed at for the question's
  seed, ``Kind.cases[seed % len(Kind.cases)]`` (the names are listed per kind below).
  A caller who wants a case draws a seed with that residue (``Kind.seeds_of(case)``):
  the lessons ask each lesson's own cases this way. Stored questions need nothing
  new: the case follows from their kind and seed. Where a custom rule set makes the
  seed's case impossible (a ``target`` smaller than one round brings leaves nobody
  short of it), the generator takes the next case that exists, the same for the
  same seed, and names it in ``prompt["case"]``, which ``case_of`` reads.
- Questions at a position given from outside (issue 25): ``announce.deadline_draft``
  (a first trick as played), ``trick.may_play_draft`` (a hand and a trick; the
  ``may_play`` sub-type, below) and ``jasstafel.jasstafel_draft`` (a whole round) build a
  kind's draft for a given situation with the kind's own slips;
  ``base.question_from_draft`` makes the question. :mod:`teaching.generators.positions`
  asks them at the moments of the table trainer's rounds (``position_questions``) and
  checks a stored one (``check_position``).
- ``QuizError``: a ``rules_core.RulesError`` (so a ``ValueError``) for an unknown
  kind (the message lists the kinds), a seed that is not an ``int``, or stored
  data that is not a question.

The Question
============
A frozen dataclass; every field is plain JSON data. ``q.to_dict()`` for a JSON
field, ``Question.from_dict(data)`` to rebuild it (equal to the original; checks
the shape and raises ``QuizError``). Helpers: ``q.value_of(key)``,
``q.answer_value``, ``q.is_correct(key)``, ``q.mistake_of(key)``,
``q.rule_set()``, ``q.public_dict()`` (without ``answer``, ``mistakes`` and
``explanation``: what a page may hold before the learner answers).

- ``kind``, ``seed``; ``rules``: ``RuleSet.to_dict()``.
- ``inputs``: the situation, enough to recompute the answer (formats below).
- ``prompt``: what a template needs to phrase the question (below). Every
  kind has ``prompt["preset"]``: the rule set's preset name, or None for a
  custom rule set.
- ``choices``: 3 to 5 ``{"key": "a".."e", "value": ...}`` in display order. The
  order is shuffled by the seed and keys are given after shuffling, so a key
  never tells which choice is right. Values are distinct; exactly one equals
  ``recompute(q)``. Nor do the values tell it (issue 12, item 6): which wrong
  choices are shown is drawn so that no strategy looking at the values alone (the
  middle one, the largest, the roundest, the team shown most often, a value
  remembered from earlier questions ...) beats a blind guess by more than 5
  points; ``tests/quizzes/test_choice_leakage.py`` checks it over 5,000 seeds per
  kind and preset. The means, per kind below: the answer's place among the choices
  sorted by their number is drawn first and evenly (``base.pick_around``), or the
  choices are a set in which each value is right equally often (a *chain*: the
  situation is dealt to fit whichever is right).
- ``answer``: the key of the correct choice. ``mistakes``: ``{key: mistake}`` for
  every other choice: each wrong choice is the answer of a common mistake, named
  below.
- ``explanation``: the rules_core trace as dicts ``{"rule", "key", "values",
  "decided"}``; the keys are documented in ``rules_core/trace.py``. The
  generators add two keys of their own: ``choice.no_meld`` (``weis_value``) and
  ``points.trick`` (``trick``/``points``), see below.
- ``rules_tested``: rule IDs of RULES.md, in document order (``["R5.5"]``).

Shared conventions: cards are codes (``"H7"``, ``"S10"``, ``"DJ"``), hands
and card lists in deck order (suits D H S C, 6 up to A) unless they are play
order; contracts are ``"D" "H" "S" "C" "obenabe" "undenufe"``; seats are 0-3
in playing order from forehand, team = seat % 2 (R2.1); ``plays`` are
``[seat, card]`` in the order played, seat 0 leading the first trick;
``calls`` are ``[seat, after_play, prompted]`` (a Stöck call after
``plays[after_play]``, ``prompted`` when a partner's reminder came first).
Points in answers are written points (after the contract's factor, R4.5) except
in ``weis_value``, where the announcement is a meld's value.

Kinds
=====

``basics``: the Puur and the Nell (R1.3), and the four players (R2.1-R2.3)
---------------------------------------------------------------------------
- ``seed % 10`` picks the sub-type (``inputs["sub"]`` = ``prompt["sub"]``): 0 and 1
  ``trump_name``, 2-9 ``seat`` (see :mod:`teaching.generators.basics`). Cases:
  ``puur``, ``nell``, ``partner`` (4 of 10), ``chooser``, ``first_lead``,
  ``next_vorhand``, ``last_to_play``.
- ``trump_name``: inputs ``{"sub", "contract": a suit code, "name": "Puur" | "Nell"}``;
  prompt ``{"sub", "preset", "name"}``; value ``{"card": code}`` (rules_core's
  ``trump_name``). Four choices: the Under and the 9 of the trump suit and of one
  other suit. Mistakes: ``puur_nell_swapped``, ``trump_suit_ignored``,
  ``puur_nell_swapped_outside_trump``. Explanation: ``basics.trump_name`` (R1.3).
- ``seat``: inputs ``{"sub", "question", "asked"}`` with ``question`` one of
  ``partner`` (of seat ``asked``), ``chooser`` (after the Vorhand pushes),
  ``first_lead``, ``next_vorhand``, ``last_to_play`` (in a trick the Vorhand leads);
  prompt ``{"sub", "preset", "question", "asked"}``; value ``{"seat": 0-3}``. The
  four seats are always the four choices, each the answer twice in ten seeds.
  Mistakes: ``own_seat_named``, ``neighbour_taken_for_partner``,
  ``vorhand_chooses_after_pushing``, ``next_player_chooses``, ``last_player_chooses``,
  ``next_player_leads``, ``chooser_leads``, ``last_player_leads``, ``vorhand_stays``,
  ``partner_becomes_vorhand``, ``vorhand_passes_backwards``, ``leader_plays_last``,
  ``turn_order_confused``. Explanation: one ``basics.<question>`` entry (R2.1, R2.2
  or R2.3; values ``asked``, ``seat``).

``weis_value``: what does the player announce? (R5.1-R5.4; R5.3, R5.5 when they apply)
-------------------------------------------------------------------------------------
- inputs: ``{"hand": [9 cards], "contract": code}``
- prompt: ``{"preset"}``
- value: ``{"points": int}``: the value of the hand's best meld, before any
  factor (announcements are values, R5.4); 0 when the hand has no meld.
- three choices. ``seed % 6`` picks the case, ``single_sequence``, ``several_melds``,
  ``kreuzweis``, ``four_of_a_kind``, ``low_quads`` or ``no_meld``.
  ``single_sequence``, ``several_melds``, ``four_of_a_kind``, ``no_meld``: these four
  are dealt as a chain of two features, each a real meld or its look-alike (a
  sequence, or as many cards with gaps, or 10-Ober-King; four of a kind, or three),
  with the choices 0, the lower feature's value and the higher one's; a third of the
  hands have no meld, a third the lower one, a third both (two melds). ``kreuzweis``
  (a four of a kind and a run of 4-6 sharing a card, R5.3) and ``low_quads`` (four
  6s/7s/8s, alone or with a run of four: 100, or nothing with
  ``low_quads_score=False``) have the answer's place drawn among the places their
  mistakes reach; near misses (three 9s or Unders, a run with a gap, 10-Ober-King) are
  planted to give more.
- mistakes: ``sum_of_melds``, ``kreuzweis_four_of_a_kind_missed``,
  ``kreuzweis_sequence_missed``, ``low_quads_counted`` (under W-EN rules),
  ``low_quads_not_counted`` (under the default), ``gap_in_sequence``,
  ``under_left_out_of_order`` (10-Ober-King read as a run, W-EN's slip),
  ``three_of_a_kind_counted``, ``puur_and_nell_fours_swapped``,
  ``every_four_of_a_kind_is_100``, ``four_cards_read_as_sequence`` (50),
  ``run_counted_one_card_too_long``, ``card_points_counted`` (the meld's card
  points, rarely), ``factor_applied_to_announcement`` (rarely), ``meld_overlooked``
  (a meld of the hand not seen: 0, or the lower meld).
- explanation: ``choice.meld`` per meld (best first) and the ``ladder.*`` steps
  between the best and the runner-up (``explain_best_meld``); for a hand without
  a meld one ``choice.no_meld`` entry (made here; rule R5.4; values ``hand``,
  ``low_quads_score``).

``announce``: announcing Weis at the first trick (R5.4, R5.4a, R5.4b; R5.5, R5.6)
------------------------------------------------------------------------------------
See :mod:`teaching.generators.announce`. ``seed % 7`` picks the case (``cases``:
``in_time``, ``all_announce``, ``next_card_played``, ``silent_partner``,
``trick_gathered``, ``smaller_claim``, ``late_claim``); the first trick is played
with legal cards, the Vorhand leading, so a seat is also its place in the trick.
``announcements`` are ``[seat, value said, after]``, ``after`` the index of the play
the announcement followed (4: after the trick was gathered), in the order spoken.

- ``deadline`` (cases ``in_time``, ``next_card_played``, ``trick_gathered``): does
  the announcement of Player ``asked`` count? inputs ``{"sub", "contract", "plays"
  (the first trick), "announcements", "asked": seat}``; prompt ``{"sub", "preset",
  "asked"}``; value ``{"deadline": "in_time" | "next_card_played" |
  "trick_gathered"}`` (``announce.deadline_of``: until the next player has played;
  the last player of the trick until it is gathered). The three values are always
  the three choices, each right in one case of three. Mistakes:
  ``deadline_thought_earlier``, ``late_announcement_counted``,
  ``gathering_deadline_for_everybody``, ``gathered_trick_counted``,
  ``last_player_deadline_confused``. Explanation: one ``announce.deadline`` entry
  (R5.4; values ``seat``, ``after``, ``deadline``).
- ``writes`` (cases ``all_announce``, ``silent_partner``, ``smaller_claim``,
  ``late_claim``): which team writes Weis, and how much, when the announced values
  are compared? inputs ``{"sub", "hands": [4 x 9 cards], "contract", "plays",
  "announcements"}``; prompt ``{"sub", "preset", "factor", "melds": per seat
  [[cards of a meld], ...]}``; value ``{"team": 0 | 1 | None, "points": int}``
  after the factor (``rules_core.resolve_weis(..., claims=...)``: each claim is the best meld of the
  announced value, R5.4a; the team with the best claim writes every meld of its
  players who announced in time, R5.6, R5.4b). The deal is the same plan in every
  case and only the announcements differ, so the four choices (each team's melds
  with and without a partner's) are each right in a quarter of the questions.
  Mistakes: ``announcing_partner_left_out``, ``silent_partner_counted``,
  ``other_team_claim_wins``, ``held_meld_compared`` (the best held meld compared
  instead of the claim), ``late_announcement_counted``. Explanation:
  ``announce.seat`` x4 (R5.4, or R5.4b for a silent player with melds; values
  ``seat``, ``team``, ``said``, ``after``, ``deadline``, ``claim``, ``melds``),
  ``announce.team_best`` x2 (R5.4a), ``ladder.*`` (or ``announce.only_team`` /
  ``announce.no_claims``), ``announce.writes`` (R5.6; values ``team``,
  ``points``, ``factor``, ``scored``, ``melds`` written with their seats,
  ``silent``: the writing team's silent players with melds).

``who_writes``: which team writes Weis, and how much? (R5.4-R5.6, R4.5; R5.3)
--------------------------------------------------------------------------------
- inputs: ``{"hands": [4 x 9 cards by seat], "contract": code}`` (a full deal)
- prompt: ``{"preset", "factor": int, "melds": [per seat: [[cards of a meld], ...]]}``;
  ``melds`` lists every scoring meld of each seat, for highlighting in the hands
  (a template may show or hide them).
- value: ``{"team": 0 | 1 | None, "points": int}``: the writing team and all
  its melds' points after the factor (``resolve_weis``'s ``team``, ``scored``).
- ``seed % 6`` picks the case: ``small_melds_lose`` (the losing team's melds sum to more
  than the winner's single better meld), ``partners_both_meld``, ``kreuzweis``
  (in the writing team), ``undenufe`` (HIGH_CARD decides and the reversal
  matters), ``factor`` (a contract with a factor > 1 when the rule set has one),
  ``ladder_tie`` (TRUMP or SEAT decides).
- four choices, the answer's place among them by points drawn first (by category:
  a single meld has few slips that count less). Mostly the writing team's melds
  counted wrongly; the other team writing its own melds in a fifth of the questions
  without a factor (a team shown once beside three of the other is a small clue);
  near misses are planted in the writing team's hands.
- mistakes: ``team_with_more_points_writes`` / ``losing_team_writes`` (the other
  team and its melds), ``both_teams_added``, ``best_meld_only``,
  ``partner_melds_forgotten`` (only the best meld's holder's melds),
  ``announced_values_only`` (each partner's best meld only),
  ``kreuzweis_counted_once``, ``undenufe_order_wrong``, ``factor_forgotten``,
  ``wrong_team_at_tie``, ``tie_nobody_writes`` (``{"team": None, "points": 0}``),
  ``run_counted_one_card_too_long`` / ``run_counted_one_card_too_short`` (the best
  sequence), ``three_of_a_kind_counted``, ``gap_in_sequence`` (a near miss read as
  a meld and written).
- explanation: ``weis.seat`` x4, ``weis.team_best`` x2, ``ladder.*`` (or
  ``weis.only_team``), ``weis.writes``.

``ladder_step``: which step decides, and who wins? (R5.5)
----------------------------------------------------------
- inputs: ``{"melds": [{"seat": int, "cards": [...]}, {"seat": int, "cards": [...]}],
  "contract": code}``; two players of different teams, lower seat first.
- prompt: ``{"preset"}``
- value: ``{"step": "points" | "cards" | "high_card" | "trump" | "seat",
  "winner": seat}`` (the seat of the winning meld).
- ``seed % 9`` picks the step and whether the first or the second meld wins (at SEAT
  always the first); the case is the step's value: POINTS (often the loser has more
  cards), CARDS (a five-card run against four of a kind of 100), HIGH_CARD (natural
  order in trump contracts and Obenabe, reversed in Undenufe by default; runs and
  fours of a kind; a trump run that loses at HIGH_CARD), TRUMP, SEAT
  (Obenabe/Undenufe, or two runs outside the trump suit).
- four or five choices drawn at random among the nine (step, winner) values that
  can be right, so each shown value is right equally often; each is a mistake's
  answer (the most telling one that gives it).
- mistakes: ``wrong_winner``, ``later_step_named``, ``earlier_step_named``,
  ``later_step_and_wrong_winner``, ``earlier_step_and_wrong_winner``,
  ``deciding_step_skipped`` (the ladder walked on past the deciding step),
  ``more_cards_win_first``, ``four_of_a_kind_beats_sequence``,
  ``undenufe_order_wrong``, ``trump_before_high_card``, ``trump_step_forgotten``,
  ``later_seat_wins``.
- explanation: the ``ladder.*`` entries of ``compare_melds`` (side a = the first
  meld of ``inputs["melds"]``).

``stoeck``: scored, lost (why), still possible, or no Stöck at all? (R6.1-R6.5)
---------------------------------------------------------------------------------
- inputs: ``{"hands": [4 x 9 cards], "contract": code, "plays": [[seat, card], ...],
  "calls": [[seat, after_play, prompted], ...]}``: a round excerpt (``plays``
  may stop before the round ends).
- prompt: ``{"preset", "pair": [king, ober] (the two cards at issue), "seat":
  the seat in focus (the holder, or for a split pair the player of the second
  card), "complete": bool (all 36 cards played)}``.
- value: ``{"status": "none" | "pending" | "scored" | "lost", "reason":
  StoeckReason value}``: ``none``/``no_trump_contract``,
  ``none``/``not_held_by_one_player``, ``pending``/``second_card_not_played``,
  ``pending``/``still_possible``, ``scored``/``valid``, ``lost``/``not_declared``,
  ``lost``/``declared_at_first_card``, ``lost``/``too_late``, ``lost``/``prompted``.
- ``seed % 9`` picks the reason (every reason in one question of nine); the case is
  the reason's value.
- the choices are one of eight sets of 3-5 reasons (``stoeck._SHOWN``), drawn so
  that each reason of a set is right about equally often.
- mistakes: ``late_call_counted``, ``prompted_call_counted``,
  ``first_card_call_counted``, ``stoeck_counted_without_call``,
  ``stoeck_in_no_trump_contract`` (Obenabe/Undenufe judged as if K+Q were Stöck),
  ``split_pair_counted`` (K and Q of two partners judged as one Stöck),
  ``split_pair_read_as_lost``, ``no_trump_read_as_lost``, ``deadline_misread``,
  ``call_thought_still_open``, ``call_thought_too_late``,
  ``call_belongs_to_first_card``, ``call_expected_at_first_card``,
  ``prompt_read_as_late``, ``call_overlooked``, ``holder_overlooked``,
  ``reason_confused``, ``trump_suit_overlooked`` (read as no Stöck for want of a
  trump), ``right_status_wrong_reason`` (lost, or still open, for another reason).
- explanation: ``stoeck.contract``, ``stoeck.holder``, ``stoeck.cards_played``,
  ``stoeck.call`` per call, ``stoeck.result``.

``target``: which team wins, in which block, or nobody yet? (R7.1-R7.5)
------------------------------------------------------------------------
- inputs: ``{"hands", "contract", "plays" (all 36), "calls", "before": [team 0,
  team 1], "target": int}``.
- prompt: ``{"preset", "target", "before", "factor", "blocks": [{"weis",
  "stoeck", "tricks"} for team 0, for team 1] (written points), "tricks":
  [{"index": 0-8, "team", "points"} in the order won]}``; the counting order is
  the rule set's ``target_order`` (``q.rules["target_order"]``).
- value: ``{"team": 0 | 1 | None, "block": "weis" | "stoeck" | "tricks" | None}``.
- ``seed % 4`` picks the case ``weis``, ``stoeck``, ``tricks`` or ``nobody``, under whatever
  block order the rule set has; where possible the other team would reach the
  target later in the round, and in ``nobody`` rounds the team that lost the
  Weis would reach it by counting its melds.
- the choices: "nobody yet" and 2-4 (team, block) values drawn at random, so that
  each shown value is right equally often (see ``target._choose``).
- mistakes: ``most_points_wins``, ``tricks_counted_first``, ``wrong_block_order``
  (Weis and Stöck swapped), ``tricks_not_counted_in_order`` (each tricks block
  counted at once, R7.4), ``target_must_be_exceeded`` (> instead of >=),
  ``later_reacher_wins``, ``losing_team_weis_counted``, ``target_reach_overlooked``
  ("nobody yet" when a team wins), and otherwise ``team_or_block_confused``.
- explanation: ``target.start``, ``target.block`` / ``target.trick`` in counting
  order, ``target.not_reached``.

``jasstafel``: what does a team write for this round? (R7.1; R4.4, R4.5, R5.6, R6.5)
------------------------------------------------------------------------------------
See :mod:`teaching.generators.jasstafel`.

- inputs: ``{"hands", "contract" (a trump suit), "plays" (all 36), "calls",
  "team": the team asked about}``.
- prompt: ``{"preset", "team", "factor", "weis_team", "weis_points" (before the
  factor), "stoeck_seat" (the holder), "stoeck_status", "stoeck_reason",
  "tricks": [{"index", "winner": seat, "team", "points": card points}]}``: what the
  page shows, all from ``score_round``.
- value: ``{"points": int}``: the team's Weis, Stöck and tricks blocks together,
  after the factor (``score_round(...).totals[team]``).
- ``seed % 4`` picks ``neither``, ``stoeck``, ``weis``, ``both``: which blocks
  besides its tricks the team writes (the other team's Weis, or Stöck lost or the
  other team's, count nothing for it). The four choices are always the tricks block
  plus nothing, the Stöck, the Weis or both, each right in one case of four.
- mistakes: ``stoeck_counted_wrongly``, ``other_team_weis_counted``,
  ``stoeck_forgotten``, ``weis_block_forgotten``.
- explanation: ``jasstafel.tricks`` (R4.4; every trick's team, card points,
  bonuses and written points, the match, the factor) and ``jasstafel.blocks``
  (R7.1; both teams' blocks and totals, the Weis team, the Stöck result).

``trick``: trick play (``seed % 3`` picks the sub-type, which is the case;
``inputs["sub"]`` = ``prompt["sub"]``)
------------------------------------------------------------------------------------
``legal``: which cards may this player play? (R3.1-R3.5)

- inputs: ``{"sub": "legal", "hand": [2-4 cards], "trick": [1-3 cards in play
  order], "contract", "leader": seat}``
- prompt: ``{"sub", "preset", "leader", "seat": the player to play}``
- value: ``{"cards": [the legal cards, deck order]}``
- three choices, the answer's place among them by number of cards drawn first; hands
  of at most four cards.
- mistakes: ``under_trump_allowed``, ``plain_order_for_trumps`` (Puur and Nell
  ranked like a plain J and 9), ``puur_exception_forgotten``,
  ``puur_exception_misapplied`` (Puur held with other trumps), ``puur_may_not_be_played``,
  ``only_trumps_exception_forgotten`` (a hand of only trumps must over-trump),
  ``only_trumps_exception_forgotten_and_plain_order``, ``trumping_needs_void``
  (R3.2 forgotten),
  ``must_trump_when_void``, ``trump_lead_need_not_be_followed``,
  ``must_beat_the_trick``, ``any_card_allowed``.
- explanation: one ``play.*`` verdict per card of the hand.

``may_play``: which of these three cards may this player play? (R3.1-R3.5) Never
generated from a seed: only at a table position (issue 25,
:func:`teaching.generators.trick.may_play_draft`), where a played round gives the hand.

- inputs: ``{"sub": "may_play", "hand": [the player's cards], "trick": [1-3 cards in
  play order], "contract", "leader": seat, "offered": [the three cards, deck order]}``
- prompt: as ``legal`` (plus ``case: "legal"`` and ``table``, see positions).
- value: ``{"card": code}``, the one offered card that may be played.
- three choices of three suits and three ranks; the right card's place among them by
  rank is drawn first (by the caller).
- mistakes: the ``legal`` ones: each card that may not be played is named after the
  first of them that allows it.
- explanation: one ``play.*`` verdict per offered card.

``winner``: which card wins this trick? (R3.6)

- inputs: ``{"sub": "winner", "trick": [4 cards in play order], "contract", "leader"}``
- prompt: ``{"sub", "preset", "leader", "seats": [the seat of each card]}``
- value: ``{"card": code}``
- the choices are the four cards of the trick (four ranks); the winner's place among
  them by rank and whether it is an Under or a 9 are drawn first, tricks are drawn
  until one fits.
- mistakes: ``plain_order_for_trumps``, ``trump_ignored``, ``highest_rank_wins``
  (suits ignored), ``obenabe_undenufe_swapped``, ``first_trump_wins``,
  ``card_cannot_win`` (a card no such reading makes the winner).
- explanation: ``trick.winner``.

``points``: how many points is this trick worth? (R4.1-R4.5)

- inputs: ``{"sub": "points", "trick": [4 cards], "contract", "leader", "index":
  0-8 (8 = the last trick)}``
- prompt: ``{"sub", "preset", "leader", "trick_number": 1-9, "last": bool, "factor"}``
- value: ``{"points": int}`` = (card points + 5 on the last trick) x factor; the
  match bonus is not part of one trick.
- trump contracts: a chain, an Under and a 9 with none, one or both of them
  trump, three choices; Obenabe/Undenufe: 3-4 choices, the answer's place drawn
  first. The last trick's 5 and the factor are among the mistakes rarely (their
  answers would pair with the answer).
- mistakes: ``last_trick_bonus_forgotten``, ``last_trick_bonus_added``,
  ``factor_forgotten``, ``trump_values_as_plain``, ``plain_values_as_trump`` (also
  in Obenabe/Undenufe: an Under or 9 counted like the Puur or Nell),
  ``obenabe_undenufe_values_swapped``, ``eights_not_counted``.
- explanation: ``points.card`` per card, then ``points.trick`` (made here; rule
  R4.4, or R4.5 with a factor; values ``cards``, ``card_points``,
  ``last_trick_bonus``, ``factor``, ``points``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_core import DEFAULT_RULES, RulesError, RuleSet

from .announce import ANNOUNCE
from .base import (
    MAX_CHOICES,
    MIN_CHOICES,
    ChoiceValue,
    Kind,
    Question,
    QuizError,
    Retry,
    plain,
    question_from_draft,
)
from .basics import BASICS
from .jasstafel import JASSTAFEL
from .stoeck import STOECK
from .target import TARGET
from .trick import TRICK
from .weis import LADDER_STEP, WEIS_VALUE, WHO_WRITES

__all__ = [
    "ChoiceValue",
    "KINDS",
    "MISTAKES",
    "MAX_CHOICES",
    "MIN_CHOICES",
    "REGISTRY",
    "Kind",
    "Question",
    "QuizError",
    "case_of",
    "generate",
    "recompute_under",
    "get_kind",
    "recompute",
]

REGISTRY: dict[str, Kind] = {
    k.name: k
    for k in (
        BASICS,
        WEIS_VALUE,
        ANNOUNCE,
        WHO_WRITES,
        LADDER_STEP,
        STOECK,
        TARGET,
        JASSTAFEL,
        TRICK,
    )
}
"""The question kinds by name, in teaching order."""

KINDS: tuple[str, ...] = tuple(REGISTRY)
"""The names of the question kinds, in teaching order."""

MISTAKES: dict[str, tuple[str, ...]] = {name: kind.mistakes for name, kind in REGISTRY.items()}
"""Every mistake name each kind's questions may carry (for feedback texts)."""

MAX_ATTEMPTS = 500


def get_kind(kind: str) -> Kind:
    """The registry entry of ``kind``; :class:`QuizError` for an unknown kind."""
    if not isinstance(kind, str) or kind not in REGISTRY:
        raise QuizError(f"unknown question kind {kind!r}; choose one of: {', '.join(KINDS)}")
    return REGISTRY[kind]


def _rule_set(rules: object) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    if isinstance(rules, Mapping):
        return RuleSet.from_dict(rules)
    raise QuizError(
        "rules must be a RuleSet, a preset name or RuleSet.to_dict() data, "
        f"got {type(rules).__name__}"
    )


def generate(
    kind: str, seed: int, rules: RuleSet | str | Mapping[str, Any] = DEFAULT_RULES
) -> Question:
    """The question of ``kind`` for ``seed`` under ``rules``: pure and deterministic.

    The same ``(kind, seed, rules)`` always gives the same question, in any
    process (the random stream is ``random.Random(f"{kind}:{seed}")``; nothing
    depends on ``hash()``). ``rules`` is a :class:`RuleSet`, a preset name or
    ``RuleSet.to_dict()`` data. Raises :class:`QuizError` (a ``RulesError``, so a
    ``ValueError``) for an unknown kind or a seed that is not a whole number.
    """
    spec = get_kind(kind)
    if type(seed) is not int:
        raise QuizError(f"seed must be a whole number, got {seed!r}")
    rule_set = _rule_set(rules)
    rng = random.Random(f"{kind}:{seed}")
    for _attempt in range(MAX_ATTEMPTS):
        try:
            return question_from_draft(kind, seed, rule_set, spec.build(rng, seed, rule_set), rng)
        except Retry:
            continue
    raise QuizError(  # pragma: no cover - every builder succeeds long before this
        f"could not build a {kind} question for seed {seed}"
    )


def case_of(question: Question | Mapping[str, Any]) -> str:
    """The case the generator of ``question`` aimed at for its seed (see ``Kind.cases``).

    >>> case_of(generate("trick", 0)), case_of(generate("trick", 4))
    ('legal', 'winner')
    >>> case_of(generate("ladder_step", 4))
    'high_card'
    """
    data: Mapping[str, Any] = (
        {"kind": question.kind, "seed": question.seed, "prompt": question.prompt}
        if isinstance(question, Question)
        else question
    )
    kind, seed = data.get("kind"), data.get("seed")
    if type(seed) is not int:
        raise QuizError(f"seed must be a whole number, got {seed!r}")
    spec = get_kind(str(kind))
    prompt = data.get("prompt")
    taken = prompt.get("case") if isinstance(prompt, Mapping) else None
    return taken if taken in spec.cases else spec.case_of(seed)


def recompute(question: Question | Mapping[str, Any]) -> ChoiceValue:
    """The correct answer value of a (stored) question, computed afresh from its
    ``inputs`` and ``rules`` with rules_core only, never from its stored answer.

    Raises :class:`QuizError` when the inputs cannot be read, and rules_core's
    :class:`RulesError` when they break a rule.
    """
    if not isinstance(question, Question):
        question = Question.from_dict(question)
    spec = get_kind(question.kind)
    rules = RuleSet.from_dict(question.rules)
    try:
        value: ChoiceValue = plain(spec.solve(question.inputs, rules).value)
    except RulesError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise QuizError(
            f"cannot read the inputs of this {question.kind} question: {err!r}"
        ) from None
    return value


def recompute_under(
    question: Question | Mapping[str, Any], rules: RuleSet | str | Mapping[str, Any]
) -> ChoiceValue:
    """The answer value of the situation of ``question`` under ``rules`` instead of its
    own rule set (rules_core only). Where it differs from the question's answer, the
    answer depends on the rule set.

    >>> q = generate("weis_value", 4, "w-en")  # a low_quads question: four 6s, 7s or 8s
    >>> q.answer_value != recompute_under(q, "default")
    True

    Raises like :func:`recompute`; also rules_core's :class:`RulesError` when the
    situation is no question under ``rules`` (a four of a kind that scores nothing).
    """
    if not isinstance(question, Question):
        question = Question.from_dict(question)
    data = question.to_dict()
    data["rules"] = _rule_set(rules).to_dict()
    return recompute(data)
