"""A private draw reaches the hosted public copy as 「抽選済・公開前」, without its groups."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse

from brackets.hosted.receive import tournament_replace_delete
from brackets.models import Group, Round, Tournament
from brackets.services import rounds as svc
from brackets.services.draw_release import round_draw_release
from tests.hosted.test_receiver import TOKEN, post, public_html, push_body
from tests.states import register_entrants

pytestmark = pytest.mark.django_db


def test_the_copy_takes_a_private_draw_and_then_its_release(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    register_entrants(tournament, cast["organiser"], 12)
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    svc.round_draw(round=rounds[0], by=cast["organiser"])
    slug = tournament.slug
    url = reverse("public_round", args=[slug, 1])
    with override_settings(PUBLIC_COPY_MODE=True, PUBLIC_COPY_TOKEN=TOKEN, PUBLIC_COPY_URL=""):
        private = push_body(tournament, 1)
        round_draw_release(round=Round.objects.get(tournament=tournament, number=1),
                           by=cast["organiser"])
        released = push_body(tournament, 2)
        labels = list(Group.objects.filter(round__tournament=tournament)
                      .values_list("label", flat=True))
        tournament_replace_delete(tournament)

        assert post(private).status_code == 200
        page = public_html(url)
        assert "抽選済・公開前" in page and "group-card" not in page
        assert not Group.objects.exists()  # the copy holds no group of a private draw
        assert post(released).status_code == 200
        page = public_html(url)
        assert "抽選済・公開前" not in page
        assert sorted(Group.objects.values_list("label", flat=True)) == sorted(labels)
