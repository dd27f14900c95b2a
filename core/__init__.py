"""What every app shares and nothing else: the refusal every service raises (`errors`), the
roles and the one check of them (`roles`), and the one money formatter (`money`).

`core` imports nothing from the project's apps; every app may import it.
"""
