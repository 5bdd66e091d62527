"""The login backend: Django's ModelBackend, reading the logged-in user with a prebuilt
statement (``brackets.perf.lean``), since every staff request reads it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError

from brackets.perf import lean


class LeanModelBackend(ModelBackend):
    """Same users, passwords and permissions as ModelBackend; only ``get_user`` differs."""

    def get_user(self, user_id: Any) -> Any:
        user_model = get_user_model()
        pk = user_model._meta.pk
        try:
            value = pk.to_python(user_id)
        except ValidationError:
            return None
        found = lean.fetch(user_model, where=[pk.name], params=[value])
        if not found:
            return None
        user = found[0]
        return user if self.user_can_authenticate(user) else None
