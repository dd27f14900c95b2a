"""The audit trail in the Django admin: read-only for everyone, superusers included.

Events are appended by the services (`audit_record`) and chained by hash, and checkpoints are
signed by `verify_audit`; nothing here may add, change or delete either.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html

from .models import AuditCheckpoint, AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["seq", "at", "actor_name", "kind", "table_name", "object"]
    list_display_links = ["seq", "kind"]
    list_filter = ["kind", "table_name"]
    search_fields = ["kind", "actor_name", "table_name", "object_type", "object_id", "=seq"]
    search_help_text = "a kind, a user, a table, an object type or id, or an exact sequence number"
    ordering = ["-seq"]
    date_hierarchy = "at"
    fields = [
        "seq",
        "at",
        "actor_name",
        "actor_id",
        "kind",
        "object",
        "table_name",
        "data_json",
        "prev_hash",
        "hash",
    ]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="object", ordering="object_type")
    def object(self, obj: AuditEvent) -> str:
        model = obj.object_type.rpartition(".")[2]
        return f"{model} #{obj.object_id}" if obj.object_type else "—"

    @admin.display(description="data")
    def data_json(self, obj: AuditEvent) -> str:
        return format_html(
            "<pre style='margin:0'>{}</pre>", json.dumps(obj.data, indent=2, sort_keys=True)
        )


@admin.register(AuditCheckpoint)
class AuditCheckpointAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["seq", "at", "hash", "key_id"]
    fields = ["seq", "at", "hash", "key_id", "signature"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
