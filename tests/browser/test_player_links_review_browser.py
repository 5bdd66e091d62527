"""The organiser's review of an imported tournament's players, in real Chromium at a
laptop's size (1280x800): the uncertain matches stand first with the registry's candidates
and why each is uncertain; one tap records 同一人物 (a merge) and the page says who and
when. Screenshots: /tmp/shots/players/player-links-review-1280.png (before) and
player-links-review-decided-1280.png (after)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from brackets.adapters.players import canonical
from brackets.exporters.tournament_file import tournament_file_import
from brackets.models import Membership, PlayerLink, PlayerLinkDecision, QmaVersion, Role, Tournament
from brackets.services.catalog import catalog_load_builtin
from brackets.services.players import player_create
from tests.browser.conftest import CHROMIUM_ARGS, login
from tests.players.filehelpers import travel, venue_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "links-browser-pass"
SHOTS = Path("/tmp/shots/players")
LAPTOP = {"width": 1280, "height": 800}


def _world() -> tuple[Tournament, Any]:
    catalog_load_builtin()
    version = QmaVersion.objects.get(slug="qma-2016")
    users = {name: get_user_model().objects.create_user(username=name, password=PASSWORD)
             for name in ("org", "desk")}
    venue = Tournament.objects.create(slug="venue", name="堅田大会（会場）", version=version)
    venue_tournament(venue, {"desk": users["desk"], "organiser": users["org"]})
    data = travel(venue)
    # The series server's registry: 山田 certain, 佐藤 a card under another name, 鈴木 a
    # name without a shared card.
    player_create(name="山田太郎", reading="やまだたろう", card_name="ヤマダ", q_level=60,
                  by=users["desk"])
    player_create(name="佐藤はな", reading="さとうはな", card_name="サトウ", q_level=55,
                  by=users["desk"])
    player_create(name="鈴木一郎", reading="すずきいちろう", card_name="イチロー", q_level=30,
                  by=users["desk"])
    imported = tournament_file_import(data=json.dumps(data, ensure_ascii=False),
                                      slug="series-q1", by=users["org"])
    Membership.objects.get_or_create(tournament=imported, user=users["org"],
                                     role=Role.ORGANISER)
    return imported, users["org"]


def test_organiser_reviews_uncertain_links_and_confirms_one(live_server: Any,
                                                             browser: Any) -> None:
    assert "--no-sandbox" in CHROMIUM_ARGS
    tournament, organiser = _world()
    context = browser.new_context(viewport=LAPTOP, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        login(page, live_server.url, organiser.username, PASSWORD)
        page.goto(f"{live_server.url}/t/{tournament.slug}/players/links/")
        assert page.get_by_text("確認が必要な参加者が2人います").is_visible()
        sato = page.locator("section", has_text="佐藤花子")
        assert sato.get_by_text("カードネームが同じで、名前もよみがなも違います").is_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "player-links-review-1280.png"), full_page=True)
        sato.get_by_role("button", name="同一人物").click()
        page.wait_for_load_state()
        assert page.get_by_text("佐藤花子 さんを登録簿の選手と同一人物として記録しました").is_visible()
        assert page.get_by_text("確認が必要な参加者が1人います").is_visible()
        page.screenshot(path=str(SHOTS / "player-links-review-decided-1280.png"), full_page=True)
    finally:
        context.close()
    link = PlayerLink.objects.get(tournament=tournament, entrant__card_name="サトウ")
    decision = PlayerLinkDecision.objects.get(link=link)
    assert decision.by == organiser and decision.merge is not None
    assert canonical(link.player).name == "佐藤はな"
