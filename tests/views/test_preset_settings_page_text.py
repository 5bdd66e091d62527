"""The rule settings page names the tournament's preset, not only its slug."""

from __future__ import annotations

import pytest
from django.test import Client

from brackets.models import Tournament
from brackets.presets import preset_choices

pytestmark = pytest.mark.django_db


def test_rule_settings_page_names_the_preset(tournament: Tournament,
                                             clients: dict[str, Client]) -> None:
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    body = clients["organiser"].get(f"/t/{tournament.slug}/settings/rules/").content.decode()
    assert dict(preset_choices())[tournament.preset] in body
    assert "<code>katata-kansai5-qualifier</code>" in body
