"""Printed QR codes lead to the server's LAN address, never to loopback."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def test_printed_qr_address_is_not_loopback(monkeypatch: Any) -> None:
    """Entry sheets printed from the server laptop (http://127.0.0.1:8000/) carried
    QR codes to 127.0.0.1, which every player's phone resolves to itself."""
    from django.test import RequestFactory

    from brackets.management.commands import up
    from brackets.views.documents import _printed_base_url

    monkeypatch.setattr(up, "lan_address", lambda: "192.0.2.10")
    rf = RequestFactory()
    assert _printed_base_url(rf.get("/", HTTP_HOST="127.0.0.1:8000")) == "http://192.0.2.10:8000/"
    assert _printed_base_url(rf.get("/", HTTP_HOST="localhost:8000")) == "http://192.0.2.10:8000/"
    assert _printed_base_url(rf.get("/", HTTP_HOST="192.168.1.5:8000")) == "http://192.168.1.5:8000/"
