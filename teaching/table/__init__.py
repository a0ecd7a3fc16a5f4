"""The table trainer's referee (issue 14): a round at a table of four, judged move by move.

Pure and Django-free: it imports :mod:`rules_core` and the standard library only. A
round is a :class:`Scenario` (built from a focus, a seed and a rule set) plus an
append-only log of moves (plain JSON objects); :func:`referee` replays the log with
the three site players around the learner and returns a :class:`Table` with every
hand, trick, announcement, call and one :class:`Judgement` per learner decision.
Anyone can store ``scenario.to_dict()`` and the moves, and replay and re-judge them
later, without the site.

Typed end to end (issue 23): each JSON move is parsed once into a frozen move
(:class:`PlayMove`, :class:`StoeckMove`, :class:`AnnounceMove`, :class:`WritesMove`,
:class:`JasstafelMove`; :func:`parse_move`, ``to_dict()`` gives the same JSON back);
a judgement's ``given``, ``expected`` and ``verdict`` are small frozen values, one
type per kind (:mod:`teaching.table.judgements`), and :func:`learner_view` returns a
frozen :class:`LearnerView`. Their ``to_dict()`` is the JSON described below, which
is what it was when they were dicts (``tests/teaching/test_table_corpus.py`` replays
rounds stored before the change). Attributes count from 0 (seats, teams, tricks);
only the JSON of what the learner types (``writes``, ``jasstafel``, and the
``given``/``expected`` that repeat it) counts teams and tricks from 1.

The modules, each importing only those below it (an import-linter contract):
``build`` (scenarios), ``view`` (the learner's view), ``replay`` (the referee),
``scoring``, ``result`` (:class:`Table`, :class:`TableScore`), ``judgements``,
``moves``, ``bots``, ``model`` (vocabularies, :class:`Scenario`, the table's parts).

API
===
- ``build_scenario(focus, seed, rules=None) -> Scenario``: deterministic from
  ``(focus, seed, rules)``; the random stream is ``random.Random(f"table:{focus}:{seed}")``
  (the rule set does not change the stream, only which candidates pass). ``rules``:
  a ``RuleSet``, a preset name, ``RuleSet.to_dict()`` data or None (default).
  Cached (the scenario is frozen; do not mutate its ``aim`` dict).
- ``referee(scenario, moves) -> Table``: pure and deterministic (equal inputs give
  equal tables; no clock, no randomness). Raises ``TableError`` for a bad log.
- ``replay_state(scenario, moves) -> RefereeState`` and ``step(state, move)``: the same
  referee one move at a time, for a caller that keeps the state between moves (the
  site caches it). ``referee`` is ``replay_state(...).table()``, which is ``step``
  applied to each move in turn, so a kept state stepped once equals the full replay.
  ``step`` changes the state in place (like python-chess's ``Board.push``); after a
  ``TableError`` the state is spoiled. The state pickles (a snapshot is
  ``pickle.dumps(state)``).
- ``learner_view(table) -> LearnerView``: only what the learner may know now.
- ``score(table) -> TableScore``: the written score once the nine tricks are played.
- ``reference_move(table) -> dict``: the next move of the reference learner as JSON (never
  judged wrong, see below); for tests, benchmarks and "show me" buttons.
- ``announce_strict(rules) -> bool``: True for the ``w-en`` preset (see announcements).
- Constants: ``FOCUSES``, ``KINDS``, ``SKILLS``, ``OUTCOMES``, ``PHASES``,
  ``ANNOUNCE_VALUES`` (20 50 100 150 200 250 300), ``BLOCKS`` (weis stoeck tricks).
- ``TableError``: a ``rules_core.RulesError`` (so a ``ValueError``) with a readable
  English message: bad JSON shape, unknown key, a card not held, a move out of phase,
  a move after the round is over, a bad scenario. The referee raises nothing else for
  any input; the site refuses a log that raises and keeps the round unchanged. Besides
  the message it carries ``code`` and ``params`` (plain JSON; cards as codes, seats
  0-based, ``move`` the 0-based index of the refused move), so a page words the
  refusal in its own language (see "Refusals" below).

Numbers
=======
Inside, everything is 0-based like ``rules_core``: seats 0-3 in playing order from the
Vorhand (seat 0 leads the first trick), team = seat % 2, trick indices 0-8, play
indices 0-35 (the order cards were played). This holds for the Table, the view and
every ``verdict``. Only what the learner types is 1-based: the teams (1 = players 1
and 3, 2 = players 2 and 4) and the trick number in ``writes`` and ``jasstafel``
moves, and the ``given``/``expected`` of those judgements, which repeat the move's
format. Pages add 1 to seats, teams and tricks when they show them. Cards are codes
(``"H7"``, ``"S10"``); hands are in deck order (D H S C, 6 up to A); points are
written points (after the contract's factor, R4.5) except announced values and
``card_points`` (before any factor).

Focuses (what ``build_scenario`` aims at, and checks with rules_core)
======================================================================
Each focus draws candidates from the stream and keeps the first that passes its check
(up to 400). The contract is drawn from all six unless said; the learner's seat is
drawn 0-3 unless said.

- ``stoeck``: a trump contract; the learner holds trump King and Ober. With an odd
  seed ``reminder`` is true: the partner says «Denk an die Stöck!» before the
  learner's second Stöck card (R6.4). ``aim``: ``{"pair": [king, ober]}``.
- ``weis``: two players of different teams get planted melds of equal value (two
  three-, four- or five-card sequences, a five-card sequence and four of a kind of
  100, or two fours of a kind of 100); kept when ``resolve_weis`` finds both teams'
  best melds equal in points. ``aim``: ``{"value", "step"}`` (the deciding step).
- ``kreuzweis``: the learner holds four of a kind and a sequence sharing a card
  (R5.3), both scoring under the rule set, and the learner's team writes Weis.
  ``aim``: ``{"four_of_a_kind": rank, "sequence": [cards]}``.
- ``undenufe``: Undenufe, with planted equal melds of two teams decided at step
  ``high_card`` (reversed by default, natural under ``w-en``, R5.5). ``aim`` as weis.
- ``target_weis``, ``target_stoeck``, ``target_tricks``: a random deal (for Stöck a
  trump contract with the pair planted with a site player, so the learner cannot
  lose it) is played to the end by the reference learner; ``before`` is then placed so
  that one team crosses the target inside that block (R7.3), the other team crossing
  later in the round where it can (for ``tricks`` always: both teams cross during the
  tricks, R7.4); checked with ``resolve_target_blocks``. ``aim``: ``{"team", "block",
  "trick" (index or None), "other": {"block", "trick"} or None}``. A learner who plays
  other cards plays another round: the judgement always follows the actual play.
- Every other focus gets ``before`` totals from which no team can reach the target
  in this round however it is played (below target - factor x (257 + 20 + all melds
  of the deal), or failing that, per team, below target - factor x (257 + the Stöck
  if one of its players holds them + every meld of its players)), so the target
  question answers "nobody" (R7.5). This promise cannot hold when the rule set lets
  a team reach the target from 0 in the round dealt: its factor times what it can
  write (a match alone is 257) is the target or more (for example factor 6 and
  target 1500, or any target up to 257). The builder then tries
  ``REACHABLE_TRIES`` (20) more candidates (another contract, another deal) for one
  that keeps it; without one, ``before`` is ``[0, 0]`` and ``aim`` says
  ``"target_reachable": true``: a team may reach the target in this round, and the
  target question is judged on the actual score like every other.

Scenario (``Scenario.to_dict()``; ``Scenario.from_dict`` reads it back, equal)
==============================================================================
``{"focus", "seed", "rules": RuleSet.to_dict() (from_dict also takes a preset name),
"preset": name or None (ignored by from_dict), "contract": "D"|"H"|"S"|"C"|"obenabe"|
"undenufe", "hands": [4 x 9 codes by seat], "seat": the learner's seat 0-3, "before":
[team 0, team 1] totals before the round (each below the target), "target": int
(the rule set's), "reminder": bool, "aim": {...} (what the builder checked; never in
the view)}``.

Moves (a list of JSON objects, appended one per learner action)
=================================================================
- ``{"play": "H7"}``, optionally with ``"announce": 0 | null | 20 | 50 | ... | 300``
  and ``"stoeck": true | false``: a card. The announcement is the one made with the
  learner's first card (the first trick); a value > 0 with a later card is a late
  announcement. ``stoeck: true`` is «Stöck!» said together with the card.
- ``{"stoeck": true}``: «Stöck!» on its own, after the last card on the table.
- ``{"announce": 50}``: an announcement on its own, after the learner's first card:
  always late (refused before the learner's first card: announce with the card).
- ``{"writes": {"team": 1 | 2 | null, "points": int}}``: at the second trick, which
  team writes Weis and how much (written points, after the factor; null and 0 when
  nobody writes).
- ``{"jasstafel": {"blocks": {"1": {"weis", "stoeck", "tricks"}, "2": {...}},
  "target": {"team": 1 | 2 | null, "block": "weis"|"stoeck"|"tricks"|null, "trick":
  1-9 | null}}}``: at the end; ``trick`` only (and always) with the tricks block;
  team and block both null when nobody reaches the target. Team keys may be ints.
Unknown keys, other combinations, wrong types, a card not held, or a move in the
wrong phase raise ``TableError``.

The flow, and the phases
========================
The site's players play at once until the learner must act; the table is then in a
``phase``: ``play`` (the learner's card; ``Table.legal`` lists the legal cards, the
view does not), ``writes`` (right after the first trick is gathered, before the
first card of the second trick: the writing team's melds are ``shown``; always asked,
also when nobody announced: then nobody writes, ``null`` and 0), ``jasstafel``
(all nine tricks played) and ``done``. A trick is gathered the moment its fourth
card lies, and the next player plays at once. So the moment to announce and to say
«Stöck!» is with the card: an announcement or call on its own always comes after
the next card, or after the trick was gathered.

The site's players (deterministic, always legal)
=================================================
- Card: among ``rules_core.legal_cards``, when the partner is not already winning
  the trick, the cheapest card that wins it; otherwise (partner winning, leading, or
  no card wins) the cheapest card. Cheapest: fewest card points (R4.1-R4.3), then
  the weakest in the trick order (R3.6; any non-trump is weaker than a trump), then
  deck order.
- Weis: with their first card each announces the value of their best meld
  (``rules_core.best_meld``, R5.4), or nothing without a meld.
- Stöck: the holder says «Stöck!» with the second of trump King and Ober (R6.2).
- The reference learner (``reference_move``) plays the same card policy, announces
  its best meld, says «Stöck!» with the second Stöck card, and gives the right
  ``writes`` and ``jasstafel``; every judgement of its moves is right or info.

The exchange at equal values (W-DE's table phrases, R5.4, R5.4a)
================================================================
A player's claim is the announced value and the meld it stands for: the best meld of
that value in the player's hand (R5.4a), also when the player holds a bigger one.
The best claim so far is the first highest value announced (between partners the
better claim takes it silently). When a player announces the same value as the best
claim of an opponent, an exchange is recorded in ``Table.exchanges``: ``{"play": the
play index of the second announcement, "seats": [first, second], "value", "lines",
"winner": seat, "step": the deciding ladder step}``. ``lines`` in order: ``{"seat":
second, "say": "too", "value"}`` («Fünfzig auch»); ``{"seat": first, "say": "meld",
"kind": "sequence"|"four_of_a_kind", "cards": n, "rank": rank code, "end": "top"|
"bottom"|null, "trump": bool}`` (e.g. «Vom Ass»; ``end`` says which card of a
sequence is compared: the bottom one in Undenufe with the reversal); then either
``{"seat": second, "say": "good"}`` («Gut», when the first meld wins at ``cards`` or
``high_card``) or the second's own ``"meld"`` line and ``"good"`` by the loser. The
melds described are the claims: a smaller announcement takes part as its claim (a
learner who says «Zwanzig» with a fifty in hand describes the twenty); a false or
late announcement takes no part. The exchange is table talk; who writes is always
``rules_core.resolve_weis`` on the claims, and it agrees with the exchange.

Refusals (``TableError.code`` and its ``params``; ``REFUSALS`` lists them)
==========================================================================
A refused move (every ``move.*`` code has ``params["move"]``):

- ``move.not_object``: not a JSON object. ``move.empty``: ``{}``.
  ``move.unknown_keys`` {keys}. ``move.combination`` {keys}: keys that cannot go
  together (a card with writes; a call with an announcement without a card).
- ``move.card``: ``play`` is not a card code. ``move.announce_value`` {values}: not a
  meld value (0 or null only with a card). ``move.stoeck_value``: ``stoeck`` not a
  boolean (on its own only ``true``). ``move.writes`` {field: shape|team|points}.
  ``move.jasstafel`` {field: shape|blocks|points|target|team|block|trick}.
- ``move.not_now`` {wanted: ``PHASE_WANTS`` (card stoeck announce writes jasstafel),
  waiting: the phase}: the table waits for something else. ``move.round_over``.
- ``move.not_in_hand`` {card, hand}: a card the learner does not hold.
- ``move.stoeck_first``: «Stöck!» on its own before any card is on the table.
- ``move.announce_first``: an announcement on its own before the learner's first
  card (announce with the card). ``move.engine``: the engine refused (never seen).

Not a move: ``log.not_list`` (the moves are not a list), ``scenario.invalid``
{field}, ``scenario.needed`` (no Scenario given), ``round.not_over`` (``score``
before the ninth trick), ``round.over`` (``reference_move`` after the end),
``build.focus`` {focus, focuses}, ``build.seed``, ``build.no_deal`` {focus, seed}.

Judgements
==========
``Judgement`` (``to_dict()``): ``{"move": index in the log of the learner move during
which it happened, "kind", "outcome": "right"|"wrong"|"info", "rule": rule ID,
"skill", "key": machine key for the template, "at_play": number of cards on the
table when the decision was made (for a card, its play index), "given", "expected",
"verdict": the engine's data (plain JSON, traces as ``TraceEntry.to_dict()``)}``.
``info`` is for what is not the learner's fault or a free choice.

``play`` (skill ``trick``): every card the learner tries. ``rule``/``key`` are the
card's ``rules_core.explain_legal_cards`` verdict (``play.lead`` R3.1,
``play.follows_suit`` R3.1, ``play.must_follow_suit`` R3.1, ``play.trump_allowed``
R3.2, ``play.over_trump`` R3.3, ``play.under_trump`` R3.3, ``play.only_trumps``
R3.3, ``play.follows_trump`` R3.1, ``play.must_play_trump`` R3.4,
``play.puur_exception`` R3.4, ``play.cannot_follow`` R3.5); right iff legal. An
illegal card is wrong and NOT played: nothing else in that move happens (no
announcement, no call) and the learner plays again. given ``{"play"}``, expected
``{"legal": [codes]}``, verdict ``{"card", "trick": [codes], "contract", "legal",
"trace"}`` (``LegalCards.to_dict()``).

``announce`` (skill ``weis_value``), with the learner's first card (a value > 0 on a
later card, or on its own, is ``announce.late``): given ``{"announce": v}``, expected
``{"announce": best}`` (0 without a meld; ``None`` for a late one), verdict
``{"announced", "held": [values], "best", "strict", "choice":
MeldChoice.to_dict()}`` (late: ``{"announced", "first_play", "plays",
"next_played"}``).

- ``announce.best`` right R5.4: the best meld's value.
- ``announce.none`` right R5.4: nothing announced and no meld held.
- ``announce.not_best`` right R5.4: a smaller meld's value the learner holds; W-DE
  lets the player choose ("wählt selbst"), the page notes it is not the best.
- ``announce.not_best_strict`` wrong R5.4: the same under ``w-en`` (``announce_strict``:
  W-EN says the strongest is announced).
- ``announce.not_held`` wrong R5.7: a value the learner holds no meld of; a false Weis
  is struck out: the learner's melds take no part in the comparison.
- ``announce.none_with_meld`` info R5.4: announcing is optional (W-DE), but silence
  costs the melds (R5.4b): the learner's melds take no part and are not written.
- ``announce.late`` wrong R5.4: after the next player has played (with a later card
  or on its own); it does not count.
Who writes Weis is ``rules_core.resolve_weis(hands, contract, rules, claims=...)`` with
``Table.claims``, per seat the value announced with the first card (None for silence
or a late one): the announced claims are compared (R5.4a), so a learner who announces
twenty while holding a fifty competes with the twenty and may lose to an opponent's
fifty; a value not held is struck out (R5.7); the team with the best claim writes
every meld of its partners who announced, also the melds they did not announce
(R5.6), and nothing of a silent partner (R5.4b).

``stoeck`` (skill ``stoeck``), judged when it happens by the engine's round
(``rules_core.Round.call_stoeck``, the referee plays on a ``rules_core.Round``): the
call is made at the moment it is said, after its card (with the card) or after the
last card on the table (on its own; a complete trick is gathered as soon as the table
waits for the learner), ``prompted`` once the partner's reminder was given. Keys by
the engine's verdict: ``stoeck.counts``
right R6.2; ``stoeck.prompted`` info R6.4 (after a reminder nothing counts, not the
learner's fault); ``stoeck.first_card`` wrong R6.2 (the second card can still bring
it); ``stoeck.too_early`` wrong R6.4; ``stoeck.too_late`` wrong R6.3;
``stoeck.not_holder`` wrong R6.4 (a call by anyone but the holder is ignored);
``stoeck.no_trump`` wrong R6.1 (Obenabe or Undenufe). «Stöck!» may be said with
every card and on its own by every learner, holder or not (the page offers it in every
trump contract, so the offer itself reminds nobody, R6.4). Further:

- ``stoeck.forgotten`` wrong R6.3 (info R6.4 after a reminder): the second Stöck card
  went down without a call, judged when the deadline passed: the next card played,
  by anyone, or the round ended with it (the engine's Stöck: lost).
- A call on its own right after the learner's own second card (possible only when
  that card completed its trick, which was gathered, and the learner leads next) is
  ``stoeck.too_late`` wrong R6.3 with ``verdict["after_trick"]`` true: waiting for
  the gathering is too late (R6.3, ST-DE). The table records this call's
  ``after_play`` as the stateless ``rules_core.check_stoeck`` takes it: made with the
  next card (``after_play`` + 1, lesson 11's picture: "when the next card is down"),
  None after the last card of the round.
- ``stoeck.repeated`` info R6.2: «Stöck!» again after it counted, or a call the
  referee would judge with the key of an earlier call of the learner's (a second
  call by a non-holder, a second too-early call, ...): a repeated call is judged
  once, so calling again and again costs nothing more; it changes nothing, the
  engine gets it as before, and ``verdict["repeats"]`` names the earlier key.
given ``{"stoeck": bool, "with_card": bool}``; expected ``{"stoeck": true,
"with_card": true}`` for the holder, ``{"stoeck": false}`` otherwise, None for a
repeated call; verdict ``{"call": {"seat", "said_after", "after_play"},
"call_verdict", "after_trick", "result": StoeckResult.to_dict()}`` (+ ``"repeats"``;
forgotten, and a repeat after the call counted: ``{"result"}``).

``writes`` (skill ``who_writes``) R5.6: given and expected ``{"team": 1|2|null,
"points"}`` (expected from ``resolve_weis`` with the claims: its team + 1 and
``scored``); right iff both match. Keys ``writes.right``, ``writes.wrong_team``,
``writes.wrong_points``, ``writes.wrong_team_and_points``. verdict ``{"weis":
{"team", "points", "factor", "scored", "step", "best_seat"}, "claims": [4 values or
None], "status": [4 x "best"|"smaller"|"false"|"silent"] (R5.4a, R5.7, R5.4b),
"counted": [4 bools: the claim takes part], "if_best": {"value", "team", "scored"}
(who would write had the learner announced their best meld; None when they did, or
hold none), "shown", "team_right", "points_right", "trace"}`` (the ``resolve_weis``
trace without the ``weis.seat`` and ``weis.claim`` entries of other players who show
nothing).

``jasstafel_block`` R7.1, six per Jasstafel (team 1 weis, stoeck, tricks, then team 2):
key ``jasstafel.<block>``, skill ``who_writes`` (weis), ``stoeck`` (stoeck) or
``target`` (tricks); given/expected ``{"team": 1|2, "block", "points"}``; right iff
equal to ``score(table).blocks``. verdict ``{"written", ...}``: weis ``{"weis":
{"team", "points", "factor", "scored", "melds"}}``, stoeck ``{"stoeck":
StoeckResult.to_dict()}``, tricks ``{"factor", "match", "tricks": [the team's
TrickResult.to_dict()]}``.

``target`` (skill ``target``): rule R7.3 (decided in the Weis or Stöck block), R7.4
(a trick), R7.5 (nobody); key ``target.weis|stoeck|tricks|nobody`` (the true answer);
given/expected ``{"team", "block", "trick"}`` (1-based, as the move); judged on the
true score, not on the learner's blocks. verdict ``{"target":
TargetResult.to_dict() (running totals trick by trick), "blocks", "before"}``.

Table (``table.to_dict()``: the whole truth, hidden cards included)
====================================================================
``{"scenario", "moves", "hands": [4 x 9 dealt], "held": [4 x cards left], "plays":
[[seat, code], ...], "tricks": [Trick], "announcements": [Announcement],
"exchanges", "calls": [Call], "reminder", "shown", "phase", "legal": [codes]
(phase play only), "judgements": [Judgement], "jasstafel": the learner's entry}``.

- Trick ``{"index", "leader", "seats", "cards", "winner", "card_points", "points"}``:
  the open trick last, with ``winner``/``card_points``/``points`` None; ``points`` as
  ``rules_core.TrickResult`` (card points + 5 on the ninth + 100 for a match, x factor).
- Announcement ``{"seat", "value", "play", "late", "counts", "meld"}``: ``play`` is the
  card it came with (late: the last card before it); ``counts`` whether the claim
  takes part; ``meld`` the claim, the best meld of that value (None for a false one).
- Call ``{"seat", "said_after", "after_play", "prompted", "with_card", "move"}``:
  ``said_after`` the last card on the table when said; ``after_play`` what the engine
  gets (None: not given to it; an index not yet played: given once it is).
- ``reminder``: ``{"seat": the partner, "after_play", "move"}`` or None: given at the
  learner's first turn after the first Stöck card at which the second is legal.
- ``shown``: None before the second trick; then ``{"team": writing team or None,
  "melds": [per seat: [Meld.to_dict()]]}`` (``WeisResult.written``: every meld of the
  writing team's players who announced a value they hold, R5.6, R5.4b).
- ``table.claims``: per seat the value announced in time (None: silent or late);
  ``table.counted``: per seat, does the claim take part; ``table.engine_calls()``:
  the calls as the engine takes them ``(seat, after_play, prompted)``.

View (``learner_view(table)``): see :func:`learner_view`. Cards the learner may know
are their own nine, every card played, and the shown melds; once all 36 are played,
all (the dealt hands themselves are in the view once the round is done). Every other
card code is removed (None) from the view, judgements included, and a judgement on a
«Stöck!» by a learner who does not hold Stöck does not tell who does.

TableScore (``score(table).to_dict()``): ``{"blocks": [2 x {"weis", "stoeck",
"tricks"}], "totals", "match", "factor", "before", "tricks": [TrickResult], "weis":
WeisResult.to_dict(), "stoeck": StoeckResult.to_dict(), "target":
TargetResult.to_dict()}``; ``round`` holds ``score_round``'s RoundScore.

Examples
========
The deal of lesson 16 (roses trump), the learner at player 2's place (seat 1). The
Vorhand leads the 6 of acorns and announces twenty; the learner tries a bell first:

>>> hands = [["C6", "C7", "C8", "H7", "H9", "HJ", "HA", "DA", "SA"],
...          ["D6", "D7", "D8", "D9", "H8", "S6", "S7", "CJ", "CQ"],
...          ["D10", "DK", "H6", "HQ", "HK", "S10", "SQ", "C9", "CA"],
...          ["DJ", "DQ", "H10", "S8", "S9", "SJ", "SK", "C10", "CK"]]
>>> from teaching.table.model import sort_codes
>>> scenario = Scenario.from_dict({"focus": "stoeck", "seed": 0, "rules": "default",
...     "contract": "H", "hands": [list(sort_codes(h)) for h in hands], "seat": 1,
...     "before": [0, 0], "target": 1000})
>>> table = referee(scenario, [])
>>> table.phase, table.plays, [(a.seat, a.value) for a in table.announcements]
('play', ((0, 'C6'),), [(0, 20)])
>>> table = referee(scenario, [{"play": "D6"}])
>>> j = table.judgements[-1]
>>> j.kind, j.outcome, j.rule, j.key, table.phase, len(table.plays)
('play', 'wrong', 'R3.1', 'play.must_follow_suit', 'play', 1)
>>> table = referee(scenario, [{"play": "D6"}, {"play": "CJ", "announce": 50}])
>>> [(j.kind, j.outcome, j.key) for j in table.judgements[1:]]
[('play', 'right', 'play.follows_suit'), ('announce', 'right', 'announce.best')]
>>> table.phase, table.tricks[0].winner, table.tricks[0].card_points, table.shown.team
('writes', 3, 12, 1)
>>> table = referee(scenario, [{"play": "D6"}, {"play": "CJ", "announce": 50},
...                            {"writes": {"team": 2, "points": 70}}])
>>> j = table.judgements[-1]
>>> j.outcome, j.key, j.expected
('wrong', 'writes.wrong_points', WritesAnswer(team=1, points=50))
>>> j.to_dict()["expected"]  # the JSON counts teams from 1, as the learner types them
{'team': 2, 'points': 50}
>>> referee(scenario, [{"play": "HA"}])
Traceback (most recent call last):
  ...
teaching.table.model.TableError: move 1: HA is not in your hand (D6 D7 D8 D9 H8 S6 S7 CJ CQ)

A whole round by the reference learner, aimed at Stöck:

>>> scenario = build_scenario("stoeck", 2)
>>> moves, table = [], referee(scenario, [])
>>> while table.phase != "done":
...     moves.append(reference_move(table))
...     table = referee(scenario, moves)
>>> [j.outcome for j in table.judgements if j.kind == "stoeck"]
['right']
>>> score(table).stoeck.status, referee(scenario, moves) == table
('scored', True)
"""

from .build import build_scenario
from .judgements import (
    AnnounceAnswer,
    AnnounceVerdict,
    BlockAnswer,
    CallRef,
    CardGiven,
    HiddenStoeckVerdict,
    IfBest,
    Judgement,
    LateAnnounceVerdict,
    LegalExpected,
    PlayVerdict,
    StoeckAnswer,
    StoeckBlockVerdict,
    StoeckVerdict,
    TargetVerdict,
    TricksBlockVerdict,
    WeisBlockVerdict,
    WeisSummary,
    WritesVerdict,
)
from .model import (
    ANNOUNCE_VALUES,
    BLOCKS,
    FOCUSES,
    KINDS,
    OUTCOMES,
    PHASE_WANTS,
    PHASES,
    REFUSALS,
    SKILLS,
    Announcement,
    Block,
    Call,
    Exchange,
    Focus,
    Kind,
    MeldWords,
    Outcome,
    Phase,
    Reminder,
    Scenario,
    Shown,
    Skill,
    TableError,
    TalkLine,
    Trick,
)
from .moves import (
    AnnounceMove,
    BlockPoints,
    JasstafelAnswer,
    JasstafelMove,
    Move,
    PlayMove,
    StoeckMove,
    TargetAnswer,
    WritesAnswer,
    WritesMove,
    parse_move,
)
from .replay import (
    RefereeState,
    announce_strict,
    referee,
    reference_move,
    replay_state,
    score,
    step,
)
from .result import Table, TableScore
from .view import AnnouncementView, CallView, LearnerView, learner_view

__all__ = [
    "ANNOUNCE_VALUES",
    "BLOCKS",
    "FOCUSES",
    "KINDS",
    "OUTCOMES",
    "PHASE_WANTS",
    "PHASES",
    "REFUSALS",
    "SKILLS",
    "AnnounceAnswer",
    "AnnounceMove",
    "AnnounceVerdict",
    "Announcement",
    "AnnouncementView",
    "Block",
    "BlockAnswer",
    "BlockPoints",
    "Call",
    "CallRef",
    "CallView",
    "CardGiven",
    "Exchange",
    "Focus",
    "HiddenStoeckVerdict",
    "IfBest",
    "JasstafelAnswer",
    "JasstafelMove",
    "Judgement",
    "Kind",
    "LateAnnounceVerdict",
    "LearnerView",
    "LegalExpected",
    "MeldWords",
    "Move",
    "Outcome",
    "Phase",
    "PlayMove",
    "PlayVerdict",
    "RefereeState",
    "Reminder",
    "Scenario",
    "Shown",
    "Skill",
    "StoeckAnswer",
    "StoeckBlockVerdict",
    "StoeckMove",
    "StoeckVerdict",
    "Table",
    "TableError",
    "TableScore",
    "TalkLine",
    "TargetAnswer",
    "TargetVerdict",
    "Trick",
    "TricksBlockVerdict",
    "WeisBlockVerdict",
    "WeisSummary",
    "WritesAnswer",
    "WritesMove",
    "WritesVerdict",
    "announce_strict",
    "build_scenario",
    "learner_view",
    "parse_move",
    "reference_move",
    "referee",
    "replay_state",
    "score",
    "step",
]
