"""Every kind of audit event, declared once (the search page's filter and the writers use it).

A kind is `<subject>.<what happened>`; the stored event keeps the text, so a kind is never
renamed (old events keep their meaning); a new kind is added here.
"""

from __future__ import annotations

from django.db import models


class EventKind(models.TextChoices):
    # rounds (tables.services.rounds, tables.services.corrections)
    ROUND_OPENED = "round.opened", "Round opened"
    ROUND_CARDS_ENTERED = "round.cards_entered", "Cards entered"
    ROUND_DECISION = "round.decision", "Seat decision"
    ROUND_HOUSE_WAY = "round.house_way", "Dealer's house way"
    ROUND_SETTLED = "round.settled", "Round settled"
    ROUND_VOIDED = "round.voided", "Round voided"
    ROUND_CORRECTED = "round.corrected", "Round corrected"
    # player-vs-player hands (tables.services.hands)
    HAND_OPENED = "hand.opened", "Hand opened"
    HAND_STEP = "hand.step", "Hand: card or action entered"
    HAND_FINISHED = "hand.finished", "Hand finished"
    HAND_VOIDED = "hand.voided", "Hand voided"
    HAND_UNDONE = "hand.undone", "Hand: last action taken back"
    HAND_MISDEAL = "hand.misdeal", "Hand cancelled (misdeal)"
    HAND_ASSERTION_FAILED = "hand.assertion_failed", "Hand: a game assertion failed (a bug)"
    ROUND_APPROVAL_REQUESTED = "round.approval_requested", "Sign-off requested"
    ROUND_APPROVED = "round.approved", "Payout approved by a pit boss"
    ROUND_APPROVAL_REFUSED = "round.approval_refused", "Sign-off refused (wrong credentials)"
    ROUND_CANCELLED = "round.cancelled", "Round cancelled (misdeal)"
    ROUND_STEP_BACK = "round.step_back", "Went back a step to fix the round"
    ROUND_VOID_REQUESTED = "round.void_requested", "Void requested (waits for a second pit boss)"
    ROUND_VOID_WITHDRAWN = "round.void_withdrawn", "Void request withdrawn"
    # dealers at tables
    DEALER_SIGNED_IN = "dealer.signed_in", "Dealer signed in"
    DEALER_SIGNED_OUT = "dealer.signed_out", "Dealer signed out"
    # paytables, the floor, meters (services and admin)
    PAYTABLE_DRAFTED = "paytable.drafted", "Paytable drafted"
    PAYTABLE_APPROVED = "paytable.approved", "Paytable approved"
    PAYTABLE_ASSIGNED = "paytable.assigned", "Paytable assigned"
    PAYTABLE_FIGURES = "paytable.figures", "Paytable's theoretical figures computed"
    TABLE_SETTINGS_DRAFTED = "table_settings.drafted", "Table settings drafted"
    TABLE_SETTINGS_APPROVED = "table_settings.approved", "Table settings approved"
    TABLE_SETTINGS_ASSIGNED = "table_settings.assigned", "Table settings assigned"
    PIT_CREATED = "pit.created", "Pit created"
    PIT_CHANGED = "pit.changed", "Pit changed"
    TABLE_CREATED = "table.created", "Table created"
    TABLE_CHANGED = "table.changed", "Table changed"
    METER_CREATED = "meter.created", "Meter created"
    METER_CHANGED = "meter.changed", "Meter changed"
    METER_OPENED = "meter.opened", "Meter opened"
    METER_ROUND = "meter.round", "Meter moved by a round"
    METER_CORRECTED = "meter.corrected", "Meter corrected"
    METER_ROUND_VOIDED = "meter.round_voided", "Meter put back by a round's void"
    # hold alerts (reports)
    HOLD_ALERT_CREATED = "hold_alert.created", "Hold alert created"
    HOLD_ALERT_CHANGED = "hold_alert.changed", "Hold alert changed"
    HOLD_ALERT_ACTIVATED = "hold_alert.activated", "Hold alert switched on"
    HOLD_ALERT_DEACTIVATED = "hold_alert.deactivated", "Hold alert switched off"
    HOLD_OUTSIDE_BAND = "hold_alert.outside_band", "Win outside the theoretical band"
    # accounts, sign-in, tokens (accounts)
    ACCOUNT_CREATED = "account.created", "Account created"
    ACCOUNT_CHANGED = "account.changed", "Account changed"
    ACCOUNT_PASSWORD_SET = "account.password_set", "Password set"
    ACCOUNT_ROLES_CHANGED = "account.roles_changed", "Roles changed"
    ACCOUNT_LOCKED = "account.locked", "Account locked"
    ACCOUNT_UNLOCKED = "account.unlocked", "Account unlocked"
    AUTH_LOGGED_IN = "auth.logged_in", "Signed in"
    AUTH_LOGGED_OUT = "auth.logged_out", "Signed out"
    AUTH_LOGIN_FAILED = "auth.login_failed", "Sign-in failed"
    AUTH_LOGIN_FAILED_UNKNOWN = "auth.login_failed_unknown", "Sign-in failed (unknown name)"
    TOKEN_ISSUED = "token.issued", "API token issued"
    TOKEN_REVOKED = "token.revoked", "API token revoked"
    TOKEN_KEPT_BY_DIGEST = "token.kept_by_digest", "API token kept by its digest (upgrade)"
    # the players' table displays (tables.services.displays)
    DISPLAY_KEY_ISSUED = "display_key.issued", "Display key issued"
    DISPLAY_KEY_REVOKED = "display_key.revoked", "Display key revoked"
    DISPLAY_OPENED = "display_key.opened", "Players' display opened with its key"
    # the trail itself (audit.services, audit_new_start)
    AUDIT_HEAD_RECOVERED = "audit.head_recovered", "Audit head recovered from the last event"
    AUDIT_NEW_START = "audit.new_start", "Audit anchor started anew (with a reason)"
    # refusals (audit.services.audit_refused is their only writer)
    PERMISSION_REFUSED = "permission.refused", "Permission refused"
    # table accounting
    SLIP_CREATED = "slip.created", "Slip entered"
    SLIP_SIGNED = "slip.signed", "Slip signed"
    SLIP_VOID_REQUESTED = "slip.void_requested", "Slip void asked"
    SLIP_VOIDED = "slip.voided", "Slip voided"
    DROP_BOX_MOVED = "drop_box.moved", "Drop box removed or arrived in the count room"
    COUNT_SHEET_SIGNED = "count_sheet.signed", "Count sheet signed"
    SIGNATURE_RULE_PROPOSED = "signature_rule.proposed", "Slip signature rule proposed"
    SIGNATURE_RULE_APPROVED = "signature_rule.approved", "Slip signature rule approved"
    VARIANCE_ALERT_RAISED = "variance.alert_raised", "Variance alert raised"
    VARIANCE_ACKNOWLEDGED = "variance.acknowledged", "Variance acknowledged"
    HANDOVER_ALERT_RAISED = "handover.alert_raised", "Shift handover difference"
    CHIP_DENOMINATION_SAVED = "chip_denomination.saved", "Chip denomination saved"
    AMOUNT_LIMIT_SET = "amount_limit.set", "Amount limit set (slips, poker buy-ins)"
    # rated play (players)
    PLAYER_CREATED = "player.created", "Player enrolled"
    PLAYER_CHANGED = "player.changed", "Player changed"
    PLAYER_VIEWED = "player.viewed", "Player's page viewed"
    PLAYER_SEATED = "player.seated", "Rated player seated"
    PLAYER_UNSEATED = "player.unseated", "Rated player's rating ended"
    PLAYER_REFUSED = "player.refused", "Barred or self-excluded card refused at a table"
    PLAYER_ALERT_ACKNOWLEDGED = "player.alert_acknowledged", "Refused card alert acknowledged"
    RATING_ADJUSTED = "rating.adjusted", "Rating's time adjusted"
    RATING_NOTE = "rating.note", "Note added to a rating"
    COMP_RATES_DRAFTED = "comp_rates.drafted", "Comp rates drafted"
    COMP_RATES_APPROVED = "comp_rates.approved", "Comp rates approved"
    COMP_REDEEMED = "comp.redeemed", "Comp points redeemed"
    COMP_REDEMPTION_APPROVED = "comp.redemption_approved", "Comp redemption approved"
    # cash compliance (compliance)
    PATRON_CREATED = "patron.created", "Patron recorded"
    PATRON_IDENTIFIED = "patron.identified", "Patron identified"
    CASH_TRANSACTION = "cash.transaction", "Cash transaction recorded"
    CTR_FILED = "ctr.filed", "CTR filed with FinCEN"
    CREDIT_LINE_SET = "credit.line_set", "Credit line set"
    CREDIT_LINE_APPROVED = "credit.line_approved", "Credit line approved"
    MARKER_ISSUED = "marker.issued", "Marker issued at a table"
    MARKER_REPAID = "marker.repaid", "Marker repaid at the cage"
    PATRON_MERGED = "patron.merged", "Described patron merged into an identified one"
    CASH_VOIDED = "cash.voided", "Cash transaction voided with its slip"
    THRESHOLDS_PROPOSED = "compliance.thresholds_proposed", "MTL and CTR thresholds proposed"
    THRESHOLDS_APPROVED = "compliance.thresholds_approved", "MTL and CTR thresholds approved"
    ALERT_RAISED = "compliance.alert_raised", "Suspicious activity alert raised"
    CASE_OPENED = "compliance.case_opened", "Compliance case opened"
    CASE_NOTE = "compliance.case_note", "Note added to a compliance case"
    CASE_DECIDED = "compliance.case_decided", "Compliance case decided (SAR or not)"
    # the statistical report's investigations (reports.statistical)
    STATISTICAL_INVESTIGATION_OPENED = (
        "statistical.investigation_opened",
        "Statistical fluctuation: investigation opened",
    )
    STATISTICAL_INVESTIGATION_EXPLAINED = (
        "statistical.investigation_explained",
        "Statistical fluctuation explained and signed",
    )
    # the Master Game Report (reports.mgr)
    MGR_REVIEWED = "mgr.reviewed", "Master Game Report reviewed"
    MGR_FINALIZED = "mgr.finalized", "Master Game Report signed final"
    MGR_ADJUSTMENT_ENTERED = "mgr.adjustment_entered", "Master Game Report adjustment entered"
    MGR_ADJUSTMENT_APPROVED = "mgr.adjustment_approved", "Master Game Report adjustment approved"
    # the record itself
    ROWS_BOUND = "record.rows_bound", "Existing rows put on the record"
    HISTORY_SEEDED = "record.history_seeded", "Synthetic history seeded (demo and benchmarks)"
    # the record's verification (reports.verification: nightly, on demand, the command)
    RECORD_VERIFICATION_STARTED = "record.verification_started", "Record verification started"
    RECORD_VERIFIED = "record.verified", "Record verified: whole"
    RECORD_VERIFICATION_FAILED = "record.verification_failed", "Record verification failed"
    RECORD_FAILURE_ACKNOWLEDGED = (
        "record.failure_acknowledged",
        "Record verification failure acknowledged",
    )
