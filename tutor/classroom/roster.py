"""Pupil accounts a teacher makes for a class from a pasted list of names, and new
one-time passwords for pupils of the teacher's own class.

What a paste may be (the page says it too):

- one name per line, "Anna Meier" or "Meier, Anna"; blank lines are skipped;
- or a table exported as CSV (separated by ``;``, ``,`` or tabs, quoted fields
  allowed, a byte-order mark at the start ignored) whose first row names the columns:
  a column "Name" (the whole name), or "Vorname"/"First name" with "Nachname"/
  "Last name" (or "Name" as the family name beside "Vorname", as Swiss school software
  exports it). Other columns are ignored;
- 1 to :data:`MAX_NAMES` names (a class; more in several goes).

A name listed twice, or the name of a pupil already in the class, gets no second
account (the preview says so). Every pupil gets a user name from the name ("anna.m",
then "anna.m2" and so on: never one that exists or looks like one that does) and a
one-time password (accounts/services.py), and joins the class.

The one-time passwords exist in clear only in the return value, for the login cards.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tutor.accounts.models import Role, User
from tutor.accounts.names import clean_person_name, split_name, username_base
from tutor.accounts.services import new_pupil, reset_by_teacher
from tutor.accounts.validators import (
    clean_display_name,
    lookalike_keys,
    validate_username_profile,
    visible_count,
)

from .models import Membership, SchoolClass
from .services import ClassroomError

MAX_NAMES = 40
MAX_PASTE_LENGTH = 20_000  # characters: 40 rows of a wide CSV export fit

_FIRST = {"vorname", "vornamen", "rufname", "first name", "firstname", "given name", "prenom"}
_FIRST |= {"prénom"}
_LAST = {"nachname", "familienname", "last name", "lastname", "surname", "family name", "nom"}
_FULL = {"name", "namen", "full name", "fullname", "vollständiger name", "schüler", "schülerin"}
_FULL |= {"schüler/in", "schüler*in", "schülerinnen und schüler", "pupil", "student", "lernende"}
_SEPARATORS = (";", "\t", ",")


@dataclass(frozen=True)
class Entry:
    """A pupil from the paste: where (the line of the paste), and their name."""

    line: int
    first_name: str
    last_name: str

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass
class Plan:
    """What a paste would make: accounts (entry and user name), what it skips, and
    the problems that stop it (then nothing is made)."""

    accounts: list[tuple[Entry, str]] = field(default_factory=list)
    listed_twice: list[str] = field(default_factory=list)
    already_in_class: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class NewPassword:
    """A login card's content: the one-time password in clear, once."""

    user_id: int
    name: str
    username: str
    password: str


# --- reading the paste --------------------------------------------------------------------


def _header_key(cell: str) -> str:
    cell = cell.strip().strip("\ufeff").strip().strip('"').strip()
    return " ".join(cell.casefold().replace("_", " ").replace("-", " ").split())


@dataclass(frozen=True)
class _Columns:
    first: int | None
    last: int | None
    full: int | None


def _columns(cells: list[str]) -> _Columns | None:
    keys = [_header_key(cell) for cell in cells]

    def find(names: set[str]) -> int | None:
        return next((i for i, key in enumerate(keys) if key in names), None)

    first, last, full = find(_FIRST), find(_LAST), find(_FULL)
    if first is not None:
        # Beside "Vorname", "Name" is the family name (Swiss school exports).
        return _Columns(first=first, last=last if last is not None else full, full=None)
    if full is not None or last is not None:
        return _Columns(first=None, last=None, full=full if full is not None else last)
    return None


def _table_header(line: str) -> tuple[str, _Columns] | None:
    """The separator and the name columns when ``line`` is a CSV header row."""
    for separator in _SEPARATORS:
        if separator in line:
            cells = next(csv.reader([line], delimiter=separator))
            columns = _columns(cells)
            if columns is not None:
                return separator, columns
    columns = _columns([line])
    return (";", columns) if columns is not None else None


def _cell(row: list[str], index: int | None) -> str:
    return row[index].strip() if index is not None and index < len(row) else ""


# A row of the paste: its line, the text as pasted (for messages), and the name's parts
# when a table gives them apart (else the text is one whole name, or None: unreadable).
_Row = tuple[int, str | None, tuple[str, str] | None]


def _rows_of_table(text: str, separator: str, columns: _Columns) -> Iterable[_Row]:
    reader = csv.reader(io.StringIO(text), delimiter=separator)
    next(reader, None)  # the header
    for row in reader:
        if columns.full is not None:
            yield reader.line_num, _cell(row, columns.full), None
        else:
            first, last = _cell(row, columns.first), _cell(row, columns.last)
            parts = (first, last) if visible_count(first) else None
            yield reader.line_num, f"{first} {last}".strip(), parts


def _rows_of_list(lines: list[str]) -> Iterable[_Row]:
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if len(stripped) >= 2 and stripped[0] == stripped[-1] == '"':
            stripped = stripped[1:-1].replace('""', '"')
        if ";" in stripped or "\t" in stripped or stripped.count(",") > 1:
            yield number, None, None  # a table row without a header
        else:
            yield number, stripped, None


def _entry(line: int, text: str, parts: tuple[str, str] | None) -> Entry:
    """The pupil of one row; raises ``ValidationError`` for a name that is refused."""
    name = clean_person_name(text)
    if parts is None:
        first, last = split_name(name)
    else:
        first = clean_person_name(parts[0])
        last = clean_display_name(parts[1]) if visible_count(parts[1]) else ""
    return Entry(line=line, first_name=first, last_name=last)


def _rows(text: str) -> Iterable[_Row]:
    lines = text.split("\n")
    first_line = next((line for line in lines if line.strip()), "")
    header = _table_header(first_line) if first_line else None
    if header is None:
        return _rows_of_list(lines)
    start = text.index(first_line)
    offset = text[:start].count("\n")
    return (
        (number + offset, raw, parts)
        for number, raw, parts in _rows_of_table(text[start:], *header)
    )


def read_names(text: str) -> tuple[list[Entry], list[str], list[str]]:
    """(entries, names listed twice, errors) of a paste, without touching the database."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    entries: list[Entry] = []
    errors: list[str] = []
    twice: list[str] = []
    seen: set[str] = set()
    try:
        rows = list(_rows(text))
    except csv.Error as error:
        return [], [], [_("The table cannot be read: %(error)s") % {"error": error}]
    for line, raw, parts in rows:
        if raw is None:
            errors.append(
                _(
                    "Line %(line)d looks like a table row. For a table, the first row must "
                    "name the columns (Name, or Vorname and Nachname)."
                )
                % {"line": line}
            )
            continue
        if not visible_count(raw):
            continue  # blank, or only invisible characters
        try:
            entry = _entry(line, raw, parts)
        except ValidationError as error:
            errors.append(
                _("Line %(line)d («%(text)s»): %(error)s")
                % {"line": line, "text": raw.strip()[:60], "error": " ".join(error.messages)}
            )
            continue
        key = _same_name_key(entry.name)
        if key in seen:
            twice.append(entry.name)
            continue
        seen.add(key)
        entries.append(entry)
    return entries, twice, errors


def _same_name_key(name: str) -> str:
    return " ".join(name.casefold().split())


# --- user names ---------------------------------------------------------------------------


def _unique_usernames(bases: list[str], existing: Iterable[str]) -> list[str]:
    """For each base, the first of base, base2, base3, ... that neither exists nor looks
    like a name that exists or was chosen before it (validators.lookalike_keys)."""
    taken: set[str] = set()
    for name in existing:
        taken |= lookalike_keys(name)
    chosen = []
    for base in bases:
        for n in itertools.count(1):
            candidate = base if n == 1 else f"{base}{n}"
            keys = lookalike_keys(candidate)
            if keys & taken:
                continue
            validate_username_profile(candidate)  # names.username_base makes only these
            taken |= keys
            chosen.append(candidate)
            break
    return chosen


def plan_roster(school_class: SchoolClass, text: str) -> Plan:
    """What pasting ``text`` into ``school_class`` would make (the preview), or why not."""
    plan = Plan()
    if len(text) > MAX_PASTE_LENGTH:
        plan.errors.append(
            _("The list is too long: at most %(max)d characters.") % {"max": MAX_PASTE_LENGTH}
        )
        return plan
    entries, plan.listed_twice, plan.errors = read_names(text)
    # Only stored names count: a pupil who signed up has a user name and no name.
    members = {
        _same_name_key(user.get_full_name())
        for user in User.objects.filter(memberships__school_class=school_class)
        if user.get_full_name()
    }
    new = []
    for entry in entries:
        if _same_name_key(entry.name) in members:
            plan.already_in_class.append(entry.name)
        else:
            new.append(entry)
    if not plan.errors and not new and not plan.already_in_class:
        plan.errors.append(_("The list has no names. Paste one name per line."))
    if len(new) > MAX_NAMES:
        plan.errors.append(
            ngettext(
                "The list has %(n)d name; at most %(max)d can be added at once.",
                "The list has %(n)d names; at most %(max)d can be added at once. Paste the "
                "rest in a second go.",
                len(new),
            )
            % {"n": len(new), "max": MAX_NAMES}
        )
    if plan.errors:
        return plan
    bases = [username_base(entry.first_name, entry.last_name) for entry in new]
    usernames = _unique_usernames(bases, User.objects.values_list("username", flat=True))
    plan.accounts = list(zip(new, usernames, strict=True))
    return plan


# --- making accounts and new passwords --------------------------------------------------------


def _check_teacher(teacher: User, school_class: SchoolClass) -> None:
    if not teacher.is_teacher or school_class.teacher_id != teacher.pk:
        raise ClassroomError(_("You can only change your own classes."))


def create_pupils(*, teacher: User, school_class: SchoolClass, text: str) -> list[NewPassword]:
    """Make the accounts of ``text`` (planned again now) in the class, in one
    transaction. Raises ``ClassroomError`` with the reason when the paste has problems
    or when another account took a planned user name meanwhile (then nothing is made)."""
    _check_teacher(teacher, school_class)
    plan = plan_roster(school_class, text)
    if plan.errors:
        raise ClassroomError(" ".join(plan.errors))
    if not plan.accounts:
        raise ClassroomError(_("Everybody on the list is in the class already."))
    made = [
        (
            entry,
            *new_pupil(username=username, first_name=entry.first_name, last_name=entry.last_name),
        )
        for entry, username in plan.accounts
    ]
    try:
        with transaction.atomic():
            users = User.objects.bulk_create([user for _entry, user, _password in made])
            Membership.objects.bulk_create(
                Membership(school_class=school_class, learner=user) for user in users
            )
    except IntegrityError:
        raise ClassroomError(
            _("Another account took one of these user names just now. Please try again.")
        ) from None
    return [
        NewPassword(user_id=user.pk, name=entry.name, username=user.username, password=password)
        for (entry, _user, password), user in zip(made, users, strict=True)
    ]


def resettable_pupils(school_class: SchoolClass) -> QuerySet[User]:
    """The class's pupils whose password its teacher may reset: learners, never an
    administrator's or staff account (that would hand a teacher the admin)."""
    return User.objects.filter(
        memberships__school_class=school_class,
        role=Role.LEARNER,
        is_staff=False,
        is_superuser=False,
    ).order_by("last_name", "first_name", "username")


def pupil_of_class_or_404(school_class: SchoolClass, learner_id: int) -> User:
    pupil = resettable_pupils(school_class).filter(pk=learner_id).first()
    if pupil is None:
        raise Http404("No such pupil in this class")
    return pupil


@transaction.atomic
def reset_passwords(
    *, teacher: User, school_class: SchoolClass, pupils: Iterable[User]
) -> list[NewPassword]:
    """New one-time passwords for pupils of the teacher's class (nothing else of their
    accounts changes); each must choose their own again at the next login."""
    _check_teacher(teacher, school_class)
    allowed = set(resettable_pupils(school_class).values_list("pk", flat=True))
    cards = []
    for pupil in pupils:
        if pupil.pk not in allowed:
            raise ClassroomError(_("This learner is not in the class."))
        password = reset_by_teacher(pupil)
        cards.append(
            NewPassword(
                user_id=pupil.pk,
                name=pupil.display_name,
                username=pupil.username,
                password=password,
            )
        )
    return cards
