"""URLs of the public copy, included by brackets/urls.py."""

from __future__ import annotations

from django.urls import path

from brackets.hosted import views

urlpatterns = [
    path("public-copy/push/", views.public_copy_push, name="public_copy_push"),
]
