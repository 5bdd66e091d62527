"""Role-matrix entries for the series pages (issue 14 item 3). Merged into
``tests/test_role_matrix.MATRIX``; the objects come from ``tests.matrix_world``."""

from __future__ import annotations

from typing import Any

from tests.rounds.matrix import ORGANISER, PUBLIC


def _series(w: dict[str, Any]) -> dict[str, Any]:
    return {"slug": w["tournament"].slug, "series_slug": w["series"].slug}


def series_matrix() -> dict[str, Any]:
    from tests.test_role_matrix import Entry

    return {
        "public_series": Entry(PUBLIC, kwargs=lambda w: {"series_slug": w["series"].slug}),
        "series_index": Entry(ORGANISER),
        "series_edit": Entry(ORGANISER, kwargs=_series),
        "series_attach": Entry(ORGANISER, method="POST", kwargs=_series, data=lambda w: {
            "tournament": str(w["tournament"].id), "role": "qualifier"}),
        "series_berth_grant": Entry(ORGANISER, method="POST", kwargs=_series, data=lambda w: {
            "player": str(w["player"].id), "qualifier": "大津予選", "held_on": "2019-01-05",
            "place": "1", "source": "大津予選の結果ページ"}),
        "series_berth_withdraw": Entry(ORGANISER, method="POST", kwargs=lambda w: {
            **_series(w), "grant_id": w["berth_grant"].id},
            data=lambda w: {"reason": "出典の予選は別シリーズ"}),
    }
