"""gunicorn's settings for the site; gunicorn reads this file when started from the project
folder (`.venv/bin/gunicorn casino.wsgi:application`). Command-line flags override it.

Sync workers, two per core, each serving one request at a time: measured on a 2-core machine
with 20 tablets playing back to back (`benchmarks/bench_api_load.py`, docs/benchmarks.md),
they finished about 1.4 times the requests a second of 5 threaded workers of 4 threads, with
the settle's p99 at less than half. Threads of one process take turns on one core (the GIL),
so more than one request in a process made each slower and costlier, and a kept-alive
connection stays with the worker that accepted it however busy that worker is; a sync worker
accepts the next request only when it is free, so requests wait in one queue and the next free
worker takes the oldest.

A sync worker is held by a slow client for as long as it sends or reads: run the site behind
a reverse proxy that buffers requests and responses (nginx, as gunicorn's documentation says),
which also terminates TLS. WEB_CONCURRENCY sets the number of workers.
"""

from __future__ import annotations

import os

worker_class = "sync"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * len(os.sched_getaffinity(0)))
# A request that takes longer is stuck (a settle takes milliseconds): the worker is replaced.
timeout = 60
graceful_timeout = 30
