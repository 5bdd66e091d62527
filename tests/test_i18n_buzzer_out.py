"""A buzzer round's 失格 (out of the round) is its own message, not the H8 disqualification:
the English catalogue can say 'Out' there and 'Disqualified' for a rule breach."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from brackets.selectors import buzzer as buzzer_sel


def test_buzzer_out_badge_has_its_own_message_context(monkeypatch: Any) -> None:
    seen: list[tuple[str, str]] = []

    def record(context: str, message: str) -> str:
        seen.append((context, message))
        return "Out"

    monkeypatch.setattr(buzzer_sel, "pgettext", record)
    with translation.override("en"):
        label = buzzer_sel._status_label({"status": "out"}, disqualified=True)
    assert label == "Out"
    assert seen == [("buzzer status", "失格")]
    with translation.override("ja"):
        assert str(buzzer_sel.STATUS_LABELS["out"]) == "失格"
