"""Item analysis of an assignment: facility, discrimination and what to reteach per question."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils import formats, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tutor.lessons.selectors import rule_links
from tutor.quizzes.mistakes import MISTAKES, mistake_text
from tutor.quizzes.models import QuizQuestion

from .. import charts
from ..models import Assignment
from .common import Column, _percent, skill_label
from .picks import Pick, WrongChoice, _choice_text, _wrong_choices, mistake_short

# --- item analysis -------------------------------------------------------------------
#
# How far each question (or each kind of question) can be trusted, with the figures of
# Moodle's quiz statistics report (question/classes/statistics/questions/calculator.php
# and mod/quiz/report/statistics/statistics_table.php):
#
# - Who counts: the members whose *first* attempt is submitted, with that attempt. On it
#   everybody met the questions unprepared, each learner counts once, and with "same
#   questions for everybody" everybody met the very same question at each position (a
#   second attempt deals new ones). Moodle's report counts first attempts by default too.
#   A question left unanswered in a submitted attempt counts as wrong (mark 0).
# - An item's *mark* for a learner: 1 or 0 for a question; for a kind, the number of its
#   questions the learner got right. The learner's *othermark*: their total on the
#   attempt minus the item's mark, the score on the rest of the test. Comparing with the
#   rest, not the total, matters: a total that includes the item agrees with it by
#   construction, and on a test of four questions that alone made chance answers look
#   discriminating (the old index, on thirds of the learners ranked by total, gave 90 % of
#   coin-flip questions 0.3 or more).
# - Facility: the share of the questions answered right (Moodle: mean mark / maximum).
# - Discrimination index: 100 × cov(mark, othermark) / sqrt(var(mark) × var(othermark)),
#   with n − 1 in each: the correlation of the item with the rest of the test, from
#   −100 to 100. None (blank, not 0) when a variance is 0 (everybody counted got the
#   item right, or everybody wrong, or everybody scored the same on the rest) and with
#   fewer than two learners; Moodle leaves it blank then.
# - Discriminative efficiency: 100 × cov / covmax, where covmax is the covariance of the
#   same marks and othermarks paired in the best order (both sorted, lowest with lowest;
#   no pairing gives more). It says how much of the discrimination the item's facility
#   allows it reaches: a question almost everybody gets right cannot correlate much.
#   None when covmax is 0 (a variance is 0).
# - Dubious: an efficiency below 15, Moodle's threshold (is_dubious_question).
# - A kind that is the whole test has no rest to compare with: no figures at all.
# - Chance: when an item has nothing to do with the rest of the test, its index still
#   spreads around 0, with a standard deviation of 100 / sqrt(n - 1) over the orders in
#   which the same marks could have been paired (the permutation distribution of a
#   correlation has mean 0 and variance 1 / (n - 1)): about 19 with 30 learners.
# - Small classes: Moodle shows the figures from two learners on. With fewer than
#   MIN_LEARNERS (6) counted the page shows "too few" instead: chance alone would move
#   the index by 50 or more (one standard deviation, 100 / sqrt(4)).

MIN_LEARNERS = 6
DUBIOUS_BELOW = 15  # discriminative efficiency, per cent: Moodle's is_dubious_question
RULE_ID = re.compile(r"\bR\d+(?:\.\d+[a-z]?)?")


@dataclass(frozen=True)
class Discrimination:
    """Moodle's discrimination index and discriminative efficiency of one item, in per
    cent; None where Moodle leaves the figure blank.

    >>> Discrimination(index=27.4, efficiency=12.0).dubious
    True
    >>> Discrimination(index=None, efficiency=None).dubious
    False
    """

    index: float | None
    efficiency: float | None

    @property
    def dubious(self) -> bool:
        """Efficiency below :data:`DUBIOUS_BELOW` (Moodle flags such a question)."""
        return self.efficiency is not None and self.efficiency < DUBIOUS_BELOW


NO_DISCRIMINATION = Discrimination(index=None, efficiency=None)


def discrimination(marks: Sequence[tuple[int, int]]) -> Discrimination:
    """Moodle's discrimination index and discriminative efficiency from (mark, othermark)
    per learner: the item's mark and the learner's score on the rest of the test.

    Sums of integers, so "a variance is 0" is an exact test, not a rounding question.

    >>> d = discrimination([(1, 2), (1, 1), (0, 1), (0, 0)])
    >>> round(d.index, 2), round(d.efficiency, 2)
    (70.71, 100.0)
    >>> discrimination([(1, 2), (1, 0), (1, 1)])  # everybody right: no variance
    Discrimination(index=None, efficiency=None)
    >>> discrimination([(1, 2)])  # one learner
    Discrimination(index=None, efficiency=None)
    """
    n = len(marks)
    if n < 2:
        return NO_DISCRIMINATION
    sum_x = sum(x for x, _y in marks)
    sum_y = sum(y for _x, y in marks)
    # n · (n − 1) times the covariances and variances: the common factor cancels.
    covariance = n * sum(x * y for x, y in marks) - sum_x * sum_y
    variance_x = n * sum(x * x for x, _y in marks) - sum_x * sum_x
    variance_y = n * sum(y * y for _x, y in marks) - sum_y * sum_y
    best_order = zip(sorted(x for x, _y in marks), sorted(y for _x, y in marks), strict=True)
    covariance_max = n * sum(x * y for x, y in best_order) - sum_x * sum_y
    index = (
        100 * covariance / math.sqrt(variance_x * variance_y) if variance_x and variance_y else None
    )
    efficiency = 100 * covariance / covariance_max if covariance_max else None
    return Discrimination(index=index, efficiency=efficiency)


def chance_spread(learners: int) -> float | None:
    """The standard deviation of the discrimination index of an item unrelated to the
    rest of the test, over every order in which ``learners`` learners' marks could be
    paired: 100 / sqrt(n - 1). None below two learners.

    >>> round(chance_spread(30), 1)
    18.6
    """
    if learners < 2:
        return None
    return 100 / math.sqrt(learners - 1)


def percent_text(value: float) -> str:
    """A statistic for the page: one decimal in the active language's format, rounded
    half up (as the CSV's two places are), and a real minus sign, which screen readers
    read as "minus" where they may skip a hyphen.

    >>> with translation.override("en"):
    ...     percent_text(-9.94), percent_text(15.625), percent_text(100)
    ('−9.9\\xa0%', '15.6\\xa0%', '100.0\\xa0%')
    """
    rounded = Decimal(repr(float(value))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    text = str(formats.number_format(rounded, decimal_pos=1, use_l10n=True))
    return text.replace("-", "\N{MINUS SIGN}") + "\N{NO-BREAK SPACE}%"


def facility(right: int, questions: int) -> int | None:
    """Per cent of ``questions`` answered right; None without questions."""
    return _percent(right, questions)


def mistake_rules(mistake: str) -> list[str]:
    """The rule IDs a mistake's sentence cites ("... (R5.1, R5.2)."), read from the
    untranslated sentence so that a translation cannot lose them."""
    text = MISTAKES.get(mistake)
    if text is None:
        return []
    with translation.override(None):
        return RULE_ID.findall(str(text))


@dataclass(frozen=True)
class Reteach:
    """What to teach again for an item: its most picked mistake, and where the lessons
    teach the rule it breaks (``url`` is "" when no lesson teaches it)."""

    mistake: str
    text: str
    count: int
    rule: str
    url: str
    section: str

    @property
    def short(self) -> str:
        return mistake_short(self.text)


def reteach_for(choice: WrongChoice | None, rules_tested: Sequence[str] = ()) -> Reteach | None:
    """The lesson paragraph for the rule ``choice``'s mistake breaks (the first rule its
    sentence cites that a lesson teaches, else the first the question tests), in the
    active language; None when nobody picked a wrong choice."""
    if choice is None or not choice.count:
        return None
    links = rule_links((translation.get_language() or "de")[:2])
    cited = mistake_rules(choice.mistake)
    rule = next((r for r in [*cited, *rules_tested] if r in links), None)
    if rule is None:
        return Reteach(choice.mistake, choice.text, choice.count, next(iter(cited), ""), "", "")
    link = links[rule]
    return Reteach(choice.mistake, choice.text, choice.count, rule, link.url, link.section)


@dataclass(frozen=True)
class ItemStat:
    """One row of the item analysis: a question kind, or one question (``number``)."""

    kind: str
    label: str
    number: int | None  # the question's number (1-based); None for a whole kind
    learners: int
    questions: int  # counted: one per learner for a question, several for a kind
    right: int
    unanswered: int
    wrong: tuple[WrongChoice, ...]  # most picked first
    discrimination: Discrimination  # Moodle's figures, also for a class too small to show
    reteach: Reteach | None
    whole_test: bool = False  # a kind that is every question: no rest to compare with

    @property
    def facility(self) -> int | None:
        return facility(self.right, self.questions)

    @property
    def facility_exact(self) -> float | None:
        """The facility unrounded, per cent (the CSV carries its decimals)."""
        return 100 * self.right / self.questions if self.questions else None

    @property
    def shows_discrimination(self) -> bool:
        """Whether the page shows the figures: enough learners, and a rest of the test."""
        return not self.whole_test and self.learners >= MIN_LEARNERS

    @property
    def index(self) -> float | None:
        """The discrimination index as the page shows it; None where it shows a reason."""
        return self.discrimination.index if self.shows_discrimination else None

    @property
    def efficiency(self) -> float | None:
        return self.discrimination.efficiency if self.shows_discrimination else None

    @property
    def index_text(self) -> str:
        """The index as the page shows it ("27.4 %"), or why it shows none."""
        return self.blank_reason if self.index is None else percent_text(self.index)

    @property
    def efficiency_text(self) -> str:
        return self.blank_reason if self.efficiency is None else percent_text(self.efficiency)

    @property
    def dubious(self) -> bool:
        return self.shows_discrimination and self.discrimination.dubious

    @property
    def blank_reason(self) -> str:
        """Why the page shows no index (a few words, translated); "" when it shows one."""
        if self.whole_test:
            return str(gettext("whole test"))
        if self.learners < MIN_LEARNERS:
            return str(gettext("too few"))
        if self.discrimination.index is not None:
            return ""
        if self.right == self.questions:
            return str(gettext("all right"))
        if self.right == 0:
            return str(gettext("none right"))
        return str(gettext("no spread"))

    @property
    def unanswered_share(self) -> int | None:
        return _percent(self.unanswered, self.questions)

    @property
    def name(self) -> str:
        if self.number is None:
            return self.label
        return str(_("Q%(n)s · %(kind)s") % {"n": self.number, "kind": self.label})


@dataclass
class ItemAnalysis:
    learners: int  # first attempts submitted, counted
    members: int
    by_kind: list[ItemStat]
    by_question: list[ItemStat]  # empty unless everybody got the same questions

    @property
    def not_counted(self) -> int:
        return self.members - self.learners

    @property
    def too_few(self) -> bool:
        return self.learners < MIN_LEARNERS

    @property
    def min_learners(self) -> int:
        return MIN_LEARNERS

    @property
    def dubious_below(self) -> int:
        return DUBIOUS_BELOW

    @property
    def chance_spread(self) -> int | None:
        """:func:`chance_spread` for the learners counted, whole (the page's help)."""
        spread = chance_spread(self.learners)
        return round(spread) if spread is not None else None

    @property
    def chance_spread_twice(self) -> int | None:
        spread = chance_spread(self.learners)
        return round(2 * spread) if spread is not None else None

    @property
    def two_kinds(self) -> bool:
        """Exactly two kinds: each is the other's rest of the test, so the two share
        their figures (a correlation and its best pairing are symmetric)."""
        return len(self.by_kind) == 2

    @property
    def items(self) -> list[ItemStat]:
        return [*self.by_kind, *self.by_question]

    @property
    def groups(self) -> list[tuple[str, str, list[ItemStat]]]:
        """(key, heading, items) for the page: per kind, then per question."""
        return [
            ("kinds", str(_("Per question kind")), self.by_kind),
            ("questions", str(_("Per question")), self.by_question),
        ]


def item_analysis(
    assignment: Assignment,
    columns: list[Column],
    attempts: list[dict[int, QuizQuestion]],
    *,
    members: int,
    wrong_data: dict[int, dict[str, Any]],
    sample: dict[int, QuizQuestion],
    deck: str = "swiss",
) -> ItemAnalysis:
    """Per kind and, with the same questions for everybody, per question: facility,
    discrimination and every wrong choice, over ``attempts`` (each counted learner's
    first attempt, submitted: position -> stored question). ``wrong_data`` holds the
    stored question of every wrong answer and of ``sample``, one first attempt."""
    totals = [sum(1 for q in attempt.values() if q.correct) for attempt in attempts]
    kinds = list(dict.fromkeys(c.kind for c in columns))
    # One kind asked throughout: its "rest of the test" is empty, and a correlation
    # with nothing would be a blank at best; say so instead of computing it.
    whole_test = len(kinds) == 1
    return ItemAnalysis(
        learners=len(attempts),
        members=members,
        by_kind=[
            _kind_stat(kind, attempts, totals, wrong_data, deck, whole_test=whole_test)
            for kind in kinds
        ],
        by_question=_by_question(assignment, columns, attempts, totals, wrong_data, sample, deck),
    )


def _kind_stat(
    kind: str,
    attempts: list[dict[int, QuizQuestion]],
    totals: list[int],
    wrong_data: dict[int, dict[str, Any]],
    deck: str,
    *,
    whole_test: bool,
) -> ItemStat:
    """The item statistics of one question kind (its questions taken together)."""
    marks: list[tuple[int, int]] = []  # (right of this kind, right of the others)
    picks: list[Pick] = []
    questions = right = unanswered = 0
    for total, attempt in zip(totals, attempts, strict=True):
        mine = [q for q in attempt.values() if q.kind == kind]
        if not mine:
            continue
        n_right = sum(1 for q in mine if q.correct)
        marks.append((n_right, total - n_right))
        questions += len(mine)
        right += n_right
        unanswered += sum(1 for q in mine if q.answered_at is None)
        picks += [_pick(q, wrong_data) for q in mine if _wrong_with_data(q, wrong_data)]
    choices = _wrong_choices(picks, deck, questions)
    tested = sorted({r for _k, _m, _c, data in picks for r in data.get("rules_tested", [])})
    return ItemStat(
        kind=kind,
        label=skill_label(kind),
        number=None,
        learners=len(marks),
        questions=questions,
        right=right,
        unanswered=unanswered,
        wrong=tuple(choices),
        discrimination=NO_DISCRIMINATION if whole_test else discrimination(marks),
        reteach=reteach_for(choices[0] if choices else None, tested),
        whole_test=whole_test,
    )


def _wrong_with_data(question: QuizQuestion, wrong_data: dict[int, dict[str, Any]]) -> bool:
    return question.answered_at is not None and not question.correct and question.pk in wrong_data


def _pick(question: QuizQuestion, wrong_data: dict[int, dict[str, Any]]) -> Pick:
    data = wrong_data[question.pk]
    mistake = str(data.get("mistakes", {}).get(question.answered_choice, ""))
    return (question.kind, mistake, question.answered_choice, data)


def _same_questions(
    attempts: list[dict[int, QuizQuestion]], sample: dict[int, QuizQuestion]
) -> bool:
    """Whether every attempt has ``sample``'s question (kind and seed) at each position."""
    for attempt in attempts:
        for position, question in attempt.items():
            model = sample.get(position)
            if model is None or model.seed != question.seed or model.kind != question.kind:
                return False
    return True


def _by_question(
    assignment: Assignment,
    columns: list[Column],
    attempts: list[dict[int, QuizQuestion]],
    totals: list[int],
    wrong_data: dict[int, dict[str, Any]],
    sample: dict[int, QuizQuestion],
    deck: str,
) -> list[ItemStat]:
    """Per position, when every first attempt has the same question there (same seed
    as ``sample``'s); else nothing, since a position would mix different questions."""
    if not assignment.same_questions or not sample or not _same_questions(attempts, sample):
        return []
    stats = []
    for column in columns:
        model = sample.get(column.position)
        data = wrong_data.get(model.pk) if model is not None else None
        if model is None or data is None:
            return []
        stats.append(_question_stat(column, model, data, attempts, totals, deck))
    return stats


def _question_stat(
    column: Column,
    model: QuizQuestion,
    data: dict[str, Any],
    attempts: list[dict[int, QuizQuestion]],
    totals: list[int],
    deck: str,
) -> ItemStat:
    """The item statistics of the question at ``column`` (``model``, stored as ``data``)."""
    picked: Counter[str] = Counter()
    marks: list[tuple[int, int]] = []  # (this question, the rest of the test)
    right = unanswered = 0
    for total, attempt in zip(totals, attempts, strict=True):
        question = attempt.get(column.position)
        if question is None:
            continue
        mark = 1 if question.correct else 0
        marks.append((mark, total - mark))
        if question.answered_at is None:
            unanswered += 1
        elif question.correct:
            right += 1
        else:
            picked[question.answered_choice] += 1
    offered = _offered(model.kind, data, picked, len(marks), deck)
    return ItemStat(
        kind=model.kind,
        label=column.label,
        number=column.number,
        learners=len(marks),
        questions=len(marks),
        right=right,
        unanswered=unanswered,
        wrong=tuple(offered),
        discrimination=discrimination(marks),
        reteach=reteach_for(offered[0] if offered else None, data.get("rules_tested", [])),
    )


def _offered(
    kind: str, data: dict[str, Any], picked: Counter[str], learners: int, deck: str
) -> list[WrongChoice]:
    """Every wrong choice the question offered, most picked first; a choice nobody
    picked stays listed: a distractor that tempts nobody is worth knowing about too."""
    mistakes = data.get("mistakes", {})
    offered = [
        WrongChoice(
            mistake=str(mistakes.get(c["key"], "")),
            text=mistake_text(str(mistakes.get(c["key"], ""))),
            count=picked[c["key"]],
            label=_choice_text(kind, data, c["key"], deck),
            label_is_example=False,
            key=c["key"],
            share=_percent(picked[c["key"]], learners) if learners else None,
        )
        for c in data.get("choices", [])
        if c.get("key") != data.get("answer")
    ]
    offered.sort(key=lambda w: (-w.count, w.key))
    return [replace(w, letter=charts.letter(i)) for i, w in enumerate(offered)]
