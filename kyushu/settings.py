"""Settings for the tournament app, all in one file.

Defaults run the app on one laptop at the venue: embedded SQLite under ``var/``, DEBUG off,
static files served by the app itself. The environment can change:

- ``DATABASE_URL``: e.g. ``postgres://user:pass@localhost/kyushu`` switches to PostgreSQL.
- ``DJANGO_SECRET_KEY``: otherwise one is generated once and kept in ``var/secret_key``.
- ``DJANGO_DEBUG``: ``1`` for development.
- ``DJANGO_ALLOWED_HOSTS``: comma-separated; default ``*`` because tablets reach the laptop
  by whatever LAN address it has that day.
- ``REDIS_URL``: e.g. ``redis://127.0.0.1:6379/0`` puts the caches and sessions on Redis,
  shared by several server processes.
"""

from __future__ import annotations

import datetime
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


def private_dir(path: Path) -> Path:
    """``path`` as a folder only this user can enter (0700) when it is made here: it holds
    the database (session keys, every entrant) and the secret key."""
    if not path.exists():
        path.mkdir(parents=True, mode=0o700)
        try:
            path.chmod(0o700)  # mkdir's mode is cut by the umask
        except OSError:  # Windows file systems may refuse; the folder is still local.
            pass
    return path


def private_file(path: Path) -> Path:
    """``path`` readable by this user only (0600): made empty with that mode when missing
    (SQLite takes an empty file for a new database and gives its -wal and -shm files the
    same mode), and tightened when an earlier version left it readable by everyone."""
    private_dir(path.parent)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    try:
        path.chmod(0o600)
    except OSError:  # not ours to change, or a Windows file system
        pass
    return path


def secret_key() -> str:
    """The environment's key, or one generated on first run and kept out of git."""
    from_env = os.environ.get("DJANGO_SECRET_KEY")
    if from_env:
        return from_env
    key_file = VAR_DIR / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    key = secrets.token_urlsafe(50)
    private_file(key_file).write_text(key)
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
    # django-axes: failed logins are counted per username and address, and locked out.
    "axes",
]

MIDDLEWARE = [
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
    "brackets.hosted.middleware.PublicCopyMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Threads running the ordinary (sync) requests of `manage.py up`, queued by lane when all
# are busy (kyushu/serving.py). Open scoreboard streams and idle connections hold none.
# Python computes in one thread at a time, and a request that waits on the database takes
# the interpreter back only after the threads computing meanwhile each had their turn: so
# more threads than the requests actually waiting on I/O only slow a tablet's save (bench/
# venue.py: save p95 122-221 ms with 8 threads, 106-138 ms with 3; with 2, phones wait).
SERVER_THREADS = env_number("KYUSHU_THREADS", 3, minimum=1, integer=True)

# The hosted public copy (docs/public-copy.md). A venue server with a URL and token pushes
# every tournament's public state there after each change; a server with MODE on is such a
# copy: it takes those pushes and serves the public pages only.
PUBLIC_COPY_URL = os.environ.get("KYUSHU_PUBLIC_COPY_URL", "").strip()
PUBLIC_COPY_TOKEN = os.environ.get("KYUSHU_PUBLIC_COPY_TOKEN", "").strip()
PUBLIC_COPY_MODE = env_bool("KYUSHU_PUBLIC_COPY_MODE", False)
if (PUBLIC_COPY_URL or PUBLIC_COPY_MODE) and len(PUBLIC_COPY_TOKEN) < 16:
    raise ValueError("KYUSHU_PUBLIC_COPY_TOKEN must be set (at least 16 characters) "
                     "with KYUSHU_PUBLIC_COPY_URL or KYUSHU_PUBLIC_COPY_MODE")
PUBLIC_COPY_DEBOUNCE_SECONDS = env_number("KYUSHU_PUBLIC_COPY_DEBOUNCE", 0.5, minimum=0)
PUBLIC_COPY_MAX_WAIT_SECONDS = env_number("KYUSHU_PUBLIC_COPY_MAX_WAIT", 2.0, minimum=0)
PUBLIC_COPY_MAX_BACKOFF_SECONDS = env_number("KYUSHU_PUBLIC_COPY_MAX_BACKOFF", 60, minimum=1)
PUBLIC_COPY_SWEEP_SECONDS = env_number("KYUSHU_PUBLIC_COPY_SWEEP", 5, minimum=0.1)
PUBLIC_COPY_MAX_BYTES = env_number("KYUSHU_PUBLIC_COPY_MAX_BYTES", 64 * 1024 * 1024,
                                   minimum=1024, integer=True)

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
    if str(DATABASES["default"]["NAME"]) not in ("", ":memory:"):
        private_file(Path(DATABASES["default"]["NAME"]))
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
    # per thread and hold no snapshot between requests in autocommit mode. (The server's
    # threads live as long as the process: kyushu/serving.py.)
    DATABASES["default"]["CONN_MAX_AGE"] = 600
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Caches. Nothing in them is the only copy of anything: "default" holds the public pages'
# fragments and the revision they trust for 1 s (and, on Redis, sessions in front of the
# database); "pages" holds rendered page bodies keyed by the tournament's revision
# (brackets/perf/page_cache.py), apart so big pages never push the rest out.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    # Several server processes (`manage.py up --workers N`, or several hosts): one cache
    # they all share, so a logout and a write's "the revision moved" reach every process
    # at once. Sessions are read from it without a query and written through to the
    # database, so a Redis restart (or an eviction under its maxmemory) logs nobody out.
    # Page bodies and group cards stay in each process's memory: they are keyed by the
    # revision or the group version the shared cache says is current, so a process never
    # serves an older one, and a body of a few hundred KB is not sent through Redis.
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                    "LOCATION": REDIS_URL, "KEY_PREFIX": "default"},
        "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                  "LOCATION": "pages", "OPTIONS": {"MAX_ENTRIES": 1000}},
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    # One process's memory. Sessions are read from the database on every staff request
    # (one query by primary key): a session kept in one process's memory would go on
    # serving a logout made through another process on the same database.
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                    "LOCATION": "default", "OPTIONS": {"MAX_ENTRIES": 5000}},
        "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                  "LOCATION": "pages", "OPTIONS": {"MAX_ENTRIES": 1000}},
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Django's ModelBackend checking one password at a time (why: brackets/perf/auth_backend.py;
# a session of an older release, which named another backend, logs in again once).
# django-axes' backend comes first: it refuses a locked-out username and address before any
# password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "brackets.perf.auth_backend.OnePasswordAtATimeBackend",
]

# Login throttling (django-axes): 10 wrong passwords for one username from one address lock
# that pair out for 15 minutes; a right password before that clears the count. The
# organiser lifts a staff member's lockout on the staff page (スタッフ → ロック解除), anyone
# at the laptop with `manage.py axes_reset_username NAME` (README).
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "brackets.views.accounts.login_locked"
# Expired attempts are swept once a minute, not before every failed login (why:
# brackets/perf/auth_backend.py).
AXES_HANDLER = "brackets.perf.auth_backend.SweepingAxesHandler"
# No reverse proxy stands in front of the venue's server (and django-ipware is not
# installed), so django-axes reads the client's address from REMOTE_ADDR.

# Django's validators for every new staff password (the staff page, `manage.py up` and
# `demo` generate passwords that pass them).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
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
