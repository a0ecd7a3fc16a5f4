"""The privacy pages with and without other people's sessions: ``python -m bench.privacy``.

Issue 22, item 2: each privacy page (a learner's overview, the teacher's view of a
pupil, both exports, the deletion page) must cost at most 2x as much with 20,000 other
sessions in the table as with none. The test suite checks it by counting the database's
work (``tests/tutor/test_hardening_third.py``); this probe shows the same in CPU time, in
one process and one run: median ``time.process_time`` per page, before and after the
table grows, and the ratio. ``--root`` measures another checkout (an older commit).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench.inprocess import configure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("-n", type=int, default=20, help="requests per page and phase")
    parser.add_argument("--sessions", type=int, default=20_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        configure(args.root, Path(tmp))
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.test import Client
        from django.urls import reverse
        from django.utils import timezone

        from tutor.accounts.models import Role, User
        from tutor.classroom.models import Membership, SchoolClass

        settings.JASS_EXPORT_LIMIT = 10**6  # the probe exports in a loop on purpose
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        learner = User.objects.create(username="anna", role=Role.LEARNER)
        teacher = User.objects.create(username="frau_keller", role=Role.TEACHER)
        school_class = SchoolClass.objects.create(teacher=teacher, name="6b", join_code="PROBE")
        Membership.objects.create(learner=learner, school_class=school_class)
        clients = {}
        for user in (learner, teacher):
            clients[user.username] = Client()
            clients[user.username].force_login(user)
        pages = [
            ("anna", "overview", reverse("privacy:mine")),
            ("anna", "export.json", reverse("privacy:export_json", args=[learner.pk])),
            ("anna", "export.zip", reverse("privacy:export_zip", args=[learner.pk])),
            ("anna", "delete page", reverse("privacy:delete", args=[learner.pk])),
            ("frau_keller", "pupil's page", reverse("privacy:learner", args=[learner.pk])),
            ("frau_keller", "export.json", reverse("privacy:export_json", args=[learner.pk])),
        ]

        def measure() -> list[float]:
            medians = []
            for who, _name, url in pages:
                times = []
                for _ in range(args.n):
                    start = time.process_time()
                    response = clients[who].get(url)
                    times.append(time.process_time() - start)
                    assert response.status_code == 200, (url, response.status_code)
                medians.append(statistics.median(times) * 1000)
            return medians

        before = measure()
        grow(args.sessions, timezone.now() + timedelta(days=14))
        after = measure()
        print(f"privacy pages, median CPU ms of {args.n}, with 0 and {args.sessions:,} sessions")
        worst = 0.0
        for (who, name, _url), a, b in zip(pages, before, after, strict=True):
            worst = max(worst, b / a)
            print(f"  {who:12} {name:14} {a:8.2f} {b:8.2f}   x{b / a:.2f}")
        verdict = "OK" if worst <= 2 else "MISSED"
        print(f"GOAL each page <= 2x with {args.sessions:,} other sessions: x{worst:.2f} {verdict}")
        return 0 if worst <= 2 else 1


def grow(count: int, expiry) -> None:
    """Other people's sessions, as the probe made them: half visitors (a deck choice in
    the old site), half logged in."""
    from django.conf import settings

    module = __import__(settings.SESSION_ENGINE, fromlist=["SessionStore"])
    store = module.SessionStore()
    model = store.get_model_class()
    rows = []
    for n in range(count):
        data = {"deck": "french"} if n % 2 else {"_auth_user_id": str(10_000_000 + n)}
        row = model(session_key=f"other{n:035d}", session_data=store.encode(data))
        row.expire_date = expiry
        if hasattr(row, "user_id"):
            row.user_id = None if n % 2 else 10_000_000 + n
        rows.append(row)
    model.objects.bulk_create(rows, batch_size=2000)


if __name__ == "__main__":
    sys.exit(main())
