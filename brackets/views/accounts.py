"""Staff accounts: the lockout page a throttled login gets, and the organiser lifting a
staff member's lockout."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from brackets.models import Role, Tournament
from brackets.permissions import role_required
from brackets.services.logins import login_unlock


def login_locked(request: HttpRequest, original_response: Any = None,
                 credentials: Any = None) -> HttpResponse:
    """django-axes' lockout response (AXES_LOCKOUT_CALLABLE): in Japanese, saying how long
    the lock lasts and who can lift it."""
    cooloff = settings.AXES_COOLOFF_TIME
    minutes = int(cooloff.total_seconds() // 60) if cooloff else 0
    return render(request, "registration/lockout.html",
                  {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes},
                  status=settings.AXES_HTTP_RESPONSE_CODE)


@require_POST
@role_required(Role.ORGANISER)
def staff_unlock(request: HttpRequest, tournament: Tournament,
                 membership_id: int) -> HttpResponse:
    """The staff page's ロック解除: the staff member can log in again at once."""
    username = login_unlock(tournament=tournament, membership_id=membership_id)
    if username is None:
        raise Http404
    messages.success(request, _("%(name)s のログインのロックを解除しました。") % {"name": username})
    return redirect("staff_list", slug=tournament.slug)
