"""The project's settings, with the benchmark's URLs in front of the project's (see
benchmarks/floor/urls.py): everything else, the middleware, DRF's authentication, permission
and throttle classes, the database and the cache, is the project's own."""

from casino.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.floor.urls"
