"""Login records under the case-folded name (issue 22, item 5).

django-axes now records names as ``tutor.accounts.throttle.login_name`` folds them; the
records made before are folded the same way, so a learner's export and deletion find
them. Failure counters that fold to the same (name, address, browser) are merged: the
newest row keeps the sum of their failures.
"""

import unicodedata

from django.db import migrations


def fold(username):
    return unicodedata.normalize("NFKC", username).casefold()[:255]


def fold_records(apps, schema_editor):
    for model in ("AccessLog", "AccessFailureLog"):
        Model = apps.get_model("axes", model)
        for row in Model.objects.only("pk", "username").iterator():
            if row.username is not None and fold(row.username) != row.username:
                Model.objects.filter(pk=row.pk).update(username=fold(row.username))
    AccessAttempt = apps.get_model("axes", "AccessAttempt")
    groups = {}
    for row in AccessAttempt.objects.order_by("-attempt_time", "-pk"):
        if row.username is None:
            continue
        groups.setdefault((fold(row.username), row.ip_address, row.user_agent), []).append(row)
    for (name, _address, _agent), rows in groups.items():
        keep, *others = rows
        if not others and keep.username == name:
            continue
        failures = sum(row.failures_since_start for row in rows)
        AccessAttempt.objects.filter(pk__in=[row.pk for row in others]).delete()
        AccessAttempt.objects.filter(pk=keep.pk).update(
            username=name, failures_since_start=failures
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_school_accounts"),
        ("axes", "0010_accessattemptexpiration"),
    ]

    operations = [migrations.RunPython(fold_records, migrations.RunPython.noop)]
