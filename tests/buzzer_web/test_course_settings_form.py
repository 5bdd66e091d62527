"""Number10 (M3): every course round gets its own settings form on the course page, built
from the engine's settings description and prefilled with the course's rules; what staff
change there is what the created course plays by, and a bad value creates nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from brackets.engine.buzzer import PRESETS
from brackets.models import BuzzerRound, Tournament
from tests.buzzer_web.test_event_layout_from_preset import _finish_2r_by_seven_outs

pytestmark = pytest.mark.django_db

ABC = PRESETS.get("abc-the25th-004")
COURSES = ["3r-updown", "3r-freeze", "3r-swedish", "3r-10by10"]
ORDER = {f"order-{slug}": str(n) for n, slug in enumerate(COURSES, start=1)}


def _course_page(tournament: Tournament) -> str:
    return reverse("buzzer_event_round",
                   kwargs={"slug": tournament.slug, "preset": ABC.slug, "round_slug": "3r-updown"})


def _ready(tournament: Tournament) -> None:
    from brackets.services.buzzer_presets import preset_round_seat

    preset_round_seat(tournament=tournament, preset=ABC.slug, round_slug="2r",
                      first_round=[f"選手{n:02d}" for n in range(1, 49)])
    _finish_2r_by_seven_outs(tournament)


def test_each_course_has_a_settings_form_with_its_own_rules(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    _ready(tournament)
    page = clients["organiser"].get(_course_page(tournament), ORDER)
    forms = page.context["settings_forms"]
    assert [f.prefix for f in forms] == COURSES
    initial = {f.prefix: f.post_data() for f in forms}
    assert initial["3r-updown"]["3r-updown-scoring"] == "updown"
    assert initial["3r-updown"]["3r-updown-win__points-at-least__n"] == 10
    assert initial["3r-swedish"]["3r-swedish-loss__wrong-at-least__n"] == 10
    assert initial["3r-10by10"]["3r-10by10-scoring__by__n"] == 10
    assert initial["3r-freeze"]["3r-freeze-clock_ms"] == 15 * 60  # seconds as staff type them
    body = page.content.decode()
    assert 'data-settings-for="3r-swedish"' in body
    assert "3rd Round Number10 Swedish10 の設定（ルールどおりの値が入っています）" in body


def test_a_course_setting_changed_on_the_page_is_what_the_course_plays_by(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    _ready(tournament)
    org = clients["organiser"]
    page = org.get(_course_page(tournament), ORDER)
    data = {**ORDER, "expect": page.context["plan"].digest()}
    for form in page.context["settings_forms"]:
        data.update(form.post_data())
    data["3r-10by10-loss__wrong-at-least__n"] = "7"
    data["3r-updown-clock_ms"] = "600"

    bad = dict(data, **{"3r-freeze-win__correct-at-least__n": "0"})
    refused = org.post(_course_page(tournament), bad)
    assert refused.status_code == 200
    assert "3rd Round Number10 Freeze10 · ○数（○数が n 以上のとき）: ○数（○数が n 以上のとき）は 1 以上で入力してください" in refused.content.decode()
    assert not BuzzerRound.objects.filter(round_slug__in=COURSES).exists()

    assert org.post(_course_page(tournament), data).status_code == 302
    by_slug = {r.round_slug: r.config for r in BuzzerRound.objects.filter(round_slug__in=COURSES)}
    assert by_slug["3r-10by10"]["loss"]["params"]["n"] == 7
    assert by_slug["3r-updown"]["clock_ms"] == 600_000
    assert by_slug["3r-swedish"]["loss"]["params"]["n"] == 10  # untouched: the rule page's
