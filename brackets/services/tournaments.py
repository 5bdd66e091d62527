"""Creating tournaments and managing their staff."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction

from brackets.models import Membership, Role, Tournament


@transaction.atomic
def tournament_create(*, creator: Any, ruleset: Any = None, **fields: Any) -> Tournament:
    """Create a tournament; its creator becomes its organiser.

    ``ruleset`` (a :class:`RuleSetVersion` without problems) makes it run that version's
    rules, copied into the tournament (``services.rulesets``) instead of ``preset``."""
    if ruleset is not None:
        from brackets.services.rulesets import tournament_rule_fields

        fields.update(tournament_rule_fields(ruleset))
    tournament = Tournament(**fields)
    tournament.full_clean()
    tournament.save()
    Membership.objects.create(tournament=tournament, user=creator, role=Role.ORGANISER)
    return tournament


def generated_password(username: str) -> str:
    """A random password for a new account that passes Django's password validators
    (printed once by ``manage.py up`` and ``demo``)."""
    user = get_user_model()(username=username)
    while True:
        password = secrets.token_urlsafe(12)
        try:
            validate_password(password, user=user)
        except ValidationError:
            continue  # all digits or too like the name: vanishingly rare, draw again
        return password


@transaction.atomic
def staff_add(*, tournament: Tournament, username: str, role: str, password: str = "") -> Membership:
    """Give ``username`` a role in ``tournament``, creating the account when it is new."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        # A new staff password obeys Django's validators, whoever creates the account.
        validate_password(password, user=user_model(username=username))
        user = user_model.objects.create_user(username=username, password=password)
    membership, _created = Membership.objects.get_or_create(
        tournament=tournament, user=user, role=role
    )
    return membership


@transaction.atomic
def staff_remove(*, tournament: Tournament, membership_id: int) -> None:
    Membership.objects.filter(tournament=tournament, id=membership_id).delete()
