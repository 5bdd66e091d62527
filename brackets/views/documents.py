"""The documents page and the one download view serving every registered document.

The view only checks roles, reads the query options and hands them to the document's
``render``; what a document prints is its own business (``brackets.printing``).
"""

from __future__ import annotations

from collections import defaultdict

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from brackets.exporters.tournament_file import TournamentFileError, tournament_file_import
from brackets.models import Role, Tournament
from brackets.permissions import role_required
from brackets.printing.registry import (
    DocumentError,
    documents_for,
    get_document,
    may_download,
)

CATEGORY_ORDER = ("受付", "回戦", "大会")
MAX_TOURNAMENT_FILE = 50 * 1024 * 1024


@role_required(Role.ORGANISER, Role.DESK, Role.BRACKET)
def document_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every document the user may download, grouped by area, one link per option set."""
    roles: set[str] = request.roles  # type: ignore[attr-defined]
    sections: dict[str, list[dict[str, object]]] = defaultdict(list)
    for doc in documents_for(roles):
        links = []
        for choice in doc.choices(tournament):
            query = "&".join(f"{k}={v}" for k, v in choice.options.items())
            links.append({"label": choice.label, "query": query})
        if not links and doc.hide_when_empty:
            continue
        sections[doc.category].append({"doc": doc, "links": links})
    ordered = [(c, sections[c]) for c in CATEGORY_ORDER if sections.get(c)]
    ordered += [(c, items) for c, items in sections.items() if c not in CATEGORY_ORDER]
    # Without rounds an empty row means "not yet"; with rounds, "this preset has none".
    has_rounds = tournament.rounds.exists()
    return render(request, "brackets/documents/list.html",
                  {"tournament": tournament, "sections": ordered, "has_rounds": has_rounds})


def _printed_base_url(request: HttpRequest) -> str:
    """The address printed under the QR codes, for players' phones on the venue LAN.

    The organiser usually prints from the laptop that runs the app, opened as
    http://127.0.0.1:8000/ or localhost: printing that would send every phone to itself.
    A loopback host is replaced by the LAN address ``manage.py up`` announces (same port).
    """
    base = request.build_absolute_uri("/")
    host = request.get_host()
    name, _sep, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not _sep:
        name, port = host, ""
    if name in ("localhost", "[::1]") or name.startswith("127."):
        from brackets.management.commands.up import lan_address

        lan = lan_address()
        if not lan.startswith("127."):
            return f"{request.scheme}://{lan}{':' + port if port else ''}/"
    return base


@role_required(Role.ORGANISER, Role.DESK, Role.BRACKET)
def document_download(request: HttpRequest, tournament: Tournament, doc_slug: str
                      ) -> HttpResponse:
    """Render one document with the query's options and send it as a download."""
    try:
        doc = get_document(doc_slug)
    except KeyError:
        raise Http404 from None
    if not may_download(doc, request.roles):  # type: ignore[attr-defined]
        raise PermissionDenied
    options = {name: request.GET.get(name) for name in doc.options}
    if "base_url" in doc.options:
        options["base_url"] = _printed_base_url(request)
    try:
        filename, content_type, content = doc.render(tournament, **options)
    except DocumentError as exc:
        return render(request, "brackets/documents/error.html",
                      {"tournament": tournament, "doc": doc, "message": exc.message},
                      status=400)
    response = HttpResponse(content, content_type=content_type)
    disposition = "inline" if content_type == "application/pdf" else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


class TournamentFileForm(forms.Form):
    file = forms.FileField(label=_("大会ファイル（.json）"),
                           widget=forms.ClearableFileInput(attrs={"class": "form-control",
                                                                  "accept": ".json"}))
    slug = forms.SlugField(label=_("識別子（空欄ならファイルのまま）"), required=False,
                           widget=forms.TextInput(attrs={"class": "form-control"}))


@login_required
def tournament_import(request: HttpRequest) -> HttpResponse:
    """Create a tournament from a tournament file (site organiser only, like creating one).

    The file is checked completely before anything is written; a refusal is shown beside
    the file field and changes nothing.
    """
    if not request.user.is_superuser:
        raise PermissionDenied
    form = TournamentFileForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_TOURNAMENT_FILE:
            form.add_error("file", _("ファイルが大きすぎます（50MBまで）。"))
        else:
            try:
                tournament = tournament_file_import(data=upload.read(),
                                                    slug=form.cleaned_data["slug"] or None,
                                                    by=request.user)
            except TournamentFileError as exc:
                form.add_error("file", exc.message)
            else:
                messages.success(request, _("大会ファイルを読み込みました。"))
                pending = tournament.player_links.filter(match="uncertain").count()
                if pending:
                    # Uncertain matches are never linked silently: the organiser decides.
                    messages.warning(request, _(
                        "登録簿の選手と同一人物か確認が必要な参加者が%(n)d人います。"
                        "「選手の照合」で確認してください。") % {"n": pending})
                    return redirect("player_links_review", slug=tournament.slug)
                return redirect("tournament_dashboard", slug=tournament.slug)
    return render(request, "brackets/documents/import.html", {"form": form})
