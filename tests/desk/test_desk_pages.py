"""The desk's entrant list and import preview at tablet width."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Tournament
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


def test_import_preview_without_errors_has_no_empty_error_column(
        tournament: Tournament, clients: dict[str, Any]) -> None:
    """At 768 px the preview of a clean 67-row file spent a third of the width on an empty
    16rem 「エラー」 column (and a red 「エラー 0行」 badge), pushing シード and 受付 off
    screen. The column appears only when some row has an error."""
    from tests.desk.test_import import preview_url, upload

    client = clients["desk"]
    good = "お名前,カードネーム,シード,受付\n山田,ヤマダ,1,○\n鈴木,スズキ,,○\n".encode()
    upload(client, tournament, "good.csv", good)
    html = client.get(preview_url(tournament)).content.decode()
    table = html[html.index('id="import-rows"'):]
    assert ">エラー</th>" not in table
    assert 'text-bg-danger fs-6" data-summary="errors"' not in html

    bad = "お名前,カードネーム\n山田,ヤマダ\n,カードだけ\n".encode()
    upload(client, tournament, "bad.csv", bad)
    html = client.get(preview_url(tournament)).content.decode()
    table = html[html.index('id="import-rows"'):]
    assert ">エラー</th>" in table
    assert 'text-bg-danger fs-6" data-summary="errors"' in html


def test_desk_page_links_are_in_japanese(tournament: Tournament,
                                         clients: dict[str, Any]) -> None:
    """With 67 entrants the desk list ended in 「1 2 next»」: django-tables2's English."""
    import re

    add_entrants(tournament, 67)
    html = clients["desk"].get(f"/t/{tournament.slug}/desk/").content.decode()
    assert re.search(r'class="page-link">次へ <span aria-hidden="true">&raquo;</span>', html)
    assert not re.search(r'class="page-link">\s*next', html)
    html = clients["desk"].get(f"/t/{tournament.slug}/desk/?page=2").content.decode()
    assert '<span aria-hidden="true">&laquo;</span> 前へ</a>' in html
    assert not re.search(r'&laquo;</span>\s*previous', html)
