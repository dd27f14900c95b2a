"""The floor under the API's figures (`bench_api_load.py --reads api|django`): the project's
settings and URLs with two requests that do no work of their own, served only by the
benchmark's gunicorn (DJANGO_SETTINGS_MODULE=benchmarks.floor.settings), never by the site."""
