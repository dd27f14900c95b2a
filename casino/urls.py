from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts.forms import SignInForm
from tables.views_home import home

urlpatterns = [
    path("", home, name="home"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=SignInForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("tablet/", include("tables.urls")),
    path("api/", include("tables.api.urls")),
    path("api/", include("accounting.api.urls")),  # slips, chips, variance alerts
    path("audit/", include("reports.urls")),  # the trail's and reports' pages
    path("accounting/", include("accounting.urls")),
]
