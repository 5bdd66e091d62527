"""The objects the role matrix needs to build every URL: one of each kind, recreated
after each POST so a destructive action can be tried by every user."""

from __future__ import annotations

from typing import Any

from brackets.models import Membership, Role, Tournament


def build_world(*, tournament: Tournament, cast: dict[str, Any]) -> dict[str, Any]:
    spare_membership, _ = Membership.objects.get_or_create(
        tournament=tournament, user=cast["desk"], role=Role.BRACKET
    )
    return {"tournament": tournament, "cast": cast, "spare_membership": spare_membership}
