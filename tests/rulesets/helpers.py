"""Posting the composer as a browser would: the values its page shows, some changed."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from django.test import Client
from django.urls import reverse


class _FormValues(HTMLParser):
    """name → value of every field of the form ``form_id`` as the browser would send it
    (ticked boxes only, the selected option, a textarea's text)."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside, self.values = form_id, False, {}
        self._select: str | None = None
        self._first: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind == "checkbox":
                if "checked" in a:
                    self.values[name] = a.get("value") or "on"
            elif kind not in ("submit", "button", "file"):
                self.values[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._first = name, None
        elif tag == "option" and self._select:
            if self._first is None:
                self._first = a.get("value", "")
                self.values.setdefault(self._select, self._first)
            if "selected" in a:
                self.values[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = ""

    def handle_data(self, data: str) -> None:
        if self._textarea:
            # A browser drops the newline that opens a textarea's text.
            if not self.values[self._textarea]:
                data = data.removeprefix("\r\n").removeprefix("\n")
            self.values[self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self.inside = False


def page_values(html: str, form_id: str = "ruleset-form") -> dict[str, str]:
    parser = _FormValues(form_id)
    parser.feed(html)
    return dict(parser.values)


def edit_url(slug: str, ruleset_id: int) -> str:
    return reverse("ruleset_edit", kwargs={"slug": slug, "ruleset_id": ruleset_id})


def post_composer(client: Client, slug: str, ruleset_id: int, **changes: Any) -> Any:
    """GET the composer, change ``changes`` (field name → value, None: untick), POST it."""
    url = edit_url(slug, ruleset_id)
    values = page_values(client.get(url).content.decode())
    for name, value in changes.items():
        if value is None:
            values.pop(name, None)
        else:
            values[name] = str(value)
    return client.post(url, values)
