"""The admin of an approved version (paytable versions, table settings versions): drafted here
with the kind's own form (a new version each time), approved by a second admin ("Approve
selected drafts", or the button on a draft's page), never edited; a change is a new version
drafted from an existing one. The writes are the kind's services (`tables.services.versions`
is their one flow)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import urlencode

from core.errors import ServiceError
from tables.models import ApprovedVersion

from .common import FloorAdmin, admin_link, audit_refused_permission, by_at, service_call

# The head of a saved version's page; the kind's own sets of fields follow.
VERSION_FIELDSETS: list[tuple[str | None, dict[str, Any]]] = [
    (None, {"fields": ["game", "name", "version", "status", "based_on_link"]}),
    (
        "Drafted and approved",
        {"fields": [("drafted_by", "drafted_at"), ("approved_by", "approved_at")]},
    ),
]
VERSION_READONLY = [
    "game",
    "name",
    "version",
    "status",
    "based_on_link",
    "drafted_by",
    "drafted_at",
    "approved_by",
    "approved_at",
]


class VersionDraftForm(forms.ModelForm):  # type: ignore[type-arg]
    """A draft of one game's version: its game fixed (from the URL, as what it is based on),
    its name; the kind's subclass adds its content's inputs (`Meta(VersionDraftForm.Meta)`
    with the kind's model)."""

    game_value: str
    based_on_value: ApprovedVersion | None

    class Meta:
        fields = ["game", "name"]
        help_texts = {"name": "Drafting under an existing name makes its next version."}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].disabled = True
        self.initial["game"] = self.game_value


class ApprovedVersionAdmin(FloorAdmin):
    """Drafted here (a new version each time), approved by a second admin, never edited.

    A kind sets `approved_note` (what an approved version can now be used for) and
    `never_edited` (the refusal of an edit), and calls its services in `approve_version` and
    `draft_version`."""

    approved_note = ""
    never_edited = "a saved version is never edited: draft a new one"

    list_display_links = ["game", "name", "version"]
    list_filter = ["game", "status"]
    search_fields = ["name"]
    list_select_related = ["drafted_by", "approved_by"]
    actions = ["approve_drafts", "draft_from_selected"]
    change_form_template = "admin/tables/approved_version_change_form.html"

    # Permissions: a saved version is never edited; approving needs the admin role.

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request)

    def has_approve_permission(self, request: HttpRequest) -> bool:
        return super().has_change_permission(request)

    # The changelist and a version's page.

    @admin.display(description="drafted by, at", ordering="drafted_at")
    def drafted(self, obj: ApprovedVersion) -> str:
        return by_at(obj.drafted_by, obj.drafted_at)  # type: ignore[attr-defined]

    @admin.display(description="approved by, at", ordering="approved_at")
    def approved(self, obj: ApprovedVersion) -> str:
        return by_at(obj.approved_by, obj.approved_at)  # type: ignore[attr-defined]

    @admin.display(description="based on")
    def based_on_link(self, obj: ApprovedVersion) -> str:
        return admin_link(obj.based_on) if obj.based_on else "—"

    @admin.action(description="Approve selected drafts", permissions=["approve"])
    def approve_drafts(
        self, request: HttpRequest, queryset: QuerySet[ApprovedVersion]
    ) -> HttpResponse | None:
        versions = list(queryset.order_by("pk"))
        for version in versions:
            label = f"{version.get_game_display()} {version.name} v{version.version}"  # type: ignore[attr-defined]
            try:
                self.approve_version(version, request.user)
            except PermissionDenied as err:
                audit_refused_permission(request, f"{label}: {err}")
                mine = version.drafted_by_id == request.user.pk  # type: ignore[attr-defined]
                why = f"you drafted it, and {err}" if mine else str(err)
                self.message_user(request, f"{label} was not approved: {why}.", messages.ERROR)
            except ServiceError as err:
                self.message_user(
                    request, f"{label} was not approved: {err.message}.", messages.WARNING
                )
            else:
                self.message_user(
                    request, f"{label} is approved: {self.approved_note}", messages.SUCCESS
                )
        if "_back_to_version" in request.POST and len(versions) == 1:  # the version page's button
            return HttpResponseRedirect(reverse(self._url_name("change"), args=[versions[0].pk]))
        return None

    @admin.action(description="Draft a new version from the selected one", permissions=["add"])
    def draft_from_selected(
        self, request: HttpRequest, queryset: QuerySet[ApprovedVersion]
    ) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select one version to draft from.", messages.WARNING)
            return None
        return HttpResponseRedirect(self.add_url(based_on=queryset.get().pk))

    def _url_name(self, page: str) -> str:
        return f"admin:{self.opts.app_label}_{self.opts.model_name}_{page}"

    def add_url(self, **params: Any) -> str:
        return f"{reverse(self._url_name('add'))}?{urlencode(params)}"

    # The kind's services.

    def approve_version(self, version: Any, user: AbstractBaseUser) -> None:
        """The kind's approving service."""
        raise NotImplementedError

    def draft_version(self, user: AbstractBaseUser, form: Any) -> ApprovedVersion:
        """The kind's drafting service, called with the form's validated draft."""
        raise NotImplementedError

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        context = {
            # once saved, a version is never edited: there is nothing to "continue"
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            **(extra_context or {}),
        }
        return super().add_view(request, form_url, context)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        context = {
            "has_approve_permission": self.has_approve_permission(request),
            **(extra_context or {}),
        }
        return super().change_view(request, object_id, form_url, context)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.readonly_fields if obj is not None else []

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        # The service creates and audits the version (the admin's own save is never used).
        if change:
            raise PermissionDenied(self.never_edited)
        with service_call():
            return self.draft_version(request.user, form)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Saved by the kind's drafting service in `save_form`."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """A version has no related rows to save."""
