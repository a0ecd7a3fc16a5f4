"""What a wrong choice tells about the learner's reasoning, in a sentence.

The generators tag every distractor with the mistake that produces it; feedback
names that mistake so the learner sees why the tempting answer is wrong.

:data:`MISTAKES` holds one sentence per mistake that is true of every question that
can carry it (the teacher's item analysis shows these). A question's own feedback
asks :func:`mistake_text` with the question's :class:`MistakeContext`: where a
sentence would assume one case (trump in an Obenabe trick, "the rule set of this
quiz" without naming it), the sentence for this contract and rule set is built from
them instead, and cites only rules that apply in this contract (R4.2 in Obenabe,
R4.3 in Undenufe, never R4.1 there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from rules_core import Contract, RuleSet
from tutor.core import explain as ex
from tutor.core.translating import gettext as _

MISTAKES: dict[str, Promise] = {
    # basics: the Puur and the Nell (R1.3)
    "puur_nell_swapped": gettext_lazy(
        "This answer swaps the two names. In fact the Puur is the Under of the trump suit and "
        "the Nell is its 9 (R1.3)."
    ),
    "trump_suit_ignored": gettext_lazy(
        "This answer takes the card from a suit that is not trump. In fact only the trump suit "
        "has a Puur and a Nell; the same card in another suit is an ordinary card (R1.3)."
    ),
    "puur_nell_swapped_outside_trump": gettext_lazy(
        "This answer takes the other card, and from a suit that is not trump. In fact the Puur "
        "is the Under of the trump suit and the Nell is the 9 of the trump suit (R1.3)."
    ),
    # basics: the four players, counted from the Vorhand (R2.1-R2.3)
    "own_seat_named": gettext_lazy(
        "This answer names the player asked about. In fact a partner is another player: the "
        "one sitting opposite, two places further on (R2.1)."
    ),
    "neighbour_taken_for_partner": gettext_lazy(
        "This answer takes a neighbour for the partner. In fact partners sit opposite each "
        "other, so neighbours always play for different teams (R2.1)."
    ),
    "vorhand_chooses_after_pushing": gettext_lazy(
        "This answer lets the Vorhand choose after pushing. In fact pushing hands the choice "
        "to the partner opposite, who must choose; pushing back is not allowed (R2.3)."
    ),
    "next_player_chooses": gettext_lazy(
        "This answer passes the choice to the next player in turn. In fact after a push the "
        "Vorhand's partner, sitting opposite, must choose (R2.3)."
    ),
    "last_player_chooses": gettext_lazy(
        "This answer passes the choice to the player before the Vorhand. In fact after a push "
        "the Vorhand's partner, sitting opposite, must choose (R2.3)."
    ),
    "next_player_leads": gettext_lazy(
        "This answer lets the next player in turn lead. In fact the Vorhand leads the first "
        "trick, whoever chose the contract (R2.3)."
    ),
    "chooser_leads": gettext_lazy(
        "This answer lets the player who chose the contract lead. In fact the Vorhand leads "
        "the first trick even when the partner chose after a push (R2.3)."
    ),
    "last_player_leads": gettext_lazy(
        "This answer lets the player before the Vorhand lead. In fact the Vorhand leads the "
        "first trick, whoever chose the contract (R2.3)."
    ),
    "vorhand_stays": gettext_lazy(
        "This answer keeps the same Vorhand. In fact the Vorhand passes on by one seat with "
        "every new round (R2.2)."
    ),
    "partner_becomes_vorhand": gettext_lazy(
        "This answer moves the Vorhand two seats on. In fact it passes on by one seat with "
        "every new round, to the next player in turn (R2.2)."
    ),
    "vorhand_passes_backwards": gettext_lazy(
        "This answer moves the Vorhand the wrong way round. In fact it passes on to the next "
        "player in turn, the one who played after the Vorhand (R2.2)."
    ),
    "leader_plays_last": gettext_lazy(
        "This answer lets the player who leads also play last. In fact the players play in "
        "turn, one card each, so the last card comes from the player before the leader (R2.1)."
    ),
    "turn_order_confused": gettext_lazy(
        "This answer mixes up the order of play. In fact the players play in turn, one card "
        "each, starting with the leader; the fourth card ends the trick (R2.1)."
    ),
    # weis_value: what a player announces (R5.1-R5.4)
    "sum_of_melds": gettext_lazy(
        "This answer adds up all the melds in the hand. In fact you announce the value of one meld "
        "only, your best one, never a sum (R5.4)."
    ),
    "kreuzweis_four_of_a_kind_missed": gettext_lazy(
        "This answer leaves out the four of a kind because one of its cards is also in a sequence. "
        "In fact one card may belong to a sequence and to a four of a kind at the same time "
        "(Kreuzweis), and both melds count (R5.3)."
    ),
    "kreuzweis_sequence_missed": gettext_lazy(
        "This answer leaves out the sequence because one of its cards is also in a four of a kind. "
        "In fact one card may belong to a sequence and to a four of a kind at the same time "
        "(Kreuzweis), and both melds count (R5.3)."
    ),
    "low_quads_counted": gettext_lazy(
        "This answer counts four 6s, 7s or 8s as 100. In fact in the rule set of this quiz they "
        "are worth nothing, as in the W-EN reading (R5.2)."
    ),
    "low_quads_not_counted": gettext_lazy(
        "This answer assumes that four 6s, 7s or 8s are worth nothing. In fact in the rule set of "
        "this quiz they are worth 100, like four aces (R5.2)."
    ),
    "gap_in_sequence": gettext_lazy(
        "This answer assumes that cards with a gap make a sequence. In fact a sequence is three or "
        "more cards of one suit in a row, with no card missing (R5.1)."
    ),
    "under_left_out_of_order": gettext_lazy(
        "This answer assumes that 10, Ober, king make a sequence, and leaves out the Under. In "
        "fact the Under stands between the 10 and the Ober, so these three cards have a gap and "
        "are no sequence (R1.2, R5.1)."
    ),
    "three_of_a_kind_counted": gettext_lazy(
        "This answer counts three cards of the same rank as a meld. In fact only four of a kind is "
        "a meld; three of a kind is worth nothing (R5.2)."
    ),
    "puur_and_nell_fours_swapped": gettext_lazy(
        "This answer swaps the values of four Unders and four 9s. In fact four Unders are worth "
        "200 and four 9s 150 (R5.2)."
    ),
    "every_four_of_a_kind_is_100": gettext_lazy(
        "This answer assumes that every four of a kind is worth 100. In fact four Unders are worth "
        "200 and four 9s 150 (R5.2)."
    ),
    "four_cards_read_as_sequence": gettext_lazy(
        "This answer counts four cards of the same rank like a sequence of four cards (50). In "
        "fact a sequence is cards of one suit in a row; four of a kind has values of its own "
        "(R5.1, R5.2)."
    ),
    "run_counted_one_card_too_long": gettext_lazy(
        "This answer counts the sequence as one card longer than it is. In fact a sequence of 3 "
        "cards is worth 20, of 4 cards 50, of 5 cards 100, and each further card adds 50 (R5.1)."
    ),
    "run_counted_one_card_too_short": gettext_lazy(
        "This answer counts the sequence as one card shorter than it is. In fact a sequence of 3 "
        "cards is worth 20, of 4 cards 50, of 5 cards 100, and each further card adds 50 (R5.1)."
    ),
    "card_points_counted": gettext_lazy(
        "This answer adds up the card points of the meld's cards. In fact Weis is counted with the "
        "values of the Weis table (20, 50, 100 …), never with the card points of the cards in it "
        "(R5.1, R5.2)."
    ),
    "factor_applied_to_announcement": gettext_lazy(
        "This answer multiplies the meld's value by the contract's factor. In fact you announce "
        "the plain value; the factor is applied only when the Weis is written (R5.4, R4.5)."
    ),
    # who_writes: which team writes Weis, and how much (R5.5, R5.6, R4.5)
    "team_with_more_points_writes": gettext_lazy(
        "This answer assumes that the team whose melds add up to more writes Weis. In fact the "
        "single best meld decides, not the sum, and only the team holding it writes (R5.5, R5.6)."
    ),
    "losing_team_writes": gettext_lazy(
        "This answer lets the team with the weaker best meld write. In fact the two teams' best "
        "melds are compared, and only the team with the better one writes (R5.5, R5.6)."
    ),
    "both_teams_added": gettext_lazy(
        "This answer adds the other team's melds to the writing team's. In fact only the team with "
        "the single best meld writes, and it writes only its own melds (R5.6)."
    ),
    "best_meld_only": gettext_lazy(
        "This answer writes only the best meld. In fact the team with the best meld writes every "
        "meld of both partners (R5.6)."
    ),
    "partner_melds_forgotten": gettext_lazy(
        "This answer writes only the melds of the player with the best meld. In fact the partner's "
        "melds count too: the team writes every meld of both partners (R5.6)."
    ),
    "announced_values_only": gettext_lazy(
        "This answer writes only the meld each partner announced. In fact a player announces one "
        "meld only, but the team with the best meld writes every meld of both partners (R5.4, "
        "R5.6)."
    ),
    "kreuzweis_counted_once": gettext_lazy(
        "This answer counts the shared card in only one meld. In fact in a Kreuzweis the card "
        "belongs to the sequence and to the four of a kind, and both melds are written (R5.3)."
    ),
    # undenufe_order_wrong: also ladder_step; either rule set's order can be the slip
    "undenufe_order_wrong": gettext_lazy(
        "This answer uses the wrong card order for Undenufe at Step 3 (highest card). In fact by "
        "default the order is turned round there: the meld whose lowest card is lower wins. Only "
        "the W-EN reading keeps the natural order, where the higher top card wins (R5.5)."
    ),
    # factor_forgotten: also trick points
    "factor_forgotten": gettext_lazy(
        "This answer leaves out the contract's factor. In fact, where a factor applies, every "
        "written score is multiplied by it, Weis and trick points too (R4.5)."
    ),
    "wrong_team_at_tie": gettext_lazy(
        "This answer lets the wrong team write when the best melds are equal. In fact, when they "
        "are equal in points, number of cards and highest card, a sequence in trump wins; if that "
        "does not decide, the player who announced first wins (R5.5)."
    ),
    "tie_nobody_writes": gettext_lazy(
        "This answer assumes that nobody writes when the best melds are equal. In fact equal melds "
        "still have a winner: a sequence in trump beats one outside it, and otherwise the player "
        "who announced first wins (R5.5)."
    ),
    # ladder_step: which step of the ladder decides (R5.5)
    "wrong_winner": gettext_lazy(
        "This answer names the right step but the wrong winner. In fact the meld that is better at "
        "that step wins; look again at which one it is (R5.5)."
    ),
    "later_step_named": gettext_lazy(
        "This answer names a later step. In fact the ladder stops at the first step where the two "
        "melds differ, and that step decides (R5.5)."
    ),
    "earlier_step_named": gettext_lazy(
        "This answer names an earlier step, where the two melds are still equal. In fact a step "
        "decides only when the melds differ there; otherwise you go on to the next step (R5.5)."
    ),
    "later_step_and_wrong_winner": gettext_lazy(
        "This answer names a later step and the wrong winner. In fact the ladder stops at the "
        "first step where the melds differ, and the better meld at that step wins (R5.5)."
    ),
    "earlier_step_and_wrong_winner": gettext_lazy(
        "This answer names an earlier step, where the melds are still equal, and the wrong winner. "
        "In fact the first step where the melds differ decides, and the better meld there wins "
        "(R5.5)."
    ),
    "deciding_step_skipped": gettext_lazy(
        "This answer goes past the step that decides. In fact the steps are checked in order, "
        "from Step 1 (points) to Step 5 (who announced first), and the first step where the "
        "melds differ decides (R5.5)."
    ),
    "more_cards_win_first": gettext_lazy(
        "This answer compares the number of cards before the points. In fact the higher value "
        "decides first (Step 1: points); the number of cards counts only when the points are equal "
        "(R5.5)."
    ),
    "four_of_a_kind_beats_sequence": gettext_lazy(
        "This answer lets the four of a kind win. In fact, when the points are equal, the meld "
        "with more cards wins, so a sequence of five cards beats a four of a kind worth 100 "
        "(R5.5)."
    ),
    "trump_before_high_card": gettext_lazy(
        "This answer looks at trump before the highest card. In fact the higher top card (Step 3) "
        "decides before trump (Step 4); a sequence in trump wins only when the top cards are equal "
        "too (R5.5)."
    ),
    "trump_step_forgotten": gettext_lazy(
        "This answer skips Step 4 (trump) and decides by who announced first. In fact, when "
        "points, number of cards and top card are equal, a sequence in the trump suit beats one "
        "outside it (R5.5)."
    ),
    "later_seat_wins": gettext_lazy(
        "This answer lets the player who announced later win the tie. In fact, when everything "
        "else is equal, the meld of the player who announced first wins, counting from the Vorhand "
        "(R5.5)."
    ),
    # stoeck: scored, lost, still possible, or no Stöck (R6.1-R6.5)
    "late_call_counted": gettext_lazy(
        "This answer counts a call that came too late. In fact Stöck must be called together with "
        "the second card; once the next card lies on it, or the trick is gathered, it is too late "
        "and the 20 points are lost (R6.3, R6.5)."
    ),
    "prompted_call_counted": gettext_lazy(
        "This answer counts a call that came after a partner's reminder. In fact the holder must "
        "call Stöck on their own; a call after a reminder does not count (R6.4)."
    ),
    "first_card_call_counted": gettext_lazy(
        "This answer counts a call made with the first card. In fact Stöck is called while playing "
        "the second of the two cards; a call at the first card does not count (R6.2)."
    ),
    "stoeck_counted_without_call": gettext_lazy(
        "This answer counts Stöck just because one player holds the king and Ober of trump. In "
        "fact Stöck scores only when the holder calls it while playing the second card (R6.2)."
    ),
    "stoeck_in_no_trump_contract": gettext_lazy(
        "This answer assumes that king and Ober are Stöck in Obenabe or Undenufe. In fact "
        "Obenabe and Undenufe have no trump, and without trump there is no Stöck (R6.1)."
    ),
    "split_pair_counted": gettext_lazy(
        "This answer assumes that a king and an Ober in two different hands are Stöck. In fact "
        "both cards must be in one player's hand; split between two players, even partners, they "
        "are no Stöck (R6.1)."
    ),
    "split_pair_read_as_lost": gettext_lazy(
        "This answer assumes that a Stöck was lost. In fact there is no Stöck at all: a king and "
        "an Ober in two different hands are never Stöck (R6.1)."
    ),
    "no_trump_read_as_lost": gettext_lazy(
        "This answer assumes that a Stöck was lost. In fact there is no Stöck at all: Obenabe and "
        "Undenufe have no trump, and without trump there is no Stöck (R6.1)."
    ),
    "deadline_misread": gettext_lazy(
        "This answer misreads the deadline for the call. In fact Stöck must be called together "
        "with the second card, at the latest before the next player covers it: until then it is "
        "still possible, after that it is too late (R6.3, R6.4a)."
    ),
    "call_thought_still_open": gettext_lazy(
        "This answer assumes that the Stöck is still open. In fact it was called in time, with the "
        "second card, and a Stöck called in time counts (R6.2, R6.3)."
    ),
    "call_thought_too_late": gettext_lazy(
        "This answer assumes that the deadline has passed. In fact the second card is the last "
        "card played so far and its deadline has not passed, so Stöck is still possible (R6.3, "
        "R6.4a)."
    ),
    "call_belongs_to_first_card": gettext_lazy(
        "This answer assumes that the call belongs to the first card. In fact it came with the "
        "second card, and that is exactly when Stöck is called (R6.2)."
    ),
    "call_expected_at_first_card": gettext_lazy(
        "This answer assumes that the call was due with the first card. In fact Stöck is called "
        "with the second card; that card has not been played yet, so Stöck is still possible "
        "(R6.2, R6.4a)."
    ),
    "prompt_read_as_late": gettext_lazy(
        "This answer assumes that the call came too late. In fact it came in time, with the second "
        "card, but after a partner's reminder, and a call after a reminder does not count (R6.4)."
    ),
    "call_overlooked": gettext_lazy(
        "This answer assumes that nobody called Stöck. In fact the holder did call Stöck; whether "
        "the call counts depends on when it came and whether a partner's reminder came first "
        "(R6.2, R6.3, R6.4)."
    ),
    "holder_overlooked": gettext_lazy(
        "This answer assumes that the king and Ober of trump are in two different hands. In fact "
        "one player holds both, so there is a Stöck (R6.1)."
    ),
    "reason_confused": gettext_lazy(
        "This answer is right that there is no Stöck, but gives the wrong reason. In fact Stöck "
        "needs both: a suit that is trump, and the king and Ober of trump in one hand; check which "
        "one is missing (R6.1)."
    ),
    # target: who wins, in which block (R7.1-R7.5)
    "most_points_wins": gettext_lazy(
        "This answer assumes that the team with the most points wins. In fact a team wins by "
        "reaching the target; if both reach it, the one that gets there first in the counting "
        "order wins (R7.2, R7.3)."
    ),
    "tricks_counted_first": gettext_lazy(
        "This answer counts the tricks first. In fact the tricks are the last block: Weis and "
        "Stöck are counted before them (R7.3)."
    ),
    "wrong_block_order": gettext_lazy(
        "This answer swaps Weis and Stöck. In fact the blocks count in the rule set's order: by "
        "default Weis, then Stöck, then tricks; with the Ausmachregel, Stöck comes before Weis "
        "(R7.3)."
    ),
    "tricks_not_counted_in_order": gettext_lazy(
        "This answer counts each team's tricks as one block. In fact the tricks count one by one, "
        "in the order they were won; the trick that first brings a team to the target decides "
        "(R7.4)."
    ),
    "target_must_be_exceeded": gettext_lazy(
        "This answer assumes that a team must go past the target. In fact reaching it is enough: a "
        "team with exactly the target score wins (R7.2)."
    ),
    "later_reacher_wins": gettext_lazy(
        "This answer picks the team that reaches the target later in the round. In fact the team "
        "that gets there first wins, counting the blocks in order and the tricks one by one (R7.3, "
        "R7.4)."
    ),
    "losing_team_weis_counted": gettext_lazy(
        "This answer also counts the Weis of the team with the weaker melds. In fact only the team "
        "with the single best meld writes Weis; the other team writes none (R5.6)."
    ),
    "team_or_block_confused": gettext_lazy(
        "This answer names a team and a block that do not decide. In fact the blocks are counted "
        "in order: the team that reaches the target first wins, in that block; if no team reaches "
        "it, nobody wins yet (R7.3, R7.5)."
    ),
    # trick, legal: which cards may be played (R3.1-R3.5)
    "under_trump_allowed": gettext_lazy(
        "This answer assumes that under-trumping is allowed here. In fact, when a suit other than "
        "trump was led and a trump is already in the trick, you may not play a lower trump than "
        "the highest one there, unless you hold only trumps (R3.3)."
    ),
    # plain_order_for_trumps: also trick winner
    "plain_order_for_trumps": gettext_lazy(
        "This answer ranks the trumps like a plain suit. In fact in the trump suit the Puur is "
        "highest, then the Nell, then ace, king, Ober, 10, 8, 7, 6 (R3.6)."
    ),
    "puur_exception_forgotten": gettext_lazy(
        "This answer assumes that you must play the Puur. In fact, when trump is led and the Puur "
        "is your only trump, you need not play it: any card is allowed (R3.4)."
    ),
    "puur_exception_misapplied": gettext_lazy(
        "This answer uses the Puur exception although you hold other trumps. In fact it is only "
        "for a Puur that is your only trump; with any other trump in hand you must play a trump "
        "when trump is led (R3.4)."
    ),
    "puur_may_not_be_played": gettext_lazy(
        "This answer assumes that you may not play the Puur. In fact the Puur exception means you "
        "need not play it when trump is led, not that you must not; you may still play it (R3.4)."
    ),
    "only_trumps_exception_forgotten": gettext_lazy(
        "This answer forbids a lower trump although you hold only trumps. In fact, if every card "
        "in your hand is a trump, you may play any of them, even one below the trump in the trick "
        "(R3.3)."
    ),
    "only_trumps_exception_forgotten_and_plain_order": gettext_lazy(
        "This answer forbids a lower trump although you hold only trumps, and it ranks the trumps "
        "like a plain suit. In fact with only trumps in hand every card is allowed (R3.3), and the "
        "Puur and the Nell are the highest trumps (R3.6)."
    ),
    "trump_lead_need_not_be_followed": gettext_lazy(
        "This answer assumes that you may ignore a trump lead. In fact, when trump is led, you "
        "must play a trump if you have one, unless the Puur is your only trump (R3.1, R3.4)."
    ),
    "trumping_needs_void": gettext_lazy(
        "This answer assumes that you may trump only when you cannot follow suit. In fact you may "
        "trump even when you could follow suit (R3.2), as long as you do not under-trump (R3.3)."
    ),
    "must_trump_when_void": gettext_lazy(
        "This answer assumes that you must trump when you cannot follow suit. In fact there is no "
        "duty to trump: if you cannot follow suit, you may play any card, as long as you do not "
        "under-trump (R3.5, R3.3)."
    ),
    "must_beat_the_trick": gettext_lazy(
        "This answer assumes that you must beat the cards in the trick. In fact there is no duty "
        "to play a higher card; you only have to follow suit if you can (R3.1)."
    ),
    "any_card_allowed": gettext_lazy(
        "This answer assumes that you need not follow suit. In fact you must follow the led suit "
        "if you can; when a suit is trump, you may also trump instead (R3.1, R3.2)."
    ),
    # trick, winner: which card wins (R3.6)
    "trump_ignored": gettext_lazy(
        "This answer ignores the trumps. In fact a trump beats every card of another suit, so the "
        "highest trump in the trick wins (R3.6)."
    ),
    "highest_rank_wins": gettext_lazy(
        "This answer ignores the suits and picks the highest card. In fact only a trump or a card "
        "of the led suit can win; a card of another suit never wins, however high (R3.6)."
    ),
    "obenabe_undenufe_swapped": gettext_lazy(
        "This answer swaps Obenabe and Undenufe. In fact in Obenabe the ace is highest; in "
        "Undenufe the order is turned round and the 6 is highest (R3.6)."
    ),
    "first_trump_wins": gettext_lazy(
        "This answer gives the trick to the first trump played. In fact the highest trump wins, in "
        "the order Puur, Nell, ace, king, Ober, 10, 8, 7, 6 (R3.6)."
    ),
    # trick, points: what a trick is worth (R4.1-R4.5)
    "last_trick_bonus_forgotten": gettext_lazy(
        "This answer leaves out the 5 points for the last trick. In fact the ninth trick earns 5 "
        "extra points (R4.4)."
    ),
    "last_trick_bonus_added": gettext_lazy(
        "This answer adds the 5 points of the last trick to another trick. In fact only the ninth "
        "trick earns the 5 extra points (R4.4)."
    ),
    "trump_values_as_plain": gettext_lazy(
        "This answer counts the trumps at the values of a plain suit. In fact in the trump suit "
        "the Puur is worth 20 and the Nell 14 (R4.1)."
    ),
    "plain_values_as_trump": gettext_lazy(
        "This answer counts an Under or a 9 outside trump like the Puur or the Nell. In fact in "
        "the other suits the Under is worth 2 and the 9 nothing (R4.1)."
    ),
    "obenabe_undenufe_values_swapped": gettext_lazy(
        "This answer swaps the Obenabe and Undenufe values. In fact in Obenabe the ace is worth 11 "
        "and the 6 nothing; in Undenufe the 6 is worth 11 and the ace nothing (R4.2, R4.3)."
    ),
    "eights_not_counted": gettext_lazy(
        "This answer gives the 8s no points. In fact in Obenabe and Undenufe every 8 is worth 8 "
        "(R4.2, R4.3)."
    ),
    "meld_overlooked": gettext_lazy(
        "This answer overlooks the hand's best meld. In fact the player announces the value of "
        "the best meld the hand holds (R5.4)."
    ),
    "card_cannot_win": gettext_lazy(
        "This answer picks a card that cannot win this trick. In fact the highest trump wins; "
        "with no trump in it, the highest card of the suit led (R3.6)."
    ),
    "trump_suit_overlooked": gettext_lazy(
        "This answer assumes that this contract has no trump suit. In fact a trump contract has "
        "one, and king and Ober of trump in one hand are Stöck (R6.1)."
    ),
    "right_status_wrong_reason": gettext_lazy(
        "This answer gets the outcome right but names the wrong reason. In fact the moment of "
        "the call decides: with the second card it counts; with the first card, after the next "
        "card or after a reminder it does not (R6.2, R6.3, R6.4)."
    ),
    "target_reach_overlooked": gettext_lazy(
        "This answer assumes that nobody reaches the target. In fact a team reaches it in this "
        "round: count the blocks in the rule set's order and stop where a team first gets there "
        "(R7.2, R7.3)."
    ),
    # announce: the deadline of the first trick (R5.4)
    "deadline_thought_earlier": gettext_lazy(
        "This answer puts the deadline too early. In fact a player may announce until the next "
        "player plays a card, and the last player of a trick until the trick is gathered in "
        "(R5.4)."
    ),
    "late_announcement_counted": gettext_lazy(
        "This answer counts an announcement made after the next player had played a card. In "
        "fact that is too late, and a late announcement counts for nothing; only the last "
        "player of a trick may still announce until the trick is gathered in (R5.4)."
    ),
    "gathering_deadline_for_everybody": gettext_lazy(
        "This answer gives the wrong reason: too late, yes, but not because of the gathering. "
        "In fact only the last player of a trick may wait until the trick is gathered in; for "
        "everybody else the next player's card ends the time to announce (R5.4)."
    ),
    "gathered_trick_counted": gettext_lazy(
        "This answer counts an announcement made after the trick was gathered in. In fact the "
        "last player of the trick may announce only until then (R5.4)."
    ),
    "last_player_deadline_confused": gettext_lazy(
        "This answer gives the wrong reason: too late, yes, but the last player of a trick has "
        "no next player to wait for. In fact that player may announce until the trick is "
        "gathered in, and here it had been gathered in already (R5.4)."
    ),
    # announce: who writes when the announced values are compared (R5.4a, R5.4b, R5.6)
    "announcing_partner_left_out": gettext_lazy(
        "This answer leaves out the melds of a partner who announced in time. In fact the "
        "writing team writes every meld of both partners who announced, not only the best "
        "one (R5.6)."
    ),
    "silent_partner_counted": gettext_lazy(
        "This answer also writes the melds of a player who said nothing with the first card. "
        "In fact a player who does not announce writes none of their melds, even when the "
        "partner's claim wins (R5.4b)."
    ),
    "other_team_claim_wins": gettext_lazy(
        "This answer lets the team with the weaker claim write. In fact the announced claims "
        "are compared by the ladder, and only the team with the best claim writes Weis "
        "(R5.4a, R5.6)."
    ),
    "held_meld_compared": gettext_lazy(
        "This answer compares the best meld the player holds. In fact the value announced is "
        "the claim: the player competes with the best meld of that value, and a smaller "
        "announcement can lose to the other team (R5.4a)."
    ),
    # jasstafel: what a team writes for a round (R7.1, R5.6, R6.5)
    "stoeck_counted_wrongly": gettext_lazy(
        "This answer adds the Stöck. In fact the 20 points go only to the team of the player "
        "who holds king and Ober of trump, and only when that player said «Stöck» with the "
        "second card; otherwise nobody writes it (R6.1, R6.5)."
    ),
    "other_team_weis_counted": gettext_lazy(
        "This answer gives this team the Weis that the other team writes. In fact only the "
        "team with the best meld writes Weis; the other team writes none, whatever it holds "
        "(R5.6)."
    ),
    "stoeck_forgotten": gettext_lazy(
        "This answer leaves out the Stöck. In fact Stöck said in time counts 20 points for the "
        "holder's team, whichever team writes the Weis (R6.5)."
    ),
    "weis_block_forgotten": gettext_lazy(
        "This answer leaves out the Weis. In fact this team has the best meld and writes the "
        "points of all its melds, times the factor (R5.6, R7.1)."
    ),
}


@dataclass(frozen=True)
class MistakeContext:
    """What a question's mistake sentence may state: its contract (None where it has
    none, the basics' seat questions), its rule set and the cards of its trick (codes,
    in play order; empty but for trick questions)."""

    contract: Contract | None
    rules: RuleSet
    deck: str = "swiss"
    trick: tuple[str, ...] = ()

    @property
    def no_trump(self) -> bool:
        """Obenabe or Undenufe: no trump, no Puur, no Nell, no Stöck."""
        return self.contract is not None and self.contract.trump is None

    @property
    def contract_label(self) -> str:
        return ex.contract_label(self.contract, self.deck) if self.contract else ""

    @property
    def rule_set_label(self) -> str:
        return str(ex.preset_label(self.rules.preset_name()))

    @property
    def values_rule(self) -> str:
        """The rule of card values in this contract (R4.1-R4.3)."""
        if self.contract is None or self.contract.trump is not None:
            return "R4.1"
        return "R4.2" if self.contract.code == "obenabe" else "R4.3"


def _plain_values_as_trump(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    return _(
        "This answer counts an Under as 20 or a 9 as 14. In fact %(contract)s has no trump, so "
        "there is no Puur and no Nell: every Under is worth 2 and every 9 nothing (%(rule)s)."
    ) % {"contract": c.contract_label, "rule": c.values_rule}


def _eights_not_counted(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    return _(
        "This answer gives the 8s no points. In fact in %(contract)s every 8 is worth 8 (%(rule)s)."
    ) % {"contract": c.contract_label, "rule": c.values_rule}


def _values_swapped(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    if c.values_rule == "R4.2":
        return _(
            "This answer counts the cards at their Undenufe values. In fact in Obenabe the ace is "
            "worth 11 and the 6 nothing (R4.2)."
        )
    return _(
        "This answer counts the cards at their Obenabe values. In fact in Undenufe the 6 is "
        "worth 11 and the ace nothing (R4.3)."
    )


def _order_swapped(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    if c.values_rule == "R4.2":
        return _(
            "This answer ranks the cards as in Undenufe. In fact in Obenabe the ace is highest "
            "and the 6 lowest (R3.6)."
        )
    return _(
        "This answer ranks the cards as in Obenabe. In fact in Undenufe the order is turned "
        "round: the 6 is highest and the ace lowest (R3.6)."
    )


def _card_cannot_win(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    if c.values_rule == "R4.2":
        return _(
            "This answer picks a card that cannot win this trick. In fact in Obenabe the highest "
            "card of the suit led wins; a card of another suit never wins (R3.6)."
        )
    return _(
        "This answer picks a card that cannot win this trick. In fact in Undenufe the lowest "
        "card of the suit led wins (the 6 is the strongest); a card of another suit never wins "
        "(R3.6)."
    )


def _first_trump_wins(c: MistakeContext) -> str | None:
    trump = c.contract.trump if c.contract is not None else None
    if trump is None or any(card.startswith(trump.code) for card in c.trick):
        return None
    # no trump in the trick: the reading "the first trump wins" falls back on the lead
    return _(
        "This answer gives the trick to the card that was led. In fact, with no trump in the "
        "trick, the highest card of the led suit wins, whoever played it (R3.6)."
    )


def _highest_rank_wins(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    return _(
        "This answer ignores the suits. In fact only a card of the led suit can win; a card of "
        "another suit never wins, whatever its rank (R3.6)."
    )


def _any_card_allowed(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    return _(
        "This answer assumes that you need not follow suit. In fact you must follow the led "
        "suit if you can (R3.1)."
    )


def _wrong_team_at_tie(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    return _(
        "This answer lets the wrong team write when the best melds are equal. In fact, when they "
        "are equal in points, number of cards and highest card, the player who announced first "
        "wins: %(contract)s has no trump to decide (R5.5)."
    ) % {"contract": c.contract_label}


def _tie_nobody_writes(c: MistakeContext) -> str | None:
    if not c.no_trump:
        return None
    return _(
        "This answer assumes that nobody writes when the best melds are equal. In fact equal "
        "melds still have a winner: %(contract)s has no trump, so the player who announced "
        "first wins (R5.5)."
    ) % {"contract": c.contract_label}


def _reason_confused(c: MistakeContext) -> str | None:
    if c.contract is None:
        return None
    if c.no_trump:
        return _(
            "This answer is right that there is no Stöck, but gives the wrong reason. In fact "
            "%(contract)s has no trump, and without trump there is no Stöck, whoever holds the "
            "king and the Ober (R6.1)."
        ) % {"contract": c.contract_label}
    return _(
        "This answer is right that there is no Stöck, but gives the wrong reason. In fact this "
        "contract has a trump suit, but its king and its Ober went to two different players "
        "(R6.1)."
    )


def _factor_forgotten(c: MistakeContext) -> str | None:
    if c.contract is None or c.rules.factor(c.contract) == 1:
        return None
    return _(
        "This answer leaves out the factor. In fact in the rule set of this quiz, «%(rule_set)s», "
        "%(contract)s counts with factor %(factor)s, and every written score is multiplied by "
        "it, Weis and trick points too (R4.5)."
    ) % {
        "rule_set": c.rule_set_label,
        "contract": c.contract_label,
        "factor": c.rules.factor(c.contract),
    }


def _low_quads_counted(c: MistakeContext) -> str | None:
    if c.rules.low_quads_score:
        return None
    return _(
        "This answer counts four 6s, 7s or 8s as 100. In fact in the rule set of this quiz, "
        "«%(rule_set)s», they are worth nothing (R5.2)."
    ) % {"rule_set": c.rule_set_label}


def _low_quads_not_counted(c: MistakeContext) -> str | None:
    if not c.rules.low_quads_score:
        return None
    return _(
        "This answer assumes that four 6s, 7s or 8s are worth nothing. In fact in the rule set "
        "of this quiz, «%(rule_set)s», they are worth 100, like four aces (R5.2)."
    ) % {"rule_set": c.rule_set_label}


def _undenufe_order_wrong(c: MistakeContext) -> str | None:
    if c.rules.undenufe_reverses_weis:
        return _(
            "This answer uses the wrong card order for Undenufe at Step 3 (highest card). In fact "
            "in the rule set of this quiz, «%(rule_set)s», the order is turned round there: the "
            "meld whose lowest card is lower wins (R5.5)."
        ) % {"rule_set": c.rule_set_label}
    return _(
        "This answer uses the wrong card order for Undenufe at Step 3 (highest card). In fact "
        "the rule set of this quiz, «%(rule_set)s», keeps the natural order there: the meld with "
        "the higher top card wins (R5.5)."
    ) % {"rule_set": c.rule_set_label}


def _wrong_block_order(c: MistakeContext) -> str | None:
    return _(
        "This answer swaps Weis and Stöck. In fact in the rule set of this quiz, «%(rule_set)s», "
        "the blocks count in this order: %(order)s (R7.3)."
    ) % {
        "rule_set": c.rule_set_label,
        "order": ", ".join(str(ex.block_label(b)) for b in c.rules.target_order),
    }


IN_CONTEXT: dict[str, Callable[[MistakeContext], str | None]] = {
    "plain_values_as_trump": _plain_values_as_trump,
    "eights_not_counted": _eights_not_counted,
    "obenabe_undenufe_values_swapped": _values_swapped,
    "obenabe_undenufe_swapped": _order_swapped,
    "card_cannot_win": _card_cannot_win,
    "first_trump_wins": _first_trump_wins,
    "highest_rank_wins": _highest_rank_wins,
    "any_card_allowed": _any_card_allowed,
    "wrong_team_at_tie": _wrong_team_at_tie,
    "tie_nobody_writes": _tie_nobody_writes,
    "reason_confused": _reason_confused,
    "factor_forgotten": _factor_forgotten,
    "low_quads_counted": _low_quads_counted,
    "low_quads_not_counted": _low_quads_not_counted,
    "undenufe_order_wrong": _undenufe_order_wrong,
    "wrong_block_order": _wrong_block_order,
}
"""Mistakes whose sentence depends on the question: the contract or the rule set.
Each returns None where the general sentence of :data:`MISTAKES` is already true."""


def mistake_text(name: str, context: MistakeContext | None = None) -> str:
    """The sentence for mistake ``name``; for one question, pass its ``context``."""
    if context is not None and name in IN_CONTEXT:
        text = IN_CONTEXT[name](context)
        if text is not None:
            return text
    general = MISTAKES.get(name)
    if general is None:
        return _("This answer comes from a common slip; the explanation below shows each step.")
    return str(general)


__all__ = ["IN_CONTEXT", "MISTAKES", "MistakeContext", "gettext_lazy", "mistake_text"]
