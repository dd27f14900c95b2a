"""PostgreSQL through Django's own backend, with a health check that costs no round trip
(`base.DatabaseWrapper`)."""
