"""Who may create, sign and void each kind of slip: the usual practice of a table games pit.

- opener / closer (the tray counted by denomination): the dealer at the table or a pit boss
  counts; the other signs (a pit boss signs the dealer's count, the dealer the pit boss's).
- fill: a pit boss requests it; the cage issues it (signs); the dealer at the table confirms
  receipt on the tablet (signs). It counts once the dealer has confirmed.
- credit: a pit boss requests it; the dealer at the table releases the chips (signs); the cage
  confirms receipt (signs).
- drop: a member of the count team counts the box; a second member signs.
- buy_in: the dealer at the table enters it alone (the cash goes into the drop box, where the
  count checks it); it counts at once.
A wrong slip is voided by two different people of the kind's void roles, then replaced; the
second, who confirms the void, is never one who entered or signed the slip.
Nobody signs a slip they created, nor signs one twice (the database refuses it too).
"""

from __future__ import annotations

from core.roles import Role

# The kinds, as their `Slip.Kind` values (kept here as text so this module needs no model).
OPENER, CLOSER, FILL, CREDIT, DROP, BUY_IN = "opener", "closer", "fill", "credit", "drop", "buy_in"
KINDS = (OPENER, CLOSER, FILL, CREDIT, DROP, BUY_IN)

CREATE_ROLES: dict[str, tuple[Role, ...]] = {
    OPENER: (Role.DEALER, Role.PIT_BOSS),
    CLOSER: (Role.DEALER, Role.PIT_BOSS),
    FILL: (Role.PIT_BOSS,),
    CREDIT: (Role.PIT_BOSS,),
    DROP: (Role.COUNT,),
    BUY_IN: (Role.DEALER,),
}

# The signatures each kind needs, in order: the roles allowed at each step.
SIGN_STEPS: dict[str, tuple[tuple[Role, ...], ...]] = {
    OPENER: ((Role.PIT_BOSS, Role.DEALER),),
    CLOSER: ((Role.PIT_BOSS, Role.DEALER),),
    FILL: ((Role.CAGE,), (Role.DEALER,)),
    CREDIT: ((Role.DEALER,), (Role.CAGE,)),
    DROP: ((Role.COUNT,),),
    BUY_IN: (),
}

VOID_ROLES: dict[str, tuple[Role, ...]] = {
    OPENER: (Role.PIT_BOSS, Role.DEALER),
    CLOSER: (Role.PIT_BOSS, Role.DEALER),
    FILL: (Role.PIT_BOSS, Role.CAGE),
    CREDIT: (Role.PIT_BOSS, Role.CAGE),
    DROP: (Role.COUNT,),
    BUY_IN: (Role.DEALER, Role.PIT_BOSS),
}

# What each step's signature means, for the pages and the trail.
STEP_NAMES: dict[str, tuple[str, ...]] = {
    OPENER: ("verified",),
    CLOSER: ("verified",),
    FILL: ("issued by the cage", "received at the table"),
    CREDIT: ("released at the table", "received by the cage"),
    DROP: ("second count signature",),
    BUY_IN: (),
}

# Kinds counted chip by chip, and kinds given as an amount (a drop may add chips found in the box).
CHIP_KINDS = frozenset({OPENER, CLOSER, FILL, CREDIT})
AMOUNT_KINDS = frozenset({DROP, BUY_IN})
# One live count per table, gaming day and shift.
ONE_PER_SHIFT = frozenset({OPENER, CLOSER, DROP})
# Entered only at a table open for play in the slip's shift (its opener signed, not its closer).
NEED_OPEN = frozenset({BUY_IN, FILL, CREDIT, CLOSER})

# The reason the count team gives for the drop boxes of the previous gaming day, counted the
# morning after (every slip of the previous gaming day needs a reason; the slip desk offers this
# one to pick).
MORNING_COUNT_REASON = "Morning count of the previous gaming day's drop boxes"
# The reasons offered ready to pick, per kind.
READY_REASONS: dict[str, tuple[str, ...]] = {DROP: (MORNING_COUNT_REASON,)}

# The bills the count team counts by denomination (cents), largest first.
BILLS = (10000, 5000, 2000, 1000, 500, 100)
# The coupons counted by value, each with its words.
COUPONS = {"match_play": "match-play coupons", "promotional": "promotional coupons"}

# The roles a property's signature rule may name for a fill or a credit, and what each one's
# signature means there (the cage issues, security carries, the pit supervisor receives, the
# dealer confirms; a credit runs the other way).
RULE_ROLES = (Role.CAGE, Role.SECURITY, Role.PIT_BOSS, Role.DEALER)
RULE_MEANINGS: dict[str, dict[str, str]] = {
    FILL: {
        Role.CAGE.value: "issued by the cage",
        Role.SECURITY.value: "carried by security",
        Role.PIT_BOSS.value: "received by the pit supervisor",
        Role.DEALER.value: "received at the table",
    },
    CREDIT: {
        Role.DEALER.value: "released at the table",
        Role.PIT_BOSS.value: "released by the pit supervisor",
        Role.SECURITY.value: "carried by security",
        Role.CAGE.value: "received by the cage",
    },
}
