"""Django's own messages that the site translates anew, in Swiss spelling (ss, never
the sharp s): listed here so that ``make messages`` (makemessages) keeps their German
in ``locale/de`` instead of dropping them as strings the project does not use."""

from django.utils.translation import gettext_noop

DJANGO_STRINGS = (
    # contrib.auth's login form
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    # contrib.auth's username validator
    gettext_noop(
        "Enter a valid username. This value may contain only unaccented lowercase a-z "
        "and uppercase A-Z letters, numbers, and @/./+/-/_ characters."
    ),
    # core.validators.MinValueValidator
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
)
