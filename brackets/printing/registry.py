"""One contract for every document and export (pretix ``BaseExporter``).

Every printable document and every download is a :class:`Document` registered under a stable
slug with the role it needs: ``render(tournament, **options) -> (filename, content_type,
bytes)``. One view (``brackets.views.documents``) serves them all, and the documents page
lists them, so a new document is one class in one module and needs no URL or view.

Options come from the download URL's query string (``?round=2``): a document declares them
in ``options`` (name → :class:`Option`) and :meth:`Document.clean_options` turns the strings
into values or raises :class:`DocumentError` with a message for staff.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from django.utils.translation import gettext, gettext_noop

from brackets.errors import DocumentError
from brackets.models import Role, Tournament

Rendered = tuple[str, str, bytes]


@dataclass(frozen=True)
class Option:
    """A query option of a document; ``kind`` is ``"int"`` or ``"str"``."""

    label: str
    kind: str = "int"
    required: bool = True
    #: Set by the download view, not chosen by staff (kept out of file names and links).
    hidden: bool = False


#: The server address the view passes so QR codes point at this venue's app.
BASE_URL_OPTION = Option(gettext_noop("アドレス"), kind="str", required=False, hidden=True)


@dataclass(frozen=True)
class Choice:
    """One line of the documents page: a label and the options the link carries."""

    label: str
    options: Mapping[str, Any]


class Document:
    """Base of everything the download view serves."""

    slug: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: The role that may download it (organiser has every role).
    role: ClassVar[str] = Role.ORGANISER
    #: Section of the documents page: "受付", "回戦", "大会".
    category: ClassVar[str] = gettext_noop("大会")
    content_type: ClassVar[str] = "application/octet-stream"
    extension: ClassVar[str] = "bin"
    options: ClassVar[Mapping[str, Option]] = {}
    description: ClassVar[str] = ""
    #: Position on the documents page within its category (the order of a day's work).
    order: ClassVar[int] = 100
    #: Left off the documents page while it has no link (an area the tournament does not
    #: use, e.g. buzzer rounds in a QMA tournament), instead of a row saying "not yet".
    hide_when_empty: ClassVar[bool] = False

    def render(self, tournament: Tournament, **options: Any) -> Rendered:
        raise NotImplementedError

    def option_names(self) -> set[str]:
        return set(self.options)

    def clean_options(self, tournament: Tournament, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Typed option values from query strings (or already-typed values)."""
        cleaned: dict[str, Any] = {}
        for name, option in self.options.items():
            value = raw.get(name)
            if value in (None, ""):
                if option.required:
                    raise DocumentError(gettext("{label}を指定してください。").format(
                        label=gettext(option.label)))
                continue
            if option.kind == "int":
                try:
                    cleaned[name] = int(value)
                except (TypeError, ValueError):
                    raise DocumentError(gettext("{label}は数字で指定してください。").format(
                        label=gettext(option.label))) from None
            else:
                cleaned[name] = str(value)
        return cleaned

    def choices(self, tournament: Tournament) -> list[Choice]:
        """The links the documents page shows: one without options by default."""
        return [Choice(gettext(self.title), {})]

    def label(self, tournament: Tournament, **options: Any) -> str:
        """A human title for these options (used in headers and file names), in the
        language of whoever prints: the title attribute stays the Japanese msgid."""
        return gettext(self.title)

    def filename(self, tournament: Tournament, **options: Any) -> str:
        """``<tournament slug>-<document slug>[-<option values>].<ext>``: ASCII, sortable."""
        shown = [name for name in sorted(options)
                 if options[name] is not None and not self.options.get(name, Option("")).hidden]
        parts = [tournament.slug, self.slug] + [f"{name}{options[name]}" for name in shown]
        return "-".join(parts) + "." + self.extension


_REGISTRY: dict[str, Document] = {}
D = TypeVar("D", bound=type[Document])
_discovered = False

#: Packages whose modules define documents; every module in them is imported once.
DOCUMENT_PACKAGES = ("brackets.printing", "brackets.exporters")


def register(cls: D) -> D:
    """Class decorator: register one instance of ``cls`` under its slug."""
    if not cls.slug:
        raise ValueError(f"{cls.__name__} has no slug")
    existing = _REGISTRY.get(cls.slug)
    if existing is not None and type(existing).__qualname__ != cls.__qualname__:
        raise ValueError(f"document slug {cls.slug!r} is registered twice")
    _REGISTRY[cls.slug] = cls()
    return cls


def autodiscover() -> None:
    """Import every module of the document packages so their ``@register`` runs."""
    global _discovered
    if _discovered:
        return
    for package_name in DOCUMENT_PACKAGES:
        try:
            package = importlib.import_module(package_name)
        except ImportError:
            continue
        for module in pkgutil.iter_modules(package.__path__):
            if module.name.startswith("_"):
                continue
            importlib.import_module(f"{package_name}.{module.name}")
    _discovered = True


def get_document(slug: str) -> Document:
    """The registered document ``slug``; KeyError when there is none."""
    autodiscover()
    return _REGISTRY[slug]


def all_documents() -> list[Document]:
    """Every registered document, in registration order."""
    autodiscover()
    return list(_REGISTRY.values())


def may_download(document: Document, roles: set[str]) -> bool:
    """Desk documents for desk, round documents for bracket staff, organiser everything."""
    return Role.ORGANISER in roles or document.role in roles


def documents_for(roles: set[str]) -> list[Document]:
    """The documents these roles may download, in page order."""
    docs = [doc for doc in all_documents() if may_download(doc, roles)]
    return sorted(docs, key=lambda doc: (doc.order, doc.title))


RenderFunc = Callable[..., Rendered]
