"""English mode on the round pages: text the rounds code builds in Python (group status
labels, match history, staff error messages) is translated, not left in Japanese.

Why: these strings live in dicts and f-strings outside templates, so a missing gettext mark
silently drops them from django.po and English readers saw 待機 / 出題入力中 etc.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.test import Client
from django.urls import reverse

from brackets.models import Group, Round, Tournament
from tests.rounds.conftest import group, round_one  # noqa: F401  (fixtures)

STATUS_JA = ("待機", "出題入力中", "対戦中", "確認待ち")
STATUS_EN = ("Waiting", "Entering sets", "Playing", "Awaiting confirmation")


def _lang(client: Client, code: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    return client


def test_round_page_status_labels_follow_the_language(
        clients: dict[str, Client], tournament: Tournament, round_one: Round) -> None:  # noqa: F811
    url = reverse("round_detail", args=[tournament.slug, round_one.number])
    client = clients["organiser"]
    ja = _lang(client, "ja").get(url).content.decode()
    assert any(label in ja for label in STATUS_JA)
    en = _lang(client, "en").get(url).content.decode()
    assert any(label in en for label in STATUS_EN)
    assert not any(label in en for label in STATUS_JA)


def test_public_round_fragment_cache_keeps_languages_apart(
        tournament: Tournament, round_one: Round) -> None:  # noqa: F811
    """The public round body is cached per revision; Japanese first must not leak into
    the English page (and back)."""
    url = reverse("public_round", args=[tournament.slug, round_one.number])
    ja = _lang(Client(), "ja").get(url).content.decode()
    assert any(label in ja for label in STATUS_JA)
    en = _lang(Client(), "en").get(url).content.decode()
    assert any(label in en for label in STATUS_EN)
    assert not any(label in en for label in STATUS_JA)


def test_match_history_kinds_in_english(
        clients: dict[str, Client], tournament: Tournament, group: Group) -> None:  # noqa: F811
    url = reverse("match_history", args=[tournament.slug, group.id])
    en = _lang(clients["organiser"], "en").get(url).content.decode()
    assert "Seat" in en
    assert ">席<" not in en


def test_refused_save_shows_english_error(
        clients: dict[str, Client], tournament: Tournament, group: Group,
        cast: dict[str, Any]) -> None:  # noqa: F811
    """Confirming a match without results is refused with the translated message."""
    url = reverse("match_confirm", args=[tournament.slug, group.id])
    client = _lang(clients["organiser"], "en")
    response = client.post(url, {"version": group.version}, follow=True)
    html = response.content.decode()
    assert "結果が揃っていません。" not in html
    assert "Results are not complete" in html


def test_refused_results_name_the_cabinet_in_english(
        clients: dict[str, Client], tournament: Tournament, group: Group) -> None:  # noqa: F811
    """A formatted message (named placeholder) comes back in English with the seat number."""
    url = reverse("match_results", args=[tournament.slug, group.id])
    client = _lang(clients["organiser"], "en")
    post = {"version": group.version, "score_1": "abc", "place_1": "1"}
    for n in (2, 3, 4):
        post.update({f"score_{n}": str(100 - n), f"place_{n}": str(n)})
    html = client.post(url, post, follow=True).content.decode()
    assert "の得点" not in html
    assert "Cab. 1&#x27;s score &quot;abc&quot; is not a number." in html


def _round_two_seat_that_used_geino(round_one: Round, cast: dict[str, Any]) -> Any:  # noqa: F811
    """Round 1 group A plays 芸能 / 四択 everywhere; the seat of its winner in round 2 (K1:
    芸能 and its format group are now 使用済み for that player)."""
    from brackets.models import Seat
    from brackets.services import rounds as svc

    user = cast["bracket"]
    good = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}
    first = Group.objects.filter(round=round_one).order_by("number").first()
    for n in range(1, 5):
        svc.selection_save(group=first, by=user, seat_number=n, genre="芸能", format="四択",
                           difficulty="HARD")
    for g in Group.objects.filter(round=round_one):
        svc.results_save(group=g, by=user, rows=good)
    svc.round_close(round=round_one, by=user)
    svc.round_advance(round=round_one, by=user)
    r2 = Round.objects.get(tournament=round_one.tournament, number=2)
    svc.round_draw(round=r2, by=user)
    svc.round_start(round=r2, by=user)
    winner = Seat.objects.get(group=first, number=1).entrant_id
    return Seat.objects.get(group__round=r2, entrant_id=winner)


def test_refused_illegal_selection_gives_the_engine_reason_in_english(
        clients: dict[str, Client], tournament: Tournament, round_one: Round,  # noqa: F811
        cast: dict[str, Any]) -> None:
    """九州杯IX refuses an illegal set; the engine's reason (a code turned into text by the
    adapter) reaches the English page in English, the Japanese page in Japanese."""
    from brackets.models import SelectionFact

    seat = _round_two_seat_that_used_geino(round_one, cast)
    g = seat.group
    url = reverse("match_selection", args=[tournament.slug, g.id])
    client = clients["bracket"]
    post = {"version": g.version, "seat": seat.number, "set": "芸能|○×",
            "difficulty": "EASY"}
    before = SelectionFact.objects.filter(group=g).count()
    en = _lang(client, "en").post(url, post, follow=True).content.decode()
    assert "芸能 already used in" in en
    assert "は1回戦で使用済み" not in en
    ja = _lang(client, "ja").post(url, post, follow=True).content.decode()
    assert "芸能 は1回戦で使用済み" in ja
    assert SelectionFact.objects.filter(group=g).count() == before


def test_match_page_option_reasons_are_cached_per_language(
        clients: dict[str, Client], tournament: Tournament, round_one: Round,  # noqa: F811
        cast: dict[str, Any]) -> None:
    """The greyed options carry the engine's reasons and are cached per seat: a Japanese
    page built first must not hand its reasons to the English reader."""
    seat = _round_two_seat_that_used_geino(round_one, cast)
    url = reverse("match_page", args=[tournament.slug, seat.group.id])
    client = clients["bracket"]
    ja = _lang(client, "ja").get(url).content.decode()
    assert "芸能 は1回戦で使用済み" in ja
    en = _lang(client, "en").get(url).content.decode()
    assert "芸能 already used in" in en
    assert "で使用済み" not in en


def test_shared_labels_translate_on_pages_and_on_sheets_in_the_printers_language() -> None:
    """One copy of the mode / counting / kind labels (brackets.labels): web pages and the
    printed documents show them in the language of whoever reads or prints them."""
    from django.utils import translation

    from brackets.engine import Counting, Mode, PlayerRules
    from brackets.labels import COUNTING_LABELS, KIND_LABELS, MODE_LABELS, label, translated
    from brackets.selectors import documents
    from brackets.views import public_player
    from brackets.views.rounds import _common as rounds

    assert documents.MODE_LABELS is MODE_LABELS is rounds.MODE_LABELS
    assert documents.COUNTING_LABELS is COUNTING_LABELS is rounds.COUNTING_LABELS
    assert public_player.MODE_LABELS is MODE_LABELS
    rules = PlayerRules(mode=Mode.PINPOINT, counting=Counting.INDIVIDUAL)
    with translation.override("en"):
        assert label(MODE_LABELS, "bomber") == "Bomber"
        assert label(MODE_LABELS, "pinpoint") == "Pinpoint"
        assert label(MODE_LABELS, "free") == "Free"
        assert translated(KIND_LABELS)["groups"] == ""  # not the catalogue header
        assert documents.mode_label(rules, shura=False, opt_up=False) == "Low-power Pinpoint"
    with translation.override("ja"):
        assert label(MODE_LABELS, "bomber") == "ボンバーマン"
        assert documents.mode_label(rules, shura=False, opt_up=False) == "低火力ピンポイント"
        assert label(COUNTING_LABELS, "unknown", "") == ""


def test_round_kinds_on_the_rounds_page_follow_the_language(
        clients: dict[str, Client], tournament: Tournament, round_one: Round) -> None:  # noqa: F811
    url = reverse("rounds_index", args=[tournament.slug])
    client = clients["organiser"]
    ja = _lang(client, "ja").get(url).content.decode()
    assert "パートナー戦" in ja and "3本勝負" in ja
    en = _lang(client, "en").get(url).content.decode()
    assert "Partner match" in en and "Best of 3" in en and "Rule choice" in en
    assert "パートナー戦" not in en and "3本勝負" not in en


def test_final_ranking_details_follow_the_language_on_the_bracket_page(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The 成績 column of the final ranking comes from the documents selector: Japanese on
    the printed standings, the reader's language on the public bracket page."""
    from brackets.selectors.round_documents import final_ranking
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"])
    printed = [r.detail for r in final_ranking(tournament)]
    assert printed[0] == "優勝" and any("惜敗率" in d and "組" in d for d in printed)
    url = reverse("public_bracket", args=[tournament.slug])
    ja = _lang(Client(), "ja").get(url).content.decode()
    assert "惜敗率" in ja and ">優勝<" in ja
    en = _lang(Client(), "en").get(url).content.decode()
    assert "Champion" in en and "Runner-up" in en and "loss ratio (惜敗率)" in en
    assert "点　惜敗率" not in en and "組1位" not in en


def test_lists_in_running_text_use_the_readers_separator() -> None:
    from django.utils import translation

    from brackets.labels import listed

    with translation.override("en"):
        assert listed(["芸能", "スポーツ"]) == "芸能, スポーツ"
    with translation.override("ja"):
        assert listed(["芸能", "スポーツ"]) == "芸能、スポーツ"
