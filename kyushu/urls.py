from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from brackets.views.favicon import favicon

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
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
