"""Settings for the Jass rules tutor, read from the environment.

With no environment set, the site runs in development mode on SQLite. Production is
``DJANGO_DEBUG=0`` plus a real ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS``;
``DATABASE_URL`` chooses PostgreSQL (``postgres://user@host:5432/name``).
See the README's "Configuration" section for every variable.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

# A development key is fine on a laptop; production must bring its own.
_DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY or (not DEBUG and SECRET_KEY == _DEV_SECRET_KEY):
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY to a long random value when DJANGO_DEBUG=0.")

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "template_partials",
    "tutor.core",
    "tutor.accounts",
    "tutor.classroom",
    "tutor.lessons",
    "tutor.weistool",
    "tutor.quizzes",
    "tutor.table",
    "tutor.live",
    # The LTI 1.3 tool (issue 26): django-lti's registrations, keys and launch records,
    # and tutor.lti above it (users and classes from a launch).
    "lti_tool",
    "tutor.lti",
    "axes",
]

MIDDLEWARE = [
    # First: jobs that run once the response is sent (a reset mail), see the module.
    "tutor.core.middleware.AfterResponseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Before WhiteNoise: static files get the same Content-Security-Policy and
    # Permissions-Policy headers as the pages (see CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outside the session and CSRF middleware, inside CSP: a session started by an LTI
    # launch may be framed by its platform and keeps its cookies in the frame
    # (tutor/lti/middleware.py).
    "tutor.lti.middleware.LtiFrameMiddleware",
    # Django's, but a session save the database refuses gives the 503 page too.
    "tutor.core.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, with the user read in the session's query (tutor/accounts/authentication.py).
    "tutor.accounts.authentication.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tutor.core.middleware.DatabaseUnavailableMiddleware",
    # One-time passwords must be replaced first; pending teachers see why pages are
    # closed to them (tutor/accounts/middleware.py).
    "tutor.accounts.middleware.AccountStateMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tutor.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tutor.core.context_processors.preferences",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
    # The few hot parts drawn on every move (tutor/core/jinja.py); asked for by name
    # with engines["jinja2"], so a page's name never reaches this engine by accident.
    {
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja_templates"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "tutor.core.jinja.environment",
        },
    },
]

WSGI_APPLICATION = "tutor.wsgi.application"
ASGI_APPLICATION = "tutor.asgi.application"

# SQLite is the embedded default; WAL and a busy timeout let a class write at once
# without "database is locked" errors.
_SQLITE_PATH = os.environ.get("DJANGO_SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
DATABASE_URL = os.environ.get("DATABASE_URL", "")
# Each worker keeps its connection this many seconds (0: a new one per request). For
# SQLite too: opening it and its PRAGMAs cost ~0.6 ms of every request (issue 17,
# docs/performance.md); tutor/core/middleware.py re-applies the request's lock wait.
CONN_MAX_AGE = int(os.environ.get("DJANGO_CONN_MAX_AGE", "60"))
# PostgreSQL binds the parameters itself, and prepares a statement a connection has run
# five times, so it is no longer parsed and planned on every run: about half of the
# database's CPU per learner cycle (issue 24, docs/performance.md). Django turns this
# off by default for connection poolers: behind PgBouncer in transaction mode (before
# its max_prepared_statements), set JASS_PG_PREPARED_STATEMENTS=0.
JASS_PG_PREPARED_STATEMENTS = env_bool("JASS_PG_PREPARED_STATEMENTS", True)
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=CONN_MAX_AGE)}
    if JASS_PG_PREPARED_STATEMENTS and "postgresql" in DATABASES["default"]["ENGINE"]:
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": _SQLITE_PATH,
            "CONN_MAX_AGE": CONN_MAX_AGE,
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
                ),
            },
        }
    }

# A web request waits at most this long for SQLite's write lock, then gets the 503 page
# ("try again"); after that, writes of the same worker give up at once for a while, so a
# long lock (a backup, a script) cannot hold every worker and reads keep answering
# (tutor/core/middleware.py). Management commands keep the 20 s above.
JASS_SQLITE_REQUEST_BUSY_MS = int(os.environ.get("JASS_SQLITE_REQUEST_BUSY_MS", "5000"))

# Per-process memory caches. "fragments" holds rendered HTML of things that never change
# once stored (a quiz question, its feedback for the chosen answer, a lesson body for a
# rule set): nothing there needs invalidating across processes, so no cache server is
# needed. Keys carry the language and the deck.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fragments",
        "TIMEOUT": 3600,
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# Argon2id first (Django's recommendation; memory-hard), in one lane so that a login
# takes one core, not all of them, while a class logs in (see accounts/hashers.py).
# Older PBKDF2 hashes still verify and are redone with Argon2id at the next login.
PASSWORD_HASHERS = [
    # Verifies Argon2 hashes of any parameters too (e.g. Django's eight lanes).
    "tutor.accounts.hashers.Argon2idOneLaneHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Eight spaces are eight characters: refuse blank and mostly-blank passwords.
    {"NAME": "tutor.accounts.validators.VisiblePasswordValidator"},
]

# Login throttling (django-axes, tutor/accounts/throttle.py): five wrong passwords for
# one name from one address lock that pair out for 15 minutes, and a right password
# resets that pair's count; failed logins from one address under any names (a flood of
# fresh names, each costing a password hash) lock the address at a higher limit.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("JASS_LOGIN_FAILURE_LIMIT", "5"))
# Not 5: a class behind one school address mistypes too. A success clears its own name's
# failures, so only failures nobody followed up with the right password add up here.
JASS_LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("JASS_LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
# Reverse proxies in front of the site that append to X-Forwarded-For (0: none, trust
# REMOTE_ADDR). Behind one, set it: otherwise every client shares the proxy's address.
JASS_PROXY_COUNT = int(os.environ.get("JASS_PROXY_COUNT", "0"))
AXES_HANDLER = "tutor.accounts.throttle.AddressThrottlingHandler"
AXES_CLIENT_IP_CALLABLE = "tutor.accounts.throttle.client_address"
# Names are counted and recorded case-folded, so a learner's export and deletion find
# failures typed in other capitals too (issue 22, item 5).
AXES_USERNAME_CALLABLE = "tutor.accounts.throttle.axes_username"
AXES_LOCKOUT_CALLABLE = "tutor.accounts.throttle.lockout_response"
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A request refused during a lockout is not counted again: it costs reads only (no
# write, no hash), and the pause ends 15 minutes after the last counted failure.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_TEMPLATE = "accounts/locked.html"
# axes' default, written out because the lockout page (throttle.py) reads it.
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# E-mail: password resets and teacher sign-ups. Development prints every mail on the
# console (unless EMAIL_HOST is set); production sends by SMTP with these variables.
EMAIL_BACKEND = (
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG and not os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.smtp.EmailBackend"
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A mail server that does not answer must not hold a worker: the request gives up.
EMAIL_TIMEOUT = 10

# Teachers who sign up confirm their address by a link valid this long (seconds);
# unconfirmed sign-ups are deleted after it. Then "auto": they are teachers at once;
# "admin": an administrator approves them in the admin (action "Approve").
JASS_EMAIL_VERIFICATION_MAX_AGE = int(
    os.environ.get("JASS_EMAIL_VERIFICATION_MAX_AGE", str(3 * 24 * 3600))
)
JASS_TEACHER_APPROVAL = os.environ.get("JASS_TEACHER_APPROVAL", "admin")
if JASS_TEACHER_APPROVAL not in {"admin", "auto"}:
    raise ImproperlyConfigured(
        f'JASS_TEACHER_APPROVAL must be "admin" or "auto", not {JASS_TEACHER_APPROVAL!r}'
    )
# Requests that send mail to an address the requester types (tutor/accounts/throttle.py),
# counted per window: password resets per client address and per e-mail address,
# teacher sign-ups per client address.
JASS_MAIL_RATE_WINDOW = timedelta(hours=1)
JASS_PASSWORD_RESET_ADDRESS_LIMIT = int(os.environ.get("JASS_PASSWORD_RESET_ADDRESS_LIMIT", "10"))
JASS_PASSWORD_RESET_EMAIL_LIMIT = int(os.environ.get("JASS_PASSWORD_RESET_EMAIL_LIMIT", "3"))
JASS_TEACHER_SIGNUP_ADDRESS_LIMIT = int(os.environ.get("JASS_TEACHER_SIGNUP_ADDRESS_LIMIT", "10"))
# Data exports (JSON or zip) per requesting user in a window: a teacher exporting a
# whole class stays below it, a loop does not.
JASS_EXPORT_WINDOW = timedelta(minutes=10)
JASS_EXPORT_LIMIT = int(os.environ.get("JASS_EXPORT_LIMIT", "40"))

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Zurich"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Manifest storage needs collectstatic, so only production uses it.
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
# Django's database sessions with the user's id in an indexed column, so one person's
# sessions are found without decoding the table (tutor/accounts/sessions.py).
SESSION_ENGINE = "tutor.accounts.sessions"
# With a Redis server (REDIS_URL, e.g. redis://127.0.0.1:6379/0), sessions are read from
# it and written to the database and to it (Django's cached_db over the same table):
# one query less on every logged-in request, nothing lost when Redis restarts. Without
# it (the two-command default) sessions live in the database alone.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES["sessions"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "jass",
    }
    SESSION_CACHE_ALIAS = "sessions"
    SESSION_ENGINE = "tutor.accounts.cached_sessions"
# LTI launches (tutor/lti): the OIDC state and nonce and the launch data live in a cache
# every app server shares, so a launch answered by another worker than its login
# initiation still validates. Redis when there is one, else a database table made by
# tutor.lti's migration (no extra step for `make run` or the tests).
if REDIS_URL:
    CACHES["lti"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "jass-lti",
    }
else:
    CACHES["lti"] = {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "lti_cache",
        # Django's default (300) would cull a class's nonces while it logs in.
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    }
LTI_CACHE_ALIAS = "lti"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): everything from this site only; no inline
# script, no eval (htmx is a static file, its config a JSON <meta>, and base.html turns
# off htmx's eval and its injected <style>). Inline style *attributes* are allowed
# (style-src-attr): the progress meters set their width and Markdown tables their
# alignment that way; <style> elements and other origins' styles are not.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Browser features the site never uses, off for it and anything it could embed.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "usb",
        "xr-spatial-tracking",
    )
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
