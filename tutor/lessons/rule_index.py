"""Every rule ID of RULES.md with a short title, so a page can name and link a rule.

The IDs are the project's spine: the rules core cites them in its traces, lessons
list them in their front matter, tests are named after them.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

RULE_TITLES: dict[str, Promise] = {
    "R1.1": _("36 cards, four suits of nine"),
    "R1.2": _("Ranks in natural order and card codes"),
    "R1.3": _("Trump names: Puur and Nell"),
    "R2.1": _("Four players, partners opposite; players counted from the Vorhand"),
    "R2.2": _("Nine cards each, nine tricks; who is Vorhand"),
    "R2.3": _("Choosing the contract or pushing (schieben)"),
    "R2.4": _("Contracts: Trumpf, Obenabe, Undenufe"),
    "R3.1": _("Follow suit"),
    "R3.2": _("Trumping is always allowed"),
    "R3.3": _("No under-trumping"),
    "R3.4": _("The Puur exception"),
    "R3.5": _("Cannot follow suit: any card"),
    "R3.6": _("Who wins a trick"),
    "R3.7": _("Revoke and misdeal"),
    "R4.1": _("Card points in a trump contract"),
    "R4.2": _("Card points in Obenabe"),
    "R4.3": _("Card points in Undenufe"),
    "R4.4": _("152 card points, last trick 5, match 100"),
    "R4.5": _("Factors multiply every written score"),
    "R5.1": _("Sequences and their values"),
    "R5.2": _("Four of a kind and its values"),
    "R5.3": _("Kreuzweis: one card in two melds"),
    "R5.4": _("Announcing Weis in the first trick"),
    "R5.4a": _("The announced value is the claim compared"),
    "R5.4b": _("A silent player writes none of their melds"),
    "R5.5": _("Comparing two melds: the ladder"),
    "R5.6": _("Only the team with the best meld writes Weis"),
    "R5.7": _("Showing Weis at the second trick"),
    "R6.1": _("Stöck: king and Ober of trump in one hand"),
    "R6.2": _("Calling Stöck with the second card"),
    "R6.3": _("The Stöck deadline"),
    "R6.4": _("Stöck on one's own initiative"),
    "R6.4a": _("Stöck still possible mid-round"),
    "R6.5": _("Stöck lost: too late, not called, or reminded by the partner"),
    "R7.1": _("Three blocks: Weis, Stöck, tricks"),
    "R7.2": _("Playing to a target"),
    "R7.3": _("Blocks count in order at the target"),
    "R7.4": _("Trick by trick within the tricks block"),
    "R7.5": _("No team at the target: next round"),
    "R8": _("Rule set: defaults and variants"),
}


def rule_sort_key(rule_id: str) -> tuple[int, int, str]:
    """R6.4a sorts after R6.4 and R10.1 after R9.1.

    >>> sorted(["R5.5", "R5.4b", "R5.4", "R5.4a"], key=rule_sort_key)
    ['R5.4', 'R5.4a', 'R5.4b', 'R5.5']
    """
    body = rule_id[1:]
    major, _dot, minor = body.partition(".")
    digits = "".join(ch for ch in minor if ch.isdigit())
    return (int(major), int(digits or 0), minor[len(digits) :])


SOURCE_TITLES: dict[str, Promise] = {
    "W-EN": _("English guide “How do Jass Weis points work?”"),
    "W-DE": _("German Weis article (Jassverband recommendation)"),
    "S-EN": _("English “Jass (Schieber) – Rules” page"),
    "ST-DE": _("German “Stöck Jass Regel”"),
}
