"""Settings for the tournament app, all in one file.

Defaults run the app on one laptop at the venue: embedded SQLite under ``var/``, DEBUG off,
static files served by the app itself. The environment can change:

- ``DATABASE_URL``: e.g. ``postgres://user:pass@localhost/kyushu`` switches to PostgreSQL.
- ``DJANGO_SECRET_KEY``: otherwise one is generated once and kept in ``var/secret_key``.
- ``DJANGO_DEBUG``: ``1`` for development.
- ``DJANGO_ALLOWED_HOSTS``: comma-separated; default ``*`` because tablets reach the laptop
  by whatever LAN address it has that day.
"""

from __future__ import annotations

import math
import os
import secrets
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("KYUSHU_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    """A boolean from the environment; anything but a clear yes/no is an error."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"{name} must be 1/0/true/false/yes/no, not {raw!r}")


def env_number(name: str, default: float, *, minimum: float, integer: bool = False) -> float:
    """A number from the environment, at least ``minimum``; anything else is an error."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value: float = int(raw) if integer else float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < minimum:
        kind = "a whole number" if integer else "a number"
        raise ValueError(f"{name} must be {kind} of at least {minimum}, not {raw!r}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def secret_key() -> str:
    """The environment's key, or one generated on first run and kept out of git."""
    from_env = os.environ.get("DJANGO_SECRET_KEY")
    if from_env:
        return from_env
    key_file = VAR_DIR / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    key_file.write_text(key)
    try:
        key_file.chmod(0o600)
    except OSError:  # Windows file systems may refuse; the key is still local.
        pass
    return key


SECRET_KEY = secret_key()
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "brackets",
]

MIDDLEWARE = [
    # Requests take turns, first come first served (brackets/perf/admission.py).
    "brackets.perf.admission.AdmissionMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compressed HTML and JSON (static files come compressed from WhiteNoise above); why
    # it is safe with CSRF tokens in the pages: brackets/perf/compression.py.
    "brackets.perf.compression.CompressionMiddleware",
    # ETag/304 for every GET: a poller that already has the page gets 304 with no body
    # (public pages set a cheap ETag from what they show before building anything).
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# Requests run their view one at a time in arrival order (Python computes in one thread at
# a time: more at once only mixes their turns); once every running request has run this
# long (a PDF), the next starts beside it, up to REQUEST_LANES at once.
REQUEST_LANES = env_number("KYUSHU_REQUEST_LANES", 4, minimum=1, integer=True)
REQUEST_PATIENCE_SECONDS = env_number("KYUSHU_REQUEST_PATIENCE", 0.05, minimum=0)

ROOT_URLCONF = "kyushu.urls"

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
                "brackets.perf.page_cache.csrf_hole",
            ],
        },
    },
]

WSGI_APPLICATION = "kyushu.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=60,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the public pages read while a tablet writes; the timeout makes concurrent
    # writers wait for the lock instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        # read_uncommitted matters only in shared-cache mode, which only the in-memory test
        # database of the browser tests uses: there a page read (the round page polls while
        # tablets save) would hold a table lock that fails a save at once with "database
        # table is locked". A file database (the venue's) ignores it.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                        "PRAGMA read_uncommitted=1;",
    }
    # Keep each server thread's connection: opening one costs ~1 ms (connect, Django's SQL
    # functions, the PRAGMAs above), as much as a whole cached page. SQLite connections are
    # per thread and hold no snapshot between requests in autocommit mode.
    DATABASES["default"]["CONN_MAX_AGE"] = 600
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Per-process memory caches. Nothing in them is the only copy of anything: "default" holds
# sessions in front of the database (cached_db: a staff request reads its session without
# a query; the database copy survives restarts and serves other server processes) and the
# public pages' fragments; "pages" holds rendered page bodies keyed by the tournament's
# revision (brackets/perf/page_cache.py), apart so big pages never push sessions out.
# `manage.py up` serves from one process. Running several server processes, point
# "default" at a shared cache (Redis, Memcached) so a logout reaches every process.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "default", "OPTIONS": {"MAX_ENTRIES": 5000}},
    "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
              "LOCATION": "pages", "OPTIONS": {"MAX_ENTRIES": 1000}},
}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Django's ModelBackend with the logged-in user read by a prebuilt statement (every staff
# request reads it; see brackets/perf/lean.py). A session naming another backend path logs
# in again once.
AUTHENTICATION_BACKENDS = ["brackets.perf.auth_backend.LeanModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "ja"
LANGUAGES = [("ja", "日本語"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Tokyo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns when it is missing
# Serve straight from the apps' static folders: no collectstatic step at the venue.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
