"""What a wrong choice tells about the learner's reasoning, in a sentence.

The generators tag every distractor with the mistake that produces it; feedback
names that mistake so the learner sees why the tempting answer is wrong.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

MISTAKES: dict[str, Promise] = {
    # weis_value: what a player announces (R5.1-R5.4)
    "sum_of_melds": gettext_lazy(
        "This adds up all the melds. You announce only the value of your best meld (R5.4)."
    ),
    "kreuzweis_four_of_a_kind_missed": gettext_lazy(
        "This misses the four of a kind because one of its cards is already in a sequence. One "
        "card may belong to a sequence and a four of a kind at the same time (Kreuzweis), so "
        "both melds count (R5.3)."
    ),
    "kreuzweis_sequence_missed": gettext_lazy(
        "This misses the sequence because one of its cards is already in a four of a kind. One "
        "card may belong to a sequence and a four of a kind at the same time (Kreuzweis), so "
        "both melds count (R5.3)."
    ),
    "low_quads_counted": gettext_lazy(
        "This counts four 6s, 7s or 8s as 100. In this rule set (the W-EN variant) they score "
        "nothing (R5.2)."
    ),
    "low_quads_not_counted": gettext_lazy(
        "This gives four 6s, 7s or 8s no value. In this rule set they are worth 100, like four "
        "Aces (R5.2)."
    ),
    "gap_in_sequence": gettext_lazy(
        "This counts cards with a gap as a sequence. A sequence needs three or more cards of "
        "one suit in a row, with no card missing (R5.1)."
    ),
    "under_left_out_of_order": gettext_lazy(
        "This reads 10, Ober, King as a sequence and leaves out the Under. The Under stands "
        "between the 10 and the Ober, so these cards have a gap (R1.2, R5.1)."
    ),
    "three_of_a_kind_counted": gettext_lazy(
        "This counts three cards of one rank. Only four of a kind is a meld; three of a kind "
        "scores nothing (R5.2)."
    ),
    "puur_and_nell_fours_swapped": gettext_lazy(
        "This swaps the values of four Unders and four 9s. Four Unders are worth 200, four 9s "
        "(Nell) 150 (R5.2)."
    ),
    "every_four_of_a_kind_is_100": gettext_lazy(
        "This values every four of a kind at 100. Four Unders are worth 200 and four 9s (Nell) "
        "150 (R5.2)."
    ),
    "four_cards_read_as_sequence": gettext_lazy(
        "This scores four cards of one rank as a four-card sequence (50). A sequence is cards "
        "of one suit in a row; four of a kind has its own values (R5.1, R5.2)."
    ),
    "run_counted_one_card_too_long": gettext_lazy(
        "This is the value of a sequence one card longer. Count the cards again: 3 cards 20, 4 "
        "cards 50, 5 cards 100, then 50 more for each further card (R5.1)."
    ),
    "run_counted_one_card_too_short": gettext_lazy(
        "This is the value of a sequence one card shorter. Count the cards again: 3 cards 20, 4"
        " cards 50, 5 cards 100, then 50 more for each further card (R5.1)."
    ),
    "card_points_counted": gettext_lazy(
        "This adds up the card points of the meld's cards. A meld is announced at its Weis "
        "value from the meld table, not at its card points (R5.1, R5.2)."
    ),
    "factor_applied_to_announcement": gettext_lazy(
        "This multiplies the value by the contract's factor. You announce the meld's plain "
        "value; the factor applies only when the Weis is written (R5.4, R4.5)."
    ),
    # who_writes: which team writes Weis, and how much (R5.5, R5.6, R4.5)
    "team_with_more_points_writes": gettext_lazy(
        "This gives the Weis to the team whose melds add up to more. The single best meld "
        "decides, not the sum; only the team holding it writes (R5.5, R5.6)."
    ),
    "losing_team_writes": gettext_lazy(
        "This gives the Weis to the team whose best meld loses. Compare the two teams' best "
        "melds; only the team holding the better one writes (R5.5, R5.6)."
    ),
    "both_teams_added": gettext_lazy(
        "This adds the other team's melds too. Only the team with the single best meld writes, "
        "and it writes only its own melds (R5.6)."
    ),
    "best_meld_only": gettext_lazy(
        "This writes only the best meld. The writing team writes every meld of both partners "
        "(R5.6)."
    ),
    "partner_melds_forgotten": gettext_lazy(
        "This writes only the melds of the player with the best meld. The partner's melds count"
        " too: the team writes every meld of both partners (R5.6)."
    ),
    "announced_values_only": gettext_lazy(
        "This writes only the meld each partner announced. A player announces the best meld "
        "only, but the writing team writes every meld of both partners (R5.4, R5.6)."
    ),
    "kreuzweis_counted_once": gettext_lazy(
        "This counts the shared card in only one meld. In a Kreuzweis the card belongs to the "
        "sequence and to the four of a kind, and both melds are written (R5.3)."
    ),
    # undenufe_order_wrong: also ladder_step; either rule set's order can be the slip
    "undenufe_order_wrong": gettext_lazy(
        "This uses the wrong card order for Undenufe at the high-card step. By default the "
        "order is reversed there: the meld whose lowest card is lower wins. Only the W-EN "
        "variant keeps the natural order, where the higher top card wins (R5.5)."
    ),
    # factor_forgotten: also trick points
    "factor_forgotten": gettext_lazy(
        "This leaves out the contract's factor. Where a factor applies, every written score is "
        "multiplied by it, Weis and trick points included (R4.5)."
    ),
    "wrong_team_at_tie": gettext_lazy(
        "This gives the Weis to the wrong team. When the best melds are equal in points, cards "
        "and top card, a sequence in trump wins; failing that, the player who announced first "
        "(R5.5)."
    ),
    "tie_nobody_writes": gettext_lazy(
        "This lets nobody write. Equal melds still have a winner: a sequence in trump beats one"
        " outside it, and failing that the player who announced first wins (R5.5)."
    ),
    # ladder_step: which step of the ladder decides (R5.5)
    "wrong_winner": gettext_lazy(
        "This names the right step but the wrong winner. Look again at which meld is better at "
        "that step (R5.5)."
    ),
    "later_step_named": gettext_lazy(
        "This names a later step. The ladder stops at the first step where the two melds "
        "differ, and that step decides (R5.5)."
    ),
    "earlier_step_named": gettext_lazy(
        "This names an earlier step, where the two melds are still equal. A step decides only "
        "when the melds differ there; otherwise you go on to the next one (R5.5)."
    ),
    "later_step_and_wrong_winner": gettext_lazy(
        "This names a later step and the wrong winner. The ladder stops at the first step where"
        " the melds differ, and the better meld at that step wins (R5.5)."
    ),
    "earlier_step_and_wrong_winner": gettext_lazy(
        "This names an earlier step, where the melds are still equal, and the wrong winner. Go "
        "on to the first step where they differ; the better meld there wins (R5.5)."
    ),
    "deciding_step_skipped": gettext_lazy(
        "This walks past the step that decides. Go through points, cards, high card, trump and "
        "seat, and stop at the first step where the melds differ (R5.5)."
    ),
    "more_cards_win_first": gettext_lazy(
        "This compares the number of cards before the points. The higher value decides first; "
        "the number of cards counts only at equal points (R5.5)."
    ),
    "four_of_a_kind_beats_sequence": gettext_lazy(
        "This lets the four of a kind win. At equal points the meld with more cards wins, so a "
        "five-card sequence beats a four of a kind worth 100 (R5.5)."
    ),
    "trump_before_high_card": gettext_lazy(
        "This checks the trump suit before the top card. The higher top card (step 3) decides "
        "before the trump suit (step 4); a sequence in trump wins only when the top cards are "
        "equal (R5.5)."
    ),
    "trump_step_forgotten": gettext_lazy(
        "This skips the trump step and decides by seat. When points, cards and top card are "
        "equal, a sequence in the trump suit beats one outside it (R5.5)."
    ),
    "later_seat_wins": gettext_lazy(
        "This gives the tie to the later player. When everything else is equal, the meld of the"
        " player who announced first wins, counting from Vorhand (R5.5)."
    ),
    # stoeck: scored, lost, still possible, or no Stöck (R6.1-R6.5)
    "late_call_counted": gettext_lazy(
        "This counts a late call. Stöck must be called while playing the second card, before "
        "the next card is played; a late call loses the 20 points (R6.3, R6.5)."
    ),
    "prompted_call_counted": gettext_lazy(
        "This counts a call that came after a partner's reminder. The holder must call Stöck on"
        " their own; a prompted call does not count (R6.4)."
    ),
    "first_card_call_counted": gettext_lazy(
        "This counts a call made with the first card. Stöck is called while playing the second "
        "of the two cards; a call at the first card does not count (R6.2)."
    ),
    "stoeck_counted_without_call": gettext_lazy(
        "This counts Stöck just for holding King and Ober of trump. Stöck scores only when the "
        "holder calls it while playing the second card (R6.2)."
    ),
    "stoeck_in_no_trump_contract": gettext_lazy(
        "This treats King and Ober as Stöck in Obenabe or Undenufe. Stöck exists only in a "
        "trump contract (R6.1)."
    ),
    "split_pair_counted": gettext_lazy(
        "This treats a King and Ober in two different hands as Stöck. Both cards must be in one"
        " player's hand; split, even between partners, they are no Stöck (R6.1)."
    ),
    "split_pair_read_as_lost": gettext_lazy(
        "This calls the Stöck lost, but there is none. King and Ober in two different hands are"
        " never Stöck (R6.1)."
    ),
    "no_trump_read_as_lost": gettext_lazy(
        "This calls the Stöck lost, but there is none. Obenabe and Undenufe have no trump, so "
        "there is no Stöck (R6.1)."
    ),
    "deadline_misread": gettext_lazy(
        "This misreads the deadline. Stöck is called with the second card, at the latest before"
        " the next card is played: until then it is still possible, afterwards it is too late "
        "(R6.3, R6.4a)."
    ),
    "call_thought_still_open": gettext_lazy(
        "This treats the Stöck as still open. The holder already called it in time, with the "
        "second card, so it counts (R6.2, R6.3)."
    ),
    "call_thought_too_late": gettext_lazy(
        "This treats the deadline as passed. The second card is the last card played so far, so"
        " the holder may still call Stöck (R6.3, R6.4a)."
    ),
    "call_belongs_to_first_card": gettext_lazy(
        "This ties the call to the first card. The call came with the second card, which is "
        "exactly when Stöck is called (R6.2)."
    ),
    "call_expected_at_first_card": gettext_lazy(
        "This expects the call with the first card. Stöck is called with the second card, which"
        " has not been played yet, so the Stöck is still possible (R6.2, R6.4a)."
    ),
    "prompt_read_as_late": gettext_lazy(
        "This reads the call as late. It came in time, with the second card, but after a "
        "partner's reminder, and a prompted call does not count (R6.4)."
    ),
    "call_overlooked": gettext_lazy(
        "This overlooks the holder's call. Stöck was called; whether the call counts depends on"
        " when it came and whether a partner prompted it (R6.2, R6.3, R6.4)."
    ),
    "holder_overlooked": gettext_lazy(
        "This overlooks the holder. One player holds both King and Ober of trump, so there is a"
        " Stöck (R6.1)."
    ),
    "reason_confused": gettext_lazy(
        "This is the right verdict, no Stöck, but for the wrong reason. Check both conditions: "
        "a trump contract, and King and Ober of trump in one hand (R6.1)."
    ),
    # target: who wins, in which block (R7.1-R7.5)
    "most_points_wins": gettext_lazy(
        "This picks the team with the most points. A team wins only by reaching the target, and"
        " if both do, the one that gets there first in the counting order wins (R7.2, R7.3)."
    ),
    "tricks_counted_first": gettext_lazy(
        "This counts the tricks first. Tricks are the last block: Weis and Stöck are counted "
        "before them (R7.3)."
    ),
    "wrong_block_order": gettext_lazy(
        "This swaps Weis and Stöck. Count the blocks in the rule set's order: by default Weis, "
        "then Stöck, then tricks; with the Ausmachregel Stöck comes before Weis (R7.3)."
    ),
    "tricks_not_counted_in_order": gettext_lazy(
        "This counts each team's tricks as one block. Tricks count one by one in the order they"
        " were won; the trick that first brings a team to the target decides (R7.4)."
    ),
    "target_must_be_exceeded": gettext_lazy(
        "This requires going past the target. Reaching it is enough: a team with exactly the "
        "target score wins (R7.2)."
    ),
    "later_reacher_wins": gettext_lazy(
        "This picks the team that reaches the target later in the round. The team that gets "
        "there first, counting the blocks in order, wins (R7.3)."
    ),
    "losing_team_weis_counted": gettext_lazy(
        "This counts the other team's Weis too. Only the team with the single best meld writes "
        "Weis; the other team writes nothing (R5.6)."
    ),
    "team_or_block_confused": gettext_lazy(
        "This team and block do not decide. Count the blocks in order and stop where a team "
        "first reaches the target; if no team does, nobody wins yet (R7.3, R7.5)."
    ),
    # trick, legal: which cards may be played (R3.1-R3.5)
    "under_trump_allowed": gettext_lazy(
        "This allows under-trumping. When a non-trump suit was led and a trump is already in "
        "the trick, you may not play a lower trump, unless you hold only trumps (R3.3)."
    ),
    # plain_order_for_trumps: also trick winner
    "plain_order_for_trumps": gettext_lazy(
        "This ranks the trumps like a plain suit. In the trump suit the Puur is highest, then "
        "the Nell, then Ace, King, Ober, 10, 8, 7, 6 (R3.6)."
    ),
    "puur_exception_forgotten": gettext_lazy(
        "This forces you to play the Puur. When trump is led and the Puur is your only trump, "
        "you need not play it: any card is allowed (R3.4)."
    ),
    "puur_exception_misapplied": gettext_lazy(
        "This applies the Puur exception although you hold other trumps. It is only for a Puur "
        "alone; with any other trump you must play a trump when trump is led (R3.4)."
    ),
    "puur_may_not_be_played": gettext_lazy(
        "This forbids the Puur. The Puur exception means you need not play it on a trump lead, "
        "not that you may not; you may still play it (R3.4)."
    ),
    "only_trumps_exception_forgotten": gettext_lazy(
        "This forbids a lower trump although you hold only trumps. If every card in your hand "
        "is a trump, you may play any of them, even below the trump in the trick (R3.3)."
    ),
    "only_trumps_exception_forgotten_and_plain_order": gettext_lazy(
        "This forgets that a hand of only trumps may play any trump, and it ranks the trumps "
        "like a plain suit. With only trumps in hand every card is allowed; Puur and Nell are "
        "the highest trumps (R3.3, R3.6)."
    ),
    "trump_lead_need_not_be_followed": gettext_lazy(
        "This lets you ignore a trump lead. When trump is led you must play a trump if you have"
        " one, unless the Puur is your only trump (R3.1, R3.4)."
    ),
    "trumping_needs_void": gettext_lazy(
        "This lets you trump only when you cannot follow suit. You may trump even when you "
        "could follow suit, as long as you do not under-trump (R3.2, R3.3)."
    ),
    "must_trump_when_void": gettext_lazy(
        "This makes you trump when you cannot follow suit. There is no duty to trump: if you "
        "cannot follow suit, you may play any card, as long as you do not under-trump (R3.3, "
        "R3.5)."
    ),
    "must_beat_the_trick": gettext_lazy(
        "This makes you beat the trick. There is no duty to play a higher card; you only have "
        "to follow suit if you can (R3.1)."
    ),
    "any_card_allowed": gettext_lazy(
        "This ignores the duty to follow suit. You must follow the led suit if you can; in a "
        "trump contract trumping is also allowed (R3.1, R3.2)."
    ),
    # trick, winner: which card wins (R3.6)
    "trump_ignored": gettext_lazy(
        "This ignores the trumps. A trump beats every card of another suit, so the highest "
        "trump in the trick wins (R3.6)."
    ),
    "highest_rank_wins": gettext_lazy(
        "This ignores the suits. Only a trump or a card of the led suit can win; a card of "
        "another suit never wins, however high (R3.6)."
    ),
    "obenabe_undenufe_swapped": gettext_lazy(
        "This swaps Obenabe and Undenufe. In Obenabe the Ace is highest; in Undenufe the order "
        "is turned round and the 6 is highest (R3.6)."
    ),
    "first_trump_wins": gettext_lazy(
        "This gives the trick to the first trump played. The highest trump wins, in the order "
        "Puur, Nell, Ace, King, Ober, 10, 8, 7, 6 (R3.6)."
    ),
    # trick, points: what a trick is worth (R4.1-R4.5)
    "last_trick_bonus_forgotten": gettext_lazy(
        "This leaves out the 5 points for the last trick. The ninth trick earns 5 extra points "
        "(R4.4)."
    ),
    "last_trick_bonus_added": gettext_lazy(
        "This adds the 5 for the last trick to another trick. Only the ninth trick earns the "
        "extra 5 points (R4.4)."
    ),
    "trump_values_as_plain": gettext_lazy(
        "This counts the trumps at plain values. In the trump suit the Puur is worth 20 and the"
        " Nell 14 (R4.1)."
    ),
    "plain_values_as_trump": gettext_lazy(
        "This counts an Under or 9 outside trump like the Puur or Nell. In the other suits the "
        "Under is worth 2 and the 9 nothing (R4.1)."
    ),
    "obenabe_undenufe_values_swapped": gettext_lazy(
        "This swaps the Obenabe and Undenufe values. In Obenabe the Ace is worth 11 and the 6 "
        "nothing; in Undenufe the 6 is worth 11 and the Ace nothing (R4.2, R4.3)."
    ),
    "eights_not_counted": gettext_lazy(
        "This gives the 8s no points. In Obenabe and Undenufe every 8 is worth 8 (R4.2, R4.3)."
    ),
}


def mistake_text(name: str) -> str:
    text = MISTAKES.get(name)
    if text is None:
        return _("This answer comes from a common slip; the explanation below shows each step.")
    return str(text)


__all__ = ["MISTAKES", "gettext_lazy", "mistake_text"]
