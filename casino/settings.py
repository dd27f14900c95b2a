"""Settings: one file, every deployment difference read from the environment.

Safe defaults: DEBUG off (`bin/run` turns it on for the demo), SQLite in the project folder,
Celery tasks run in-process. With DEBUG off the secret and audit keys are required. A bad value
fails loudly at start-up (django-environ raises ImproperlyConfigured).

Every variable is listed in the README's configuration table; `manage.py check --deploy` is
clean with DJANGO_HTTPS=true, real keys and a syslog host off the machine for the audit anchor
(see docs/security.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import environ
from celery.schedules import crontab

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env") if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DJANGO_DEBUG", default=False)
# The test suite runs with DEBUG off (as production does) and needs no keys of its own.
TESTING = "pytest" in sys.modules


# The keys refused with DEBUG off: name -> what is wrong with it. MISSING_KEYS names them all
# (missing, the development default or too short): the system checks (accounts.checks), the
# WSGI application and the Celery worker and beat (casino.celery) refuse to start on any.
KEY_PROBLEMS: dict[str, str] = {}
MISSING_KEYS: list[str] = []
# The audit checkpoint key's shortest accepted length: an HMAC-SHA256 key of fewer bytes than
# the hash's 32 is weaker than the signature it makes.
AUDIT_CHECKPOINT_KEY_MIN_BYTES = 32


def key_problem(value: str, development_default: str, min_bytes: int = 0) -> str | None:
    """What makes `value` unusable as a production key (None: nothing): empty, the development
    default (printed in this file, so known to everyone), or shorter than `min_bytes` bytes."""
    if not value:
        return "is not set"
    if value == development_default:
        return "is the development default (published in casino/settings.py)"
    size = len(value.encode())
    if size < min_bytes:
        return f"is {size} bytes long; at least {min_bytes} are required"
    return None


def _key(name: str, development_default: str, min_bytes: int = 0) -> str:
    """A key that must be set in production: the development default only with DEBUG on (or
    under the test suite). Otherwise a missing key, the development default or one shorter than
    `min_bytes` is refused: the system checks refuse to start the site, a worker or any command
    that uses the database (accounts.checks), and Django refuses to sign anything with an empty
    SECRET_KEY. Commands that need no key (`settle`) still run."""
    if DEBUG or TESTING:
        return str(env.str(name, default=development_default))
    value = str(env.str(name, default=""))
    problem = key_problem(value, development_default, min_bytes)
    if problem:
        KEY_PROBLEMS[name] = problem
        MISSING_KEYS.append(name)
    return value


SECRET_KEY = _key("DJANGO_SECRET_KEY", "insecure-local-development-key-not-for-production")
ALLOWED_HOSTS = env.list(
    "DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"]
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "tables",
    "audit",
    "accounts",
    "reports",
    "accounting",
    "players",
    "compliance",
]

MIDDLEWARE = [
    # First: what a request defers (a settled round's report rebuild) runs once the response
    # is written (core.after_response).
    "core.after_response.AfterResponseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "accounts.middleware.RequestGuardMiddleware",
    # A database busy or out of reach, the shared cache down, a number no column holds: 503
    # with Retry-After or 400, never a server error.
    "accounts.middleware.FaultMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "audit.middleware.RefusedPermissionMiddleware",
    "accounts.middleware.CurrentRequestMiddleware",
]

ROOT_URLCONF = "casino.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # the site's, then each game's own (`tables/games/<game>/templates/games/...`)
        "DIRS": [BASE_DIR / "templates", *sorted(BASE_DIR.glob("tables/games/*/templates"))],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.navigation.navigation",
            ],
        },
    },
]

WSGI_APPLICATION = "casino.wsgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Keep connections between requests (a new PostgreSQL backend per request costs more than the
# request itself); checked before reuse.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.bool(
    "DATABASE_SERVER_SIDE_BINDING", default=True
):
    # Parameters bound by the server, not spliced into the SQL text.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("server_side_binding", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django turns psycopg's prepared statements off (for connection poolers in transaction
    # mode); with none in front of us, a statement a connection has run this many times is
    # prepared, and PostgreSQL does not parse and plan it again (the same dozen statements
    # make every step of a round). 0 turns it off (behind PgBouncer in transaction mode).
    _prepare = env.int("DATABASE_PREPARE_THRESHOLD", default=5)
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "prepare_threshold", _prepare if _prepare > 0 else None
    )
    # Django's backend, with the check of a kept connection at a request's start made without
    # a round trip when the server has said nothing since (casino/pgbackend/base.py).
    DATABASES["default"]["ENGINE"] = "casino.pgbackend"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a small floor: readers never wait for the writer (WAL), a
    # writer takes the lock when its transaction begins (IMMEDIATE, so two settles never
    # deadlock upgrading a read lock) and waits for it up to the busy timeout.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": env.int("CASINO_SQLITE_BUSY_TIMEOUT", default=20),
        }
    )
# A write a reading request makes on the side (a session's idle time renewed, a throttle's
# count) waits this long for SQLite's lock at most, and is let go when it is not free: a reader
# never waits for a writer (core.db.brief_lock_wait).
CASINO_SQLITE_BRIEF_WAIT_MS = env.int("CASINO_SQLITE_BRIEF_WAIT_MS", default=100)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's password validators in full (the length from CASINO_PASSWORD_MIN_LENGTH).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": env.int("CASINO_PASSWORD_MIN_LENGTH", default=12)},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# A locked account is refused before its password is checked (accounts.backends).
AUTHENTICATION_BACKENDS = ["accounts.backends.LockoutModelBackend"]

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("CASINO_TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# the site's, then each game's own (`tables/games/<game>/static/games/...`)
STATICFILES_DIRS = [BASE_DIR / "static", *sorted(BASE_DIR.glob("tables/games/*/static"))]
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# --- accounts, sign-in and sessions ----------------------------------------------------------

# Shared tablets: a session ends after this many idle minutes (each request renews it) and
# when the browser closes.
SESSION_COOKIE_AGE = env.int("CASINO_SESSION_IDLE_MINUTES", default=30) * 60
SESSION_SAVE_EVERY_REQUEST = True
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
# Lockout: this many failed sign-ins for one username within the window lock the account
# until someone with the security role lifts it (or, when set, after CASINO_LOCKOUT_MINUTES).
CASINO_LOCKOUT_FAILURES = env.int("CASINO_LOCKOUT_FAILURES", default=10)
CASINO_LOCKOUT_WINDOW_MINUTES = env.int("CASINO_LOCKOUT_WINDOW_MINUTES", default=15)
CASINO_LOCKOUT_MINUTES = env.int("CASINO_LOCKOUT_MINUTES", default=0)  # 0: until lifted
# Addresses (or networks) of the reverse proxies whose X-Forwarded-For is believed. Empty (the
# default): the header is ignored and the client is the connection's address.
CASINO_TRUSTED_PROXIES = env.list("CASINO_TRUSTED_PROXIES", default=[])
# A pit boss's sign-off typed at a dealer's tablet: this many failures within the lockout
# window stop the sign-off at that tablet (for its dealer and its address) until the window
# passes. They never count toward the pit boss's own lockout.
CASINO_SIGN_OFF_FAILURES = env.int("CASINO_SIGN_OFF_FAILURES", default=5)
# Django's password-reset pages (by e-mail) only when asked for: accounts are reset by the
# security role.
CASINO_PASSWORD_RESET = env.bool("CASINO_PASSWORD_RESET", default=False)
# Sessions in the database; renewing a session's idle time is let go when SQLite's lock is
# taken, and made at most once every CASINO_SESSION_RENEW_SECONDS (accounts.sessions).
SESSION_ENGINE = "accounts.sessions"
CASINO_SESSION_RENEW_SECONDS = env.int("CASINO_SESSION_RENEW_SECONDS", default=60)
# API tokens expire this many hours after they were issued (and on sign-out).
CASINO_TOKEN_HOURS = env.int("CASINO_TOKEN_HOURS", default=12)

# The cache holds the API throttles' counters and, with Redis, the failed sign-in counts: one
# store shared by every process (the database by default; CASINO_CACHE_URL=redis://...).
CACHES = {
    "default": env.cache_url("CASINO_CACHE_URL", default="dbcache://casino_cache"),
}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache":
    CACHES["default"]["BACKEND"] = "casino.dbcache.DatabaseCache"  # a one-statement `set`
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # Short timeouts, no retries, a pause after a failure: a Redis that refuses or hangs costs
    # a request CASINO_CACHE_TIMEOUT at most (core.cache); throttles then fail open and the
    # lockout counts in the database.
    CACHES["default"]["BACKEND"] = "core.cache.RedisCache"
CASINO_CACHE_TIMEOUT = env.float("CASINO_CACHE_TIMEOUT", default=0.25)
CASINO_CACHE_PAUSE = env.float("CASINO_CACHE_PAUSE", default=30.0)
CASINO_LOCKOUT_STORE = (
    "redis" if CACHES["default"]["BACKEND"].endswith("RedisCache") else "database"
)

REST_FRAMEWORK = {
    # Token first: an anonymous request gets 401 with `WWW-Authenticate: Token`, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["accounts.parsers.StrictJSONParser"],
    # Every operation's errors, those the site gives around the views too (413, 429, 503...).
    "DEFAULT_SCHEMA_CLASS": "tables.api.schema.ApiAutoSchema",
    # One error shape everywhere, the schema view's too: {"error": {"code", "message", "field"}}.
    "EXCEPTION_HANDLER": "tables.api.views.api_exception_handler",
    # Counted in the shared cache, keyed by the client address (accounts.throttles: the
    # trusted proxies, never a client-chosen X-Forwarded-For) or the user.
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.throttles.AnonThrottle",
        "accounts.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("CASINO_API_ANON_RATE", default="60/min"),
        "user": env.str("CASINO_API_USER_RATE", default="1200/min"),
        "sign_in": env.str("CASINO_API_SIGN_IN_RATE", default="20/min"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino floor API",
    "DESCRIPTION": "Tables, rounds, paytables and progressive meters.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the vendored sidecar package: nothing loads from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The schema and its documentation are for signed-in users only.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    # The cash transactions' kinds, and the cage's among them (beside the slips' own kinds).
    "ENUM_NAME_OVERRIDES": {
        "CashKindEnum": "compliance.models.Kind",
        "CageKindEnum": "compliance.api.CAGE_KIND_CHOICES",
        "KindEnum": "accounting.models.Slip.Kind",
    },
}

# --- HTTPS and browser protections ------------------------------------------------------------

# Behind TLS set DJANGO_HTTPS=true: HTTPS redirect, secure cookies, HSTS (then
# `check --deploy` is clean). DJANGO_SECURE_PROXY_SSL_HEADER=true believes the proxy's
# X-Forwarded-Proto (only behind a proxy that sets it).
HTTPS = env.bool("DJANGO_HTTPS", default=False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=HTTPS)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", default=HTTPS)
if env.bool("DJANGO_SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
# Nothing loads from elsewhere and no page runs an inline script (django-csp sends this).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Request bodies: larger ones are refused (the API answers 413 in its JSON error shape).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("CASINO_MAX_BODY_BYTES", default=1_048_576)

# Celery: with no broker configured, tasks run in-process (eager) so the site works alone.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_TIME_LIMIT = 300
# A worker keeps its database connection from task to task, as the web keeps one from request
# to request: Celery's Django fix-up would otherwise close it around every task, so each report
# rebuild would start a new PostgreSQL backend, a costly process start under load.
# The fix-up still closes it after this many tasks, and casino.celery closes it sooner when it
# is older than CONN_MAX_AGE or broken, as Django does between requests.
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TIMEZONE = TIME_ZONE

CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="casino")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
}
# A request that enqueues a task waits at most this long for the broker (casino.tasks.enqueue);
# after a failure the web process stops trying for CELERY_ENQUEUE_PAUSE seconds.
CELERY_ENQUEUE_TIMEOUT = env.float("CELERY_ENQUEUE_TIMEOUT", default=0.1)
CELERY_ENQUEUE_PAUSE = env.float("CELERY_ENQUEUE_PAUSE", default=30.0)
# A paytable version's theoretical figures (computed when it is approved): Monte Carlo deals of
# a wager that cannot be exact (0: the engine's own count, about +/-0.002 at 95%).
CASINO_EDGE_SAMPLES = env.int("CASINO_EDGE_SAMPLES", default=0)
# ... and the simulated rounds of seven seats that measure how two seats' results move together.
CASINO_EDGE_SEAT_ROUNDS = env.int("CASINO_EDGE_SEAT_ROUNDS", default=4000)
if CASINO_EDGE_SAMPLES < 0 or CASINO_EDGE_SEAT_ROUNDS < 1:
    raise environ.ImproperlyConfigured(
        "CASINO_EDGE_SAMPLES must be 0 or more and CASINO_EDGE_SEAT_ROUNDS at least 1"
    )
CELERY_BEAT_SCHEDULE = {
    "paytable-figures": {
        "task": "tables.tasks.compute_missing_paytable_figures",
        "schedule": 600.0,
    },
    "audit-checkpoint": {"task": "audit.tasks.checkpoint_audit_chain", "schedule": 300.0},
    "hold-catch-up": {"task": "reports.tasks.refresh_stale_reports", "schedule": 60.0},
    "hold-closed-days": {"task": "reports.tasks.recompute_closed_days", "schedule": 3600.0},
    # The whole record verified every night at a quiet hour, in the casino's time zone.
    "record-verification": {
        "task": "reports.tasks.verify_the_record",
        "schedule": crontab(hour=4, minute=30),
    },
    # Suspicious activity's nightly run over the gaming day just closed (compliance.alerts).
    "compliance-alerts": {
        "task": "compliance.tasks.scan_for_alerts",
        "schedule": crontab(hour=6, minute=30),
    },
}

# The gaming day and its shifts, in the casino's time zone (TIME_ZONE).
CASINO_GAMING_DAY_START = env.str("CASINO_GAMING_DAY_START", default="06:00")
CASINO_SHIFTS = env.list("CASINO_SHIFTS", default=["06:00", "14:00", "22:00"])
# Table accounting: a shift whose count win differs from its hands' win by more than this many
# cents raises a variance alert that a pit boss must acknowledge.
CASINO_VARIANCE_TOLERANCE_CENTS = env.int("CASINO_VARIANCE_TOLERANCE_CENTS", default=500)
# A table is open for play by its signed opener, closed by its closer (accounting.opening):
# rounds, hands, buy-ins, fills and credits at a table not open are refused. Off only for the
# parts of the test suite whose fixtures play before any count.
CASINO_OPENER_REQUIRED = env.bool("CASINO_OPENER_REQUIRED", default=True)
if CASINO_VARIANCE_TOLERANCE_CENTS < 0:
    raise environ.ImproperlyConfigured("CASINO_VARIANCE_TOLERANCE_CENTS must not be negative")
# Cash compliance (docs/compliance.md): a cash transaction at or above the MTL threshold, or
# one taking its patron's day to it, names its patron and is logged; a patron's day of cash in
# (or of cash out) above the CTR threshold opens a Currency Transaction Report.
CASINO_MTL_THRESHOLD_CENTS = env.int("CASINO_MTL_THRESHOLD_CENTS", default=300_000)
CASINO_CTR_THRESHOLD_CENTS = env.int("CASINO_CTR_THRESHOLD_CENTS", default=1_000_000)
if not 0 < CASINO_MTL_THRESHOLD_CENTS <= CASINO_CTR_THRESHOLD_CENTS:
    raise environ.ImproperlyConfigured(
        "CASINO_MTL_THRESHOLD_CENTS must be positive and at most CASINO_CTR_THRESHOLD_CENTS"
    )
# The casino as a CTR names it (FinCEN Form 112 Part III, and the batch XML's transmitter and
# contact office): demo values until the casino's own are set.
CASINO_FILER = {
    "legal_name": env.str("CASINO_FILER_LEGAL_NAME", default="Harbor Lights Casino LLC"),
    "dba_name": env.str("CASINO_FILER_DBA_NAME", default="Harbor Lights Casino"),
    "ein": env.str("CASINO_FILER_EIN", default="12-3456789"),
    "street": env.str("CASINO_FILER_STREET", default="1 Boardwalk"),
    "city": env.str("CASINO_FILER_CITY", default="Atlantic City"),
    "state": env.str("CASINO_FILER_STATE", default="NJ"),
    "zip": env.str("CASINO_FILER_ZIP", default="08401"),
    "country": env.str("CASINO_FILER_COUNTRY", default="US"),
    # state_licensed, tribal or card_club (Part III: the type of gaming institution)
    "gaming_type": env.str("CASINO_FILER_GAMING_TYPE", default="state_licensed"),
    "contact_office": env.str("CASINO_FILER_CONTACT_OFFICE", default="Compliance department"),
    "contact_phone": env.str("CASINO_FILER_CONTACT_PHONE", default="6095550100"),
    # the transmitter control code FinCEN gives a batch filer
    "tcc": env.str("CASINO_FILER_TCC", default="PTEST000"),
}

# Suspicious activity (docs/compliance.md, "Suspicious activity"): the alerts' margins, counts and
# ratios, integer cents where money. Structuring: transactions each within the MTL margin under
# the MTL threshold (so many of them over so many consecutive gaming days), or a day's total
# within the CTR margin under the CTR threshold. Chip walking: cash in of at least its minimum,
# play of at most its percent of it, then chips redeemed for cash. Beyond play: cash in of at
# least its minimum and at least the ratio times what was wagered. A SAR is due for suspicious
# activity of the SAR threshold or more.
CASINO_STRUCTURING_MTL_MARGIN_CENTS = env.int("CASINO_STRUCTURING_MTL_MARGIN_CENTS", default=30_000)
CASINO_STRUCTURING_CTR_MARGIN_CENTS = env.int(
    "CASINO_STRUCTURING_CTR_MARGIN_CENTS", default=100_000
)
CASINO_STRUCTURING_COUNT = env.int("CASINO_STRUCTURING_COUNT", default=2)
CASINO_STRUCTURING_DAYS = env.int("CASINO_STRUCTURING_DAYS", default=2)
CASINO_CHIP_WALK_MIN_CENTS = env.int("CASINO_CHIP_WALK_MIN_CENTS", default=300_000)
CASINO_CHIP_WALK_PLAY_PERCENT = env.int("CASINO_CHIP_WALK_PLAY_PERCENT", default=10)
CASINO_BEYOND_PLAY_MIN_CENTS = env.int("CASINO_BEYOND_PLAY_MIN_CENTS", default=500_000)
CASINO_BEYOND_PLAY_RATIO = env.int("CASINO_BEYOND_PLAY_RATIO", default=10)
CASINO_SAR_THRESHOLD_CENTS = env.int("CASINO_SAR_THRESHOLD_CENTS", default=500_000)
if not (
    0 <= CASINO_STRUCTURING_MTL_MARGIN_CENTS < CASINO_MTL_THRESHOLD_CENTS
    and 0 <= CASINO_STRUCTURING_CTR_MARGIN_CENTS < CASINO_CTR_THRESHOLD_CENTS
    and CASINO_STRUCTURING_COUNT >= 2
    and CASINO_STRUCTURING_DAYS >= 1
    and CASINO_CHIP_WALK_MIN_CENTS > 0
    and 0 <= CASINO_CHIP_WALK_PLAY_PERCENT <= 100
    and CASINO_BEYOND_PLAY_MIN_CENTS > 0
    and CASINO_BEYOND_PLAY_RATIO >= 1
    and CASINO_SAR_THRESHOLD_CENTS > 0
):
    raise environ.ImproperlyConfigured(
        "the CASINO_STRUCTURING_*, CASINO_CHIP_WALK_*, CASINO_BEYOND_PLAY_* and "
        "CASINO_SAR_THRESHOLD_CENTS settings are out of range (docs/compliance.md)"
    )

# The audit chain's checkpoints are signed with this key (HMAC-SHA256). Set it in production
# (at least 32 bytes, never the development default), kept outside the database: whoever
# rewrites the chain cannot forge the checkpoints.
AUDIT_CHECKPOINT_KEY = _key(
    "AUDIT_CHECKPOINT_KEY", "insecure-local-audit-key", AUDIT_CHECKPOINT_KEY_MIN_BYTES
)
AUDIT_CHECKPOINT_KEY_ID = env.str("AUDIT_CHECKPOINT_KEY_ID", default="k1")

# Checkpoints are made in-process every AUDIT_CHECKPOINT_EVERY events, or when the last one is
# older than AUDIT_CHECKPOINT_SECONDS, and appended to the anchor file outside the database
# (AUDIT_ANCHOR_PATH; keep it on append-only or shipped-off storage; AUDIT_ANCHOR_SYSLOG sends
# each line to syslog too: a socket path like /dev/log, or host:port, which `check --deploy`
# requires: a witness off the machine, audit.checks). `verify_audit` fails when an event older
# than AUDIT_CHECKPOINT_MAX_LAG_SECONDS is covered by no checkpoint.
AUDIT_ANCHOR_PATH = env.str("AUDIT_ANCHOR_PATH", default=str(BASE_DIR / "audit-anchor.jsonl"))
AUDIT_ANCHOR_SYSLOG = env.str("AUDIT_ANCHOR_SYSLOG", default="")
AUDIT_CHECKPOINT_EVERY = env.int("AUDIT_CHECKPOINT_EVERY", default=100)
AUDIT_CHECKPOINT_SECONDS = env.int("AUDIT_CHECKPOINT_SECONDS", default=300)
AUDIT_CHECKPOINT_MAX_LAG_SECONDS = env.int("AUDIT_CHECKPOINT_MAX_LAG_SECONDS", default=900)
AUDIT_ANCHOR_GRACE_SECONDS = env.int("AUDIT_ANCHOR_GRACE_SECONDS", default=60)
for _name in ("AUDIT_CHECKPOINT_EVERY", "AUDIT_CHECKPOINT_SECONDS", "AUDIT_ANCHOR_GRACE_SECONDS"):
    if globals()[_name] < 1:
        raise environ.ImproperlyConfigured(f"{_name} must be at least 1")
if AUDIT_CHECKPOINT_MAX_LAG_SECONDS <= AUDIT_CHECKPOINT_SECONDS:
    raise environ.ImproperlyConfigured(
        "AUDIT_CHECKPOINT_MAX_LAG_SECONDS must be longer than AUDIT_CHECKPOINT_SECONDS"
    )
