"""The app's icon is served at /favicon.ico, so no page logs a 404 for it."""

from __future__ import annotations

from typing import Any

from django.test import Client


def test_favicon_is_served_from_the_apps_own_files(client: Client) -> None:
    response: Any = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    body = b"".join(response) if response.streaming else response.content
    # An ICO file starts with reserved 0, type 1 (icon).
    assert body[:4] == b"\x00\x00\x01\x00"
    assert "max-age" in response["Cache-Control"]
