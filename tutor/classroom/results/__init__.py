"""Reading results for teachers: per assignment, per class (mastery) and per learner.

One module per concern; this package re-exports their public names, so
``from tutor.classroom import results`` and ``results.mastery_grid`` keep working:

- :mod:`.access`: which class, assignment or learner a teacher may read
  (:func:`class_of_teacher`, :func:`assignment_of_teacher`, :func:`learner_in_class`),
  each looked up together with its teacher, so somebody else's id is a 404 and
  reveals nothing. Access is decided there, not in the views.
- :mod:`.assignments`: one assignment's results (:func:`assignment_results`);
  :mod:`.picks`: the wrong answers picked, worded; :mod:`.items`: the item analysis
  (:func:`item_analysis`).
- :mod:`.table`: rounds at the table (:func:`table_results`).
- :mod:`.mastery`: the class's mastery grid (:func:`mastery_grid`).
- :mod:`.history` and :mod:`.progress`: one learner (:func:`learner_history`,
  :func:`learner_progress`).
- :mod:`.figures`: the pictures, drawn from these results without a query.
- :mod:`.common`: the status words and small helpers they share.

These are selectors: they read and never write (answers released since they were
given count in memory, ``tutor.quizzes.selectors.skill_states``). The pages of a big
class must not cost more queries than those of a small one: each selector runs a
fixed number of flat queries and groups the rows in Python.

- :func:`assignment_results`: 4 queries (members, attempts, their questions, and
  the stored question data of the wrong answers and of one first attempt); its
  item analysis (:func:`item_analysis`) reuses them.
- :func:`mastery_grid`: 3 queries (members, skill states, released answers).
- :func:`learner_history`: 7 queries (assignments, attempts, table rounds, skill
  states and released answers, and the learner's answers and released answers for
  :func:`learner_progress`).
- :func:`table_results`: 2 queries (members, rounds), for one table assignment (its
  results page) or all of a class's (the class page; plus 1 for the assignments).

Rounds at the table need no replay here: each round stores its judgements per skill
(``TableRound.tally``), written with the move that made them.
"""

from __future__ import annotations

from .access import assignment_of_teacher, class_of_teacher, learner_in_class
from .assignments import (
    AssignmentResults,
    Averages,
    Cell,
    ColumnStat,
    KindStat,
    ResultRow,
    assignment_columns,
    assignment_results,
)
from .common import (
    BASIS_LABELS,
    BEST_SUBMITTED,
    CELL_LABELS,
    FINISHED,
    IN_PROGRESS,
    LATEST_OPEN,
    NOT_STARTED,
    RIGHT,
    STATUS_LABELS,
    SUBMITTED,
    UNANSWERED,
    WRONG,
    Column,
    format_seconds,
    name_key,
    skill_label,
)
from .figures import Figure, ProgressFigures, kind_bars_figure, mastery_figures, progress_figures
from .history import AssignmentHistory, AttemptRecord, LearnerHistory, RoundRecord, learner_history
from .items import (
    DUBIOUS_BELOW,
    MIN_LEARNERS,
    NO_DISCRIMINATION,
    RULE_ID,
    Discrimination,
    ItemAnalysis,
    ItemStat,
    Reteach,
    chance_spread,
    discrimination,
    facility,
    item_analysis,
    mistake_rules,
    percent_text,
    reteach_for,
)
from .mastery import (
    NEEDS_HELP_BELOW,
    SORT_BY_NAME,
    MasteryCell,
    MasteryGrid,
    MasteryRow,
    NeedsHelp,
    SkillAverage,
    SkillColumn,
    mastery_grid,
    mastery_sort,
)
from .picks import WrongChoice, mistake_short
from .progress import (
    PROGRESS_DAYS,
    PROGRESS_WEEKS,
    Answer,
    DayCount,
    Progress,
    SkillLine,
    build_progress,
    learner_progress,
)
from .table import SkillTally, TableResults, TableRow, class_table_results, table_results

__all__ = [
    "Answer",
    "AssignmentHistory",
    "AssignmentResults",
    "AttemptRecord",
    "Averages",
    "BASIS_LABELS",
    "BEST_SUBMITTED",
    "CELL_LABELS",
    "Cell",
    "Column",
    "ColumnStat",
    "DUBIOUS_BELOW",
    "DayCount",
    "Discrimination",
    "FINISHED",
    "Figure",
    "IN_PROGRESS",
    "ItemAnalysis",
    "ItemStat",
    "KindStat",
    "LATEST_OPEN",
    "LearnerHistory",
    "MIN_LEARNERS",
    "MasteryCell",
    "MasteryGrid",
    "MasteryRow",
    "NEEDS_HELP_BELOW",
    "NOT_STARTED",
    "NO_DISCRIMINATION",
    "NeedsHelp",
    "PROGRESS_DAYS",
    "PROGRESS_WEEKS",
    "Progress",
    "ProgressFigures",
    "RIGHT",
    "RULE_ID",
    "ResultRow",
    "Reteach",
    "RoundRecord",
    "SORT_BY_NAME",
    "STATUS_LABELS",
    "SUBMITTED",
    "SkillAverage",
    "SkillColumn",
    "SkillLine",
    "SkillTally",
    "TableResults",
    "TableRow",
    "UNANSWERED",
    "WRONG",
    "WrongChoice",
    "assignment_columns",
    "assignment_of_teacher",
    "assignment_results",
    "build_progress",
    "chance_spread",
    "class_of_teacher",
    "class_table_results",
    "discrimination",
    "facility",
    "format_seconds",
    "item_analysis",
    "kind_bars_figure",
    "learner_history",
    "learner_in_class",
    "learner_progress",
    "mastery_figures",
    "mastery_grid",
    "mastery_sort",
    "mistake_rules",
    "mistake_short",
    "name_key",
    "percent_text",
    "progress_figures",
    "reteach_for",
    "skill_label",
    "table_results",
]
