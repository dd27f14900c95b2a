"""Settings: one file, every deployment difference read from the environment.

Safe local defaults: SQLite in the project folder, Celery tasks run in-process, DEBUG on.
A bad value fails loudly at start-up (django-environ raises ImproperlyConfigured).

Variables: DJANGO_DEBUG, DJANGO_SECRET_KEY (required when DEBUG is off), DJANGO_ALLOWED_HOSTS,
DATABASE_URL, CELERY_BROKER_URL, CASINO_TIME_ZONE.
"""

from __future__ import annotations

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env") if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DJANGO_DEBUG", default=True)
if DEBUG:
    SECRET_KEY = env.str(
        "DJANGO_SECRET_KEY", default="insecure-local-development-key-not-for-production"
    )
else:
    SECRET_KEY = env.str("DJANGO_SECRET_KEY")
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
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "tables",
    "audit",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "audit.middleware.RefusedPermissionMiddleware",
]

ROOT_URLCONF = "casino.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
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
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("CASINO_TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

REST_FRAMEWORK = {
    # Token first: an anonymous request gets 401 with `WWW-Authenticate: Token`, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
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
}

# Celery: with no broker configured, tasks run in-process (eager) so the site works alone.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TIMEZONE = TIME_ZONE

CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="casino")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
}
CELERY_BEAT_SCHEDULE = {
    "audit-checkpoint": {"task": "audit.tasks.checkpoint_audit_chain", "schedule": 300.0},
    "hold-catch-up": {"task": "audit.tasks.refresh_stale_reports", "schedule": 60.0},
    "hold-closed-days": {"task": "audit.tasks.recompute_closed_days", "schedule": 3600.0},
}

# The gaming day and its shifts, in the casino's time zone (TIME_ZONE).
CASINO_GAMING_DAY_START = env.str("CASINO_GAMING_DAY_START", default="06:00")
CASINO_SHIFTS = env.list("CASINO_SHIFTS", default=["06:00", "14:00", "22:00"])

# The audit chain's checkpoints are signed with this key (HMAC-SHA256). Set it in production,
# kept outside the database: whoever rewrites the chain cannot forge the checkpoints.
if DEBUG:
    AUDIT_CHECKPOINT_KEY = env.str("AUDIT_CHECKPOINT_KEY", default="insecure-local-audit-key")
else:
    AUDIT_CHECKPOINT_KEY = env.str("AUDIT_CHECKPOINT_KEY")
AUDIT_CHECKPOINT_KEY_ID = env.str("AUDIT_CHECKPOINT_KEY_ID", default="k1")

# Checkpoints are made in-process every AUDIT_CHECKPOINT_EVERY events, or when the last one is
# older than AUDIT_CHECKPOINT_SECONDS, and appended to the anchor file outside the database
# (AUDIT_ANCHOR_PATH; keep it on append-only or shipped-off storage; AUDIT_ANCHOR_SYSLOG sends
# each line to syslog too: a socket path like /dev/log or host:port). `verify_audit` fails when
# an event older than AUDIT_CHECKPOINT_MAX_LAG_SECONDS is covered by no checkpoint.
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
