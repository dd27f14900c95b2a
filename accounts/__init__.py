"""Accounts: who may sign in, and how (identity management by the security role, sign-in
lockout, API token expiry, the trusted client address, request guards). See docs/security.md."""
