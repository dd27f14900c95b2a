from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts.views import SignInView, throttled_sign_ins
from reports.urls import moved_urlpatterns, trail_urlpatterns
from tables.views import displays
from tables.views_home import home

from .api_root import ApiRootView

urlpatterns = [
    path("", home, name="home"),
    # Signing in is throttled per client address (accounts.views); signing out and changing
    # one's own password need a session.
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # The admin's own sign-in form, under the same per-address limit.
    path("admin/login/", throttled_sign_ins(admin.site.login)),
    path("admin/", admin.site.urls),
    path("tablet/", include("tables.urls")),
    path("api/", ApiRootView.as_view(), name="api-root"),  # links to every collection
    # A table's players' display signs in with its display key (tables.views.displays), under
    # the sign-ins' per-address limit.
    path("display/", throttled_sign_ins(displays.sign_in), name="display_sign_in"),
    path("display/<str:key>/", throttled_sign_ins(displays.sign_in), name="display_sign_in_key"),
    path("api/", include("tables.api.urls")),
    path("api/", include("accounting.api.urls")),  # slips, chips, variance alerts
    path("api/", include("players.api.urls")),  # players, seating rated players
    path("api/", include("compliance.api")),  # the cage's window
    path("reports/", include("reports.urls")),  # the dashboard, hold reports and alerts
    path("audit/", include((trail_urlpatterns, "audit"))),  # the audit trail's pages
    path("audit/", include(moved_urlpatterns)),  # the reports' former addresses
    path("accounting/", include("accounting.urls")),
    path("players/", include("players.urls")),  # rated play: players, ratings, comps
    path("compliance/", include("compliance.urls")),  # patrons, the MTL, the CTRs
]

# Under /api/ Django's own refusals (no such address, a body it cannot read, a server error)
# answer in the API's JSON error shape too; elsewhere the site's error pages.
handler400 = "casino.errors.bad_request"
handler403 = "casino.errors.permission_denied"
handler404 = "casino.errors.page_not_found"
handler500 = "casino.errors.server_error"

if settings.CASINO_PASSWORD_RESET:
    # Django's reset by e-mail, only when configured: accounts are reset by the security role,
    # and a public reset form would let anyone mail any account's owner.
    urlpatterns += [
        path(
            "accounts/password_reset/",
            auth_views.PasswordResetView.as_view(),
            name="password_reset",
        ),
        path(
            "accounts/password_reset/done/",
            auth_views.PasswordResetDoneView.as_view(),
            name="password_reset_done",
        ),
        path(
            "accounts/reset/<uidb64>/<token>/",
            auth_views.PasswordResetConfirmView.as_view(),
            name="password_reset_confirm",
        ),
        path(
            "accounts/reset/done/",
            auth_views.PasswordResetCompleteView.as_view(),
            name="password_reset_complete",
        ),
    ]
