"""What the round services announce to the apps above them (which they never import).

`round_closed(round=...)` is sent inside the transaction that settled, voided or corrected a
round (the reports app marks the round's hold report stale in that same transaction);
`settled=True` when the round was newly settled (its figures can be added to the report's
without summing the day again).
"""

from __future__ import annotations

from django.dispatch import Signal

round_closed = Signal()
# `hand_closed(hand=...)`: a player-vs-player hand was finished or voided (same transaction).
hand_closed = Signal()
# `demo_seeded(users=...)`: `seed_demo` made the demo floor (same transaction); the apps above add
# their own demo data (the rated players), by the demo logins in `users`.
demo_seeded = Signal()
# `play_starting(table=..., what=...)`: a round or a hand is about to open at `table` (inside
# its transaction, the table locked); a receiver refuses by raising a ServiceError (table
# accounting: the table is not open for play until its opener is signed).
play_starting = Signal()
