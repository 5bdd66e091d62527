"""Who may do what, per tournament.

Roles: organiser (everything in their tournament), desk (entrants), bracket staff (matches).
The public reads published pages without logging in. A site superuser (the organiser
account ``manage.py up`` creates) counts as organiser of every tournament.

Every view that writes declares the roles it needs with :func:`role_required`; the role
matrix test walks every URL and fails for any URL it does not know.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from brackets.models import Membership, Role, Tournament


def _implied(roles: set[str]) -> set[str]:
    """Organiser implies every role."""
    return roles | {Role.DESK, Role.BRACKET} if Role.ORGANISER in roles else roles


def user_roles(user: Any, tournament: Tournament) -> set[str]:
    """The roles ``user`` holds in ``tournament`` (organiser implies every role)."""
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return {Role.ORGANISER, Role.DESK, Role.BRACKET}
    return _implied(set(
        Membership.objects.filter(tournament=tournament, user=user).values_list("role", flat=True)
    ))


def _tournament_and_roles(user: Any, slug: str) -> tuple[Tournament, set[str]]:
    """The tournament (404 if none) and the user's roles in it: one query for a member,
    which is every request of a staff page that is allowed."""
    if user.is_authenticated and not user.is_superuser:
        mine = list(Membership.objects.select_related("tournament")
                    .filter(tournament__slug=slug, user_id=user.pk))
        if mine:
            return mine[0].tournament, _implied({m.role for m in mine})
        return get_object_or_404(Tournament, slug=slug), set()
    tournament = get_object_or_404(Tournament, slug=slug)
    return tournament, user_roles(user, tournament)


def has_role(user: Any, tournament: Tournament, *roles: str) -> bool:
    return bool(user_roles(user, tournament) & set(roles))


ViewFunc = Callable[..., HttpResponse]


def role_required(*roles: str) -> Callable[[ViewFunc], ViewFunc]:
    """Load the tournament from the ``slug`` URL argument and check the user's role.

    Anonymous users are sent to the login page; logged-in users without the role get 403.
    The view receives the tournament as ``request.tournament`` and ``request.roles``.
    """

    def decorator(view: ViewFunc) -> ViewFunc:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            tournament, granted = _tournament_and_roles(request.user, slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not granted & set(roles):
                raise PermissionDenied
            request.tournament = tournament  # type: ignore[attr-defined]
            request.roles = granted  # type: ignore[attr-defined]
            return view(request, tournament, *args, **kwargs)

        wrapper.required_roles = roles  # type: ignore[attr-defined]
        return wrapper

    return decorator


def public_tournament(view: ViewFunc) -> ViewFunc:
    """A read-only public page of one tournament: no login, never shows staff-only data."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        request.tournament = tournament  # type: ignore[attr-defined]
        return view(request, tournament, *args, **kwargs)

    wrapper.required_roles = ()  # type: ignore[attr-defined]
    return wrapper


def public_series(view: ViewFunc) -> ViewFunc:
    """A read-only public page of one qualifier series (``series_slug``): no login, only
    what the public pages of its tournaments show (names, places, berths)."""
    from brackets.models import Series

    @wraps(view)
    def wrapper(request: HttpRequest, series_slug: str, *args: Any, **kwargs: Any
                ) -> HttpResponse:
        series = get_object_or_404(Series, slug=series_slug)
        return view(request, series, *args, **kwargs)

    wrapper.required_roles = ()  # type: ignore[attr-defined]
    return wrapper
