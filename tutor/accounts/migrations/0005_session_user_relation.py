import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """The session's ``user_id`` column becomes a relation for the ORM (so the session
    and its user are read in one query), with no constraint in the database. The
    column is the same (bigint, null, indexed), so only Django's state changes: the
    database and the ids already stored are left as they are."""

    dependencies = [
        ("accounts", "0004_user_sessions"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name="usersession", name="user_id"),
                migrations.AddField(
                    model_name="usersession",
                    name="user",
                    field=models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
