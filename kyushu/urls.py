from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from brackets.views.favicon import favicon

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    # The language switcher posts without a CSRF token: a forged post can only change the
    # visitor's language, and a public page with no token is the same bytes for every
    # visitor, so it is cached and sent compressed as it is (brackets/perf/page_cache.py).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(success_url="/"),
        name="password_change",
    ),
    path("", include("brackets.urls")),
]
