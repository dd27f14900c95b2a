import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
application = get_wsgi_application()

# A production server never starts without its keys (see accounts.checks).
from django.conf import settings  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402

if settings.MISSING_KEYS:
    raise ImproperlyConfigured(f"set {', '.join(settings.MISSING_KEYS)} (DEBUG is off)")
