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
