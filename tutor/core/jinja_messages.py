"""Message ids of the Jinja2 templates (jinja_templates/), for makemessages,
which reads only Django templates and Python. Written by ``manage.py
jinja_messages`` (``make messages`` runs it first); a test checks that it is
current. Never imported."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def _messages() -> None:
    _("decides")  # components/rules.jinja
    _("best meld")  # components/rules.jinja
    _("No Weis in this hand.")  # components/rules.jinja
    _("No cards given.")  # components/rules.jinja
    _("The teams' best melds")  # components/rules.jinja
    _("no meld")  # components/rules.jinja
    _("Nobody has a meld: no team writes Weis.")  # components/rules.jinja
    _("%(team)s writes Weis: %(points)s points × factor %(factor)s = %(scored)s.")  # components/rules.jinja
    _("%(team)s writes Weis: %(points)s points, all melds of both partners.")  # components/rules.jinja
    _("The other team writes no Weis.")  # components/rules.jinja
    _("Trick %(n)s")  # components/rules.jinja
    _("after the partner's reminder:")  # components/rules.jinja
    _("said by %(player)s")  # components/rules.jinja
    _("%(holder)s holds king and Ober of trump.")  # components/rules.jinja
    _("Counting towards %(target)s")  # components/rules.jinja
    _("Step")  # components/rules.jinja
    _("Before the round")  # components/rules.jinja
    _("Breadcrumb")  # quizzes/card.jinja
    _("Practice")  # quizzes/card.jinja
    _("Question %(n)s of %(total)s")  # quizzes/card.jinja
    _("Next question")  # quizzes/card.jinja
    _("See the summary")  # quizzes/card.jinja
    _("Answers")  # quizzes/card.jinja
    _("Your answer is saved. Your teacher shows the explanations after the due date.")  # quizzes/card.jinja
    _("Answer")  # quizzes/card.jinja
    _("Rule set: %(name)s")  # quizzes/kinds.jinja
    _("The answer depends on the rule set.")  # quizzes/kinds.jinja
    _("Which card is the Puur?")  # quizzes/kinds.jinja
    _("Which card is the Nell?")  # quizzes/kinds.jinja
    _("Who is the partner of %(player)s?")  # quizzes/kinds.jinja
    _("Who must choose the contract?")  # quizzes/kinds.jinja
    _("Who leads the first trick?")  # quizzes/kinds.jinja
    _("Who is the Vorhand in the next round?")  # quizzes/kinds.jinja
    _("Who plays the last card of the first trick?")  # quizzes/kinds.jinja
    _("What does the player announce?")  # quizzes/kinds.jinja
    _("Which team writes Weis, and how much?")  # quizzes/kinds.jinja
    _("Which step of the ladder decides, and who wins?")  # quizzes/kinds.jinja
    _("Is there Stöck here, and does it count?")  # quizzes/kinds.jinja
    _("Who wins the game, and in which block?")  # quizzes/kinds.jinja
    _("Which cards may the player play?")  # quizzes/kinds.jinja
    _("Which of these cards may the player play?")  # quizzes/kinds.jinja
    _("Which card wins the trick?")  # quizzes/kinds.jinja
    _("How many points is this trick worth?")  # quizzes/kinds.jinja
    _("Does the announcement of %(player)s count?")  # quizzes/kinds.jinja
    _("How much does %(team)s write for this round?")  # quizzes/kinds.jinja
    _("Which card carries this name depends on the trump suit shown above.")  # quizzes/kinds.jinja
    _("The players are counted in the order they play, starting with the Vorhand: Player 1 is the Vorhand of this round.")  # quizzes/kinds.jinja
    _("Player 1 looks at the hand and says «I push» (schieben).")  # quizzes/kinds.jinja
    _("Player 1 pushed, and %(player)s chose roses as trump.")  # quizzes/kinds.jinja
    _("This round is over and the cards are dealt for the next one. Answer with this round's numbers.")  # quizzes/kinds.jinja
    _("Nobody pushed: Player 1 chose the contract.")  # quizzes/kinds.jinja
    _("The player holds this hand and plays the first card:")  # quizzes/kinds.jinja
    _("Every player announces the value of their best meld. The hands:")  # quizzes/kinds.jinja
    _("This contract counts with factor %(f)s.")  # quizzes/kinds.jinja
    _("The two cards were dealt like this: %(king)s to %(king_player)s, %(ober)s to %(ober_player)s.")  # quizzes/kinds.jinja
    _("The trump suit is %(trump)s.")  # quizzes/kinds.jinja
    _("The round so far, the two cards marked:")  # quizzes/kinds.jinja
    _("The round is over.")  # quizzes/kinds.jinja
    _("The round goes on: this is everything played so far.")  # quizzes/kinds.jinja
    _("Playing to %(target)s. Before this round: Team 1 has %(a)s, Team 2 has %(b)s.")  # quizzes/kinds.jinja
    _("What the round writes")  # quizzes/kinds.jinja
    _("Block")  # quizzes/kinds.jinja
    _("The tricks in the order they were won:")  # quizzes/kinds.jinja
    _("%(n)s. %(team)s %(points)s")  # quizzes/kinds.jinja
    _("Already in the trick:")  # quizzes/kinds.jinja
    _("The player leads the trick.")  # quizzes/kinds.jinja
    _("The hand of %(player)s:")  # quizzes/kinds.jinja
    _("This is the last trick of the round.")  # quizzes/kinds.jinja
    _("This is trick %(n)s of 9.")  # quizzes/kinds.jinja
    _("The trick is gathered in.")  # quizzes/kinds.jinja
    _("The hands; their melds are marked:")  # quizzes/kinds.jinja
    _("The first trick, card by card. What a player says is shown after the card it followed:")  # quizzes/kinds.jinja
    _("A player shown saying nothing said nothing.")  # quizzes/kinds.jinja
    _("Weis: every player announced their best meld. %(team)s holds the best one; its melds are worth %(points)s together.")  # quizzes/kinds.jinja
    _("Stöck: %(holder)s holds king and Ober of trump and said «Stöck» with the second of them.")  # quizzes/kinds.jinja
    _("Stöck: %(holder)s holds king and Ober of trump and never said «Stöck».")  # quizzes/kinds.jinja
    _("Stöck: %(holder)s holds king and Ober of trump but did not say «Stöck» in time on their own.")  # quizzes/kinds.jinja
    _("The nine tricks")  # quizzes/kinds.jinja
    _("Trick")  # quizzes/kinds.jinja
    _("Won by")  # quizzes/kinds.jinja
    _("Card points")  # quizzes/kinds.jinja
    _("%(card)s is the Puur: the Puur is the Under of the trump suit, the Nell its 9; an Under or a 9 of another suit has no special name.")  # quizzes/kinds.jinja
    _("%(card)s is the Nell: the Nell is the 9 of the trump suit, the Puur its Under; a 9 or an Under of another suit has no special name.")  # quizzes/kinds.jinja
    _("Partners sit opposite each other, so the partner of %(player)s is %(partner)s: %(team)s.")  # quizzes/kinds.jinja
    _("After the Vorhand pushes, the partner sitting opposite must choose: %(player)s. Pushing back is not allowed.")  # quizzes/kinds.jinja
    _("The Vorhand leads the first trick, also when the partner chose the contract: %(player)s.")  # quizzes/kinds.jinja
    _("The Vorhand passes on by one seat with every round: the next Vorhand is this round's %(player)s.")  # quizzes/kinds.jinja
    _("The players play in turn from the one who leads, the Vorhand, so %(player)s plays the last card.")  # quizzes/kinds.jinja
    _("The player announces %(points)s, the value of the best meld only.")  # quizzes/kinds.jinja
    _("No meld: the player announces nothing.")  # quizzes/kinds.jinja
    _("%(card)s wins the trick.")  # quizzes/kinds.jinja
    _("It is the highest trump (trump order: Puur, Nell, ace, king, Ober, 10, 8, 7, 6).")  # quizzes/kinds.jinja
    _("Obenabe has no trump: the highest card of the led suit wins, the ace first.")  # quizzes/kinds.jinja
    _("Undenufe has no trump: the lowest card of the led suit wins, the 6 first.")  # quizzes/kinds.jinja
    _("No trump was played, so the highest card of the led suit wins.")  # quizzes/kinds.jinja
    _("Last trick")  # quizzes/kinds.jinja
    _("Factor")  # quizzes/kinds.jinja
    _("Total")  # quizzes/kinds.jinja
    _("%(player)s plays the last card of the trick and said %(word)s before the trick was gathered in: in time, the announcement counts.")  # quizzes/kinds.jinja
    _("%(player)s said %(word)s before %(next)s played a card: in time, the announcement counts.")  # quizzes/kinds.jinja
    _("%(player)s said %(word)s only after %(next)s had played a card: too late, the announcement does not count.")  # quizzes/kinds.jinja
    _("%(player)s said %(word)s only after the trick had been gathered in: too late. The last player of a trick may announce until the trick is gathered in, not after.")  # quizzes/kinds.jinja
    _("said nothing with the first card: no claim.")  # quizzes/kinds.jinja
    _("said %(word)s too late: no claim.")  # quizzes/kinds.jinja
    _("said %(word)s: the claim is %(claim)s.")  # quizzes/kinds.jinja
    _("The better meld %(better)s was not announced and takes no part in the comparison.")  # quizzes/kinds.jinja
    _("said %(word)s but holds no meld of that value: no claim.")  # quizzes/kinds.jinja
    _("The teams' best claims")  # quizzes/kinds.jinja
    _("no claim")  # quizzes/kinds.jinja
    _("No claim counts: no team writes Weis.")  # quizzes/kinds.jinja
    _("%(team)s writes Weis: every meld of its players who announced in time, %(points)s points × factor %(factor)s = %(scored)s.")  # quizzes/kinds.jinja
    _("%(team)s writes Weis: every meld of its players who announced in time, %(points)s points.")  # quizzes/kinds.jinja
    _("The melds of %(player)s are not written: no announcement in time.")  # quizzes/kinds.jinja
    _("%(team)s writes %(weis)s (Weis) + %(stoeck)s (Stöck) + %(tricks)s (tricks) = %(total)s.")  # quizzes/kinds.jinja
    _("%(team)s took all nine tricks: the match adds 100 to its tricks.")  # quizzes/kinds.jinja
    _("Round %(r)s at the table: all nine tricks are played.")  # quizzes/kinds.jinja
    _("Round %(r)s at the table: the first trick, as it was played.")  # quizzes/kinds.jinja
    _("Round %(r)s at the table, trick %(t)s: %(player)s is to play.")  # quizzes/kinds.jinja
    _("Right!")  # quizzes/kinds.jinja
    _("Not quite.")  # quizzes/kinds.jinja
    _("correct answer")  # quizzes/kinds.jinja
    _("your answer")  # quizzes/kinds.jinja
    _("Step by step")  # quizzes/kinds.jinja
    _("Read again:")  # quizzes/kinds.jinja
    _("you")  # table/round.jinja
    _("your partner")  # table/round.jinja
    ngettext("%(n)s card", "%(n)s cards", 1)  # table/round.jinja
    ngettext("%(n)s trick", "%(n)s tricks", 1)  # table/round.jinja
    _("Weis: %(v)s")  # table/round.jinja
    _("too late")  # table/round.jinja
    _("«Remember your Stöck!»")  # table/round.jinja
    _("Shows:")  # table/round.jinja
    _("The table")  # table/round.jinja
    _("You lead: play the first card.")  # table/round.jinja
    _("Before the second trick")  # table/round.jinja
    _("All nine tricks are played")  # table/round.jinja
    _("Trick %(n)s went to %(who)s: %(points)s card points.")  # table/round.jinja
    _("At the table they said")  # table/round.jinja
    _("Your hand: choose a card to play")  # table/round.jinja
    _("Announce with this card:")  # table/round.jinja
    _("No Weis")  # table/round.jinja
    _("«Stöck!» with this card")  # table/round.jinja
    _("Play the card")  # table/round.jinja
    _("Say «Stöck!» now")  # table/round.jinja
    _("The first trick is gathered. Nobody shows a meld.")  # table/round.jinja
    _("The first trick is gathered. The team with the best claim shows its melds (see the table above).")  # table/round.jinja
    _("Which team writes (scores) Weis?")  # table/round.jinja
    _("Nobody writes Weis")  # table/round.jinja
    _("How many points does it write?")  # table/round.jinja
    _("Every meld of the writing team's players who announced a Weis")  # table/round.jinja
    _("times %(f)s")  # table/round.jinja
    _("Write it")  # table/round.jinja
    _("Forgot to announce your Weis?")  # table/round.jinja
    _("Announce now:")  # table/round.jinja
    _("Announce")  # table/round.jinja
    _("Write the round on the Jasstafel: each team's Weis, Stöck and tricks (with 5 for the last trick, 100 for a match, times the contract's factor).")  # table/round.jinja
    _("Jasstafel")  # table/round.jinja
    _("players 1 and 3")  # table/round.jinja
    _("players 2 and 4")  # table/round.jinja
    _("Who reaches %(target)s first?")  # table/round.jinja
    _("Before this round: Team 1 %(a)s, Team 2 %(b)s.")  # table/round.jinja
    _("Count the blocks in the rule set's order; when the tricks decide, count them trick by trick.")  # table/round.jinja
    _("Nobody: play goes on")  # table/round.jinja
    _("In which block?")  # table/round.jinja
    _("With which trick? (tricks block only)")  # table/round.jinja
    _("Check the Jasstafel")  # table/round.jinja
    _("Contract")  # table/round.jinja
    _("counts ×%(f)s")  # table/round.jinja
    _("Before this round")  # table/round.jinja
    _("Target")  # table/round.jinja
    _("You are")  # table/round.jinja
    _("Rule set")  # table/round.jinja
    _("Assignment")  # table/round.jinja
    _("round %(k)s of %(n)s")  # table/round.jinja
    _("%(who)s, %(points)s card points")  # table/round.jinja
    _("You wrote")  # table/round.jinja
    _("Correct")  # table/round.jinja
    _("Read it in the lesson")  # table/round.jinja
    _("The round is over")  # table/round.jinja
    _("Your decisions so far")  # table/round.jinja
    _("%(right)s right, %(wrong)s not right.")  # table/round.jinja
    _("The Jasstafel of this round")  # table/round.jinja
    _("Tricks")  # table/round.jinja
    _("Round")  # table/round.jinja
    _("Every decision")  # table/round.jinja
    _("lesson")  # table/round.jinja
    _("No decisions yet.")  # table/round.jinja
    _("The four hands as dealt")  # table/round.jinja
    _("Your last move")  # table/round.jinja
    _("Play another round")  # table/round.jinja
    ngettext("%(n)s trick so far", "%(n)s tricks so far", 1)  # table/round.jinja
