from django.contrib import admin
from django.urls import include, path

from tables.views_home import home

urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("tablet/", include("tables.urls")),
    path("api/", include("tables.api.urls")),
    path("audit/", include("audit.urls")),
]
