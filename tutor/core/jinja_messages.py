"""Message ids of the Jinja2 templates (jinja_templates/), for makemessages,
which reads only Django templates and Python. Written by ``manage.py
jinja_messages`` (``make messages`` runs it first); a test checks that it is
current. Never imported."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def _messages() -> None:
    _("you")  # table/round.jinja
    _("your partner")  # table/round.jinja
    ngettext("%(n)s card", "%(n)s cards", 1)  # table/round.jinja
    ngettext("%(n)s trick", "%(n)s tricks", 1)  # table/round.jinja
    _("Weis: %(v)s")  # table/round.jinja
    _("too late")  # table/round.jinja
    _("«Remember your Stöck!»")  # table/round.jinja
    _("Shows:")  # table/round.jinja
    _("The table")  # table/round.jinja
    _("Trick %(n)s")  # table/round.jinja
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
    _("%(who)s, %(points)s card points")  # table/round.jinja
    _("Block")  # table/round.jinja
    _("You wrote")  # table/round.jinja
    _("Correct")  # table/round.jinja
    _("decides")  # table/round.jinja
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
    _("Contract")  # table/round.jinja
    _("counts ×%(f)s")  # table/round.jinja
    _("Before this round")  # table/round.jinja
    _("Target")  # table/round.jinja
    _("You are")  # table/round.jinja
    _("Rule set")  # table/round.jinja
    _("Assignment")  # table/round.jinja
    _("round %(k)s of %(n)s")  # table/round.jinja
    _("Your last move")  # table/round.jinja
    _("Play another round")  # table/round.jinja
    ngettext("%(n)s trick so far", "%(n)s tricks so far", 1)  # table/round.jinja
