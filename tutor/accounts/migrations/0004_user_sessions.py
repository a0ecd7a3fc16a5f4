"""Sessions move to ``accounts_session``, with the user's id in an indexed column
(issue 22, item 2; ``tutor/accounts/sessions.py``).

The sessions in Django's table are copied over with their user's id, so nobody is
logged out by the move, and then removed from the old table (which the site no longer
reads, and whose rows would otherwise keep naming their users).
"""

from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations, models

SESSION_KEY = "_auth_user_id"


def user_id_of(data):
    try:
        return int(data[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


def copy_sessions(apps, schema_editor):
    Old = apps.get_model("sessions", "Session")
    New = apps.get_model("accounts", "UserSession")
    decoder = SessionStore()
    batch = []
    for row in Old.objects.iterator():
        batch.append(
            New(
                session_key=row.session_key,
                session_data=row.session_data,
                expire_date=row.expire_date,
                user_id=user_id_of(decoder.decode(row.session_data)),
            )
        )
        if len(batch) >= 1000:
            New.objects.bulk_create(batch, ignore_conflicts=True)
            batch = []
    New.objects.bulk_create(batch, ignore_conflicts=True)
    Old.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_login_names_folded"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="UserSession",
            fields=[
                (
                    "session_key",
                    models.CharField(
                        max_length=40, primary_key=True, serialize=False, verbose_name="session key"
                    ),
                ),
                ("session_data", models.TextField(verbose_name="session data")),
                ("expire_date", models.DateTimeField(db_index=True, verbose_name="expire date")),
                ("user_id", models.BigIntegerField(blank=True, db_index=True, null=True)),
            ],
            options={
                "verbose_name": "session",
                "verbose_name_plural": "sessions",
                "db_table": "accounts_session",
                "abstract": False,
            },
        ),
        migrations.RunPython(copy_sessions, migrations.RunPython.noop),
    ]
