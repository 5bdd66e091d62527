"""Login lockouts (django-axes) as the organiser sees them: which of a tournament's staff
are locked out, and lifting a lockout from the staff page."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from brackets.models import Membership, Tournament


def locked_usernames(*, tournament: Tournament) -> set[str]:
    """The usernames of ``tournament``'s staff locked out from at least one address now."""
    from axes.models import AccessAttempt

    names = Membership.objects.filter(tournament=tournament).values_list("user__username",
                                                                         flat=True)
    attempts = AccessAttempt.objects.filter(username__in=list(names),
                                            failures_since_start__gte=settings.AXES_FAILURE_LIMIT)
    if settings.AXES_COOLOFF_TIME:
        attempts = attempts.filter(attempt_time__gt=timezone.now() - settings.AXES_COOLOFF_TIME)
    return set(attempts.values_list("username", flat=True))


def login_unlock(*, tournament: Tournament, membership_id: int) -> str | None:
    """Lift every lockout of one staff member of ``tournament`` (from any address), so the
    right password works again at once. Returns their username, or None when the
    membership is not this tournament's."""
    from axes.utils import reset

    membership = (Membership.objects.filter(tournament=tournament, id=membership_id)
                  .select_related("user").first())
    if membership is None:
        return None
    reset(username=membership.user.username)
    return membership.user.username
