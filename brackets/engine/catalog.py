"""What a QMA version offers on its selection screen, as plain data.

The restriction rules of every tournament speak about genres, sub-genres, formats, format
groups (the columns of the selection screen), difficulties and rank bands. Those differ by
game version and are edited by organisers in the admin, so the engine never hard-codes them:
it receives a :class:`Catalog`. Two builtin catalogs (:data:`CATALOG_2016`,
:data:`CATALOG_LATER`) exist so the engine and its tests can run without a database; the
Django layer builds the same object from its fixtures with :meth:`Catalog.from_dict`.

**How a set is written** (:class:`Selection`): ``Selection(genre, format, difficulty)``.

* An ordinary set: ``Selection("芸能", "四択", "HARD")``.
* ランダム: ``Selection("社会", "ランダム", "EASY")`` — ``ランダム`` is a format of its own in
  the one-member group ``ランダム``.
* A sub-genre set is written with its *parent genre* as ``genre`` and the *sub-genre name* in
  the ``format`` slot: ``Selection("スポーツ", "野球", "NORMAL")``. This is how the rule pages
  write it (K9: "(スポーツ, 野球)+(スポーツ, 線結び)"), it makes "a sub-genre consumes its
  genre" automatic, and the sub-genre's group is the サブジャンル group. Sub-genre names and
  format names therefore share one namespace and must not collide. :meth:`Catalog.selection`
  also accepts the other spelling (sub-genre name as genre, サブジャンル as format) and
  returns the canonical form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, TypeVar, cast

from brackets.engine.errors import EngineBug, RuleRefusal

T = TypeVar("T")
GroupKind = Literal["formats", "subgenre", "random"]
GROUP_KINDS: tuple[GroupKind, ...] = ("formats", "subgenre", "random")


@dataclass(frozen=True)
class Genre:
    """A genre column. ``nongenre`` marks ノンジャンル: no lots, the genre fallback (H6)."""

    name: str
    nongenre: bool = False


@dataclass(frozen=True)
class SubGenre:
    """A sub-genre set; choosing it consumes ``genre`` (domain A)."""

    name: str
    genre: str


@dataclass(frozen=True)
class FormatGroup:
    """A column of the selection screen (形式群).

    ``kind`` says what the column holds: ordinary ``formats``, the ``subgenre`` sets, or the
    single ``random`` format that serves as the format fallback (H6, K7).
    """

    name: str
    kind: GroupKind = "formats"


@dataclass(frozen=True)
class Format:
    """A question format (出題形式) and the group it belongs to."""

    name: str
    group: str


@dataclass(frozen=True)
class RankBand:
    """Display name for a range of Q levels (inclusive; ``max_q`` None = no upper bound)."""

    name: str
    min_q: int
    max_q: int | None = None


@dataclass(frozen=True)
class Selection:
    """One set chosen by one seat: genre × format × difficulty (see module docstring)."""

    genre: str
    format: str
    difficulty: str


@dataclass(frozen=True)
class Catalog:
    """One QMA version's selection screen. Immutable; lookups are precomputed dicts."""

    version: str
    genres: tuple[Genre, ...]
    subgenres: tuple[SubGenre, ...]
    groups: tuple[FormatGroup, ...]
    formats: tuple[Format, ...]
    difficulties: tuple[str, ...] = ("EASY", "NORMAL", "HARD")
    rank_bands: tuple[RankBand, ...] = ()
    _group_of: dict[str, str] = field(init=False, repr=False, compare=False)
    _parent_of: dict[str, str] = field(init=False, repr=False, compare=False)
    _genre_names: frozenset[str] = field(init=False, repr=False, compare=False)
    _group_kinds: dict[str, GroupKind] = field(init=False, repr=False, compare=False)
    _memo: dict[Any, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "genres", tuple(self.genres))
        object.__setattr__(self, "subgenres", tuple(self.subgenres))
        object.__setattr__(self, "groups", tuple(self.groups))
        object.__setattr__(self, "formats", tuple(self.formats))
        object.__setattr__(self, "difficulties", tuple(self.difficulties))
        object.__setattr__(self, "rank_bands", tuple(self.rank_bands))
        self._validate_and_index()

    def _validate_and_index(self) -> None:
        def dupes(names: Iterable[str]) -> list[str]:
            return sorted(n for n, c in Counter(names).items() if c > 1)

        genre_names = [g.name for g in self.genres]
        if d := dupes(genre_names):
            raise EngineBug("catalog_duplicate", "duplicate genre names", names=d)
        nongenres = [g.name for g in self.genres if g.nongenre]
        if len(nongenres) != 1:
            raise EngineBug("catalog_nongenre", "exactly one genre must be ノンジャンル",
                              names=nongenres)
        kinds: dict[str, GroupKind] = {}
        for grp in self.groups:
            if grp.name in kinds:
                raise EngineBug("catalog_duplicate", "duplicate group", names=[grp.name])
            if grp.kind not in GROUP_KINDS:
                raise EngineBug("catalog_group_kind", "unknown group kind", group=grp.name,
                                  kind=grp.kind)
            kinds[grp.name] = grp.kind
        for kind in ("subgenre", "random"):
            if sum(1 for k in kinds.values() if k == kind) != 1:
                raise EngineBug("catalog_group_kind", f"exactly one {kind} group needed",
                                  kind=kind)
        group_of: dict[str, str] = {}
        for fmt in self.formats:
            if fmt.group not in kinds:
                raise RuleRefusal("unknown_group", "format in unknown group", format=fmt.name,
                                  group=fmt.group)
            if kinds[fmt.group] == "subgenre":
                raise EngineBug("catalog_group_kind", "sub-genre group holds no formats",
                                  format=fmt.name)
            if fmt.name in group_of:
                raise EngineBug("catalog_duplicate", "duplicate format", names=[fmt.name])
            group_of[fmt.name] = fmt.group
        random_formats = [f.name for f in self.formats if kinds[f.group] == "random"]
        if len(random_formats) != 1:
            raise EngineBug("catalog_random", "the random group needs exactly one format",
                              names=random_formats)
        sub_group = next(n for n, k in kinds.items() if k == "subgenre")
        parent_of: dict[str, str] = {}
        for sub in self.subgenres:
            if sub.genre not in genre_names or sub.genre in nongenres:
                raise RuleRefusal("unknown_genre", "sub-genre of unknown genre",
                                  subgenre=sub.name, genre=sub.genre)
            if sub.name in group_of or sub.name in parent_of:
                raise EngineBug("catalog_duplicate", "sub-genre name collides",
                                  names=[sub.name])
            parent_of[sub.name] = sub.genre
            group_of[sub.name] = sub_group
        if d := dupes(self.difficulties):
            raise EngineBug("catalog_duplicate", "duplicate difficulties", names=d)
        object.__setattr__(self, "_group_of", group_of)
        object.__setattr__(self, "_parent_of", parent_of)
        object.__setattr__(self, "_genre_names", frozenset(genre_names))
        object.__setattr__(self, "_group_kinds", kinds)
        object.__setattr__(self, "_memo", {})

    def memo(self, key: Any, factory: Callable[[], T]) -> T:
        """Derived data cached on this immutable catalog (rule modules use it for speed)."""
        try:
            return cast(T, self._memo[key])
        except KeyError:
            value = self._memo[key] = factory()
            return value

    # -- construction from plain data -------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Catalog:
        """Build from plain lists (fixtures / DB rows).

        ``{"version": str, "genres": [{"name", "nongenre"?}], "subgenres": [{"name",
        "genre"}], "groups": [{"name", "kind"?}], "formats": [{"name", "group"}],
        "difficulties": [str]?, "rank_bands": [{"name", "min_q", "max_q"?}]?}``. List order
        is display order.
        """
        try:
            return cls(
                version=str(data["version"]),
                genres=tuple(Genre(str(g["name"]), bool(g.get("nongenre", False)))
                             for g in data["genres"]),
                subgenres=tuple(SubGenre(str(s["name"]), str(s["genre"]))
                                for s in data["subgenres"]),
                groups=tuple(FormatGroup(str(g["name"]), g.get("kind", "formats"))
                             for g in data["groups"]),
                formats=tuple(Format(str(f["name"]), str(f["group"])) for f in data["formats"]),
                difficulties=tuple(str(d) for d in
                                   data.get("difficulties", ("EASY", "NORMAL", "HARD"))),
                rank_bands=tuple(
                    RankBand(str(r["name"]), int(r["min_q"]),
                             None if r.get("max_q") is None else int(r["max_q"]))
                    for r in data.get("rank_bands", ())),
            )
        except KeyError as exc:
            raise EngineBug("catalog_field_missing", f"catalog data lacks {exc}",
                              field=str(exc)) from exc

    @classmethod
    def from_fixture(cls, data: Mapping[str, Any]) -> Catalog:
        """Build from a ``fixtures/catalog/*.json`` document (format ``kyushu-catalog/1``).

        Genres nest their sub-genres and groups nest their formats there. A group's kind is
        its ``kind`` key when present, else: no formats and named サブジャンル → ``subgenre``;
        exactly the one format ランダム → ``random``; anything else → ``formats``.
        """
        if data.get("format") != "kyushu-catalog/1":
            raise EngineBug("catalog_format", "unknown catalog document format",
                              format=data.get("format"))
        groups: list[dict[str, Any]] = []
        formats: list[dict[str, str]] = []
        for grp in data["format_groups"]:
            members = [str(f) for f in grp.get("formats", ())]
            kind = grp.get("kind")
            if kind is None:
                if not members and grp["name"] == "サブジャンル":
                    kind = "subgenre"
                elif members == ["ランダム"]:
                    kind = "random"
                else:
                    kind = "formats"
            groups.append({"name": grp["name"], "kind": kind})
            formats.extend({"name": f, "group": grp["name"]} for f in members)
        return cls.from_dict({
            "version": data["slug"],
            "genres": [{"name": g["name"], "nongenre": g.get("non_genre", False)}
                       for g in data["genres"]],
            "subgenres": [{"name": s, "genre": g["name"]}
                          for g in data["genres"] for s in g.get("subgenres", ())],
            "groups": groups,
            "formats": formats,
            "difficulties": data.get("difficulties", ("EASY", "NORMAL", "HARD")),
            "rank_bands": [{"name": r["name"], "min_q": r["q_min"], "max_q": r.get("q_max")}
                           for r in data.get("ranks", ())],
        })

    def to_dict(self) -> dict[str, Any]:
        """The inverse of :meth:`from_dict` (for fixtures and exports)."""
        return {
            "version": self.version,
            "genres": [{"name": g.name, "nongenre": g.nongenre} for g in self.genres],
            "subgenres": [{"name": s.name, "genre": s.genre} for s in self.subgenres],
            "groups": [{"name": g.name, "kind": g.kind} for g in self.groups],
            "formats": [{"name": f.name, "group": f.group} for f in self.formats],
            "difficulties": list(self.difficulties),
            "rank_bands": [{"name": r.name, "min_q": r.min_q, "max_q": r.max_q}
                           for r in self.rank_bands],
        }

    # -- lookups ----------------------------------------------------------------------

    @cached_property
    def nongenre(self) -> str:
        """The name of ノンジャンル in this catalog."""
        return next(g.name for g in self.genres if g.nongenre)

    @cached_property
    def genre_names(self) -> tuple[str, ...]:
        """All genres in display order, ノンジャンル included."""
        return tuple(g.name for g in self.genres)

    @cached_property
    def lot_genres(self) -> tuple[str, ...]:
        """Genres that 修羅 genre lots are drawn from (all but ノンジャンル; domain A)."""
        return tuple(g.name for g in self.genres if not g.nongenre)

    @cached_property
    def random_format(self) -> str:
        """The ランダム format, the format fallback."""
        return next(f.name for f in self.formats if self._group_kinds[f.group] == "random")

    @cached_property
    def random_group(self) -> str:
        """The group holding ランダム."""
        return self._group_of[self.random_format]

    @cached_property
    def subgenre_group(self) -> str:
        """The group that all sub-genre sets belong to."""
        return next(n for n, k in self._group_kinds.items() if k == "subgenre")

    @cached_property
    def group_names(self) -> tuple[str, ...]:
        """All format groups in display order."""
        return tuple(g.name for g in self.groups)

    @cached_property
    def format_names(self) -> tuple[str, ...]:
        """All formats (ランダム included, sub-genres excluded) in display order."""
        return tuple(f.name for f in self.formats)

    def is_genre(self, name: str) -> bool:
        """Whether ``name`` is a genre of this catalog."""
        return name in self._genre_names

    def is_subgenre(self, name: str) -> bool:
        """Whether ``name`` is a sub-genre set (usable in a selection's format slot)."""
        return name in self._parent_of

    def group_kind(self, group: str) -> GroupKind:
        """The kind of a group; unknown names raise."""
        try:
            return self._group_kinds[group]
        except KeyError:
            raise RuleRefusal("unknown_group", f"unknown format group {group!r}",
                              group=group) from None

    def group_of(self, fmt: str) -> str:
        """Group of a format or sub-genre set; unknown names raise."""
        try:
            return self._group_of[fmt]
        except KeyError:
            raise RuleRefusal("unknown_format", f"unknown format {fmt!r}", format=fmt) from None

    def parent_of(self, subgenre: str) -> str:
        """Parent genre of a sub-genre set."""
        try:
            return self._parent_of[subgenre]
        except KeyError:
            raise RuleRefusal("unknown_subgenre", f"unknown sub-genre {subgenre!r}",
                              subgenre=subgenre) from None

    def formats_in(self, group: str) -> tuple[str, ...]:
        """Members of a group: formats, or the sub-genre sets for the sub-genre group."""
        kind = self.group_kind(group)
        if kind == "subgenre":
            return tuple(s.name for s in self.subgenres)
        return tuple(f.name for f in self.formats if f.group == group)

    def options_for(self, genre: str) -> tuple[str, ...]:
        """Everything that may go in the format slot with ``genre`` (display order)."""
        self.require_genre(genre)
        result = [f.name for f in self.formats]
        result.extend(s.name for s in self.subgenres if s.genre == genre)
        return tuple(result)

    def require_genre(self, genre: str) -> None:
        """Raise if ``genre`` is not a genre of this catalog."""
        if genre not in self._genre_names:
            raise RuleRefusal("unknown_genre", f"unknown genre {genre!r}", genre=genre)

    def validate(self, selection: Selection) -> None:
        """Raise :class:`RuleRefusal` unless ``selection`` names a real set of this version."""
        self.require_genre(selection.genre)
        self.group_of(selection.format)
        parent = self._parent_of.get(selection.format)
        if parent is not None and parent != selection.genre:
            raise RuleRefusal("subgenre_genre_mismatch",
                              f"{selection.format} belongs to {parent}, not {selection.genre}",
                              subgenre=selection.format, genre=selection.genre, parent=parent)
        if selection.difficulty not in self.difficulties:
            raise RuleRefusal("unknown_difficulty", f"unknown difficulty "
                              f"{selection.difficulty!r}", difficulty=selection.difficulty)

    def selection(self, genre: str, fmt: str, difficulty: str) -> Selection:
        """The canonical, validated :class:`Selection` from what a form or sheet says.

        Also accepts a sub-genre set written the other way round — the sub-genre name as
        ``genre`` with the sub-genre group (or nothing, or the same name) as ``fmt`` — and
        turns it into (parent genre, sub-genre). Anything else unknown raises.
        """
        if genre in self._parent_of and fmt in ("", self.subgenre_group, genre):
            result = Selection(self._parent_of[genre], genre, difficulty)
        else:
            if fmt == self.subgenre_group:
                raise RuleRefusal("subgenre_missing", "name the sub-genre of the set",
                                  genre=genre, format=fmt)
            result = Selection(genre, fmt, difficulty)
        self.validate(result)
        return result

    def rank_name(self, q_level: int) -> str:
        """Display rank for a Q level ('' when the catalog has no band for it)."""
        for band in self.rank_bands:
            if q_level >= band.min_q and (band.max_q is None or q_level <= band.max_q):
                return band.name
        return ""


# -- builtin data ----------------------------------------------------------------------

_GENRES: tuple[tuple[str, tuple[str, str, str]], ...] = (
    ("アニメ&ゲーム", ("アニメ・特撮", "漫画・ノベル", "ゲーム・おもちゃ")),
    ("スポーツ", ("野球", "サッカー", "スポーツその他")),
    ("芸能", ("テレビ・映画", "音楽", "芸能その他")),
    ("ライフスタイル", ("グルメ・生活", "ホビー", "ライフスタイルその他")),
    ("社会", ("地理", "政治・経済", "社会その他")),
    ("文系学問", ("歴史", "美術・文学", "文系学問その他")),
    ("理系学問", ("物理・化学", "生物", "理系学問その他")),
)

#: Rank names per Q level, as in ``fixtures/catalog/*.json``. Display data only: the rules
#: key on Q level (≤34 / 35–49 / 50–79 / ≥80).
_RANK_BANDS: tuple[RankBand, ...] = (
    RankBand("魔術士", 0, 34),
    RankBand("魔導士", 35, 49),
    RankBand("賢者", 50, 59),
    RankBand("大賢者", 60, 69),
    RankBand("白銀大賢者", 70, 79),
    RankBand("黄金賢者", 80, 89),
    RankBand("金剛賢者", 90, 999),
)

_FORMATS_2016: tuple[tuple[str, str], ...] = (
    ("○×", "セレクト"), ("四択", "セレクト"), ("連想", "セレクト"),
    ("並べ替え", "パネル"), ("文字パネル", "パネル"), ("スロット", "パネル"),
    ("タイピング", "キーボード"), ("エフェクト", "キーボード"), ("キューブ", "キーボード"),
    ("線結び", "マルチセレクト"), ("一問多答", "マルチセレクト"), ("順番当て", "マルチセレクト"),
    ("グループ分け", "マルチセレクト"),
)

#: Later versions. 画像タッチ is in セレクト per domain A (G1 is confirmed). 一方通行 (パネル) and
#: 早い者勝ち (マルチセレクト) are **inference** with no published source: kept identical to
#: ``fixtures/catalog/qma-later.json`` so the engine's builtin and the database agree
#: (早い者勝ち picks several answers from one list, like 一問多答; 一方通行 is placed with the
#: input-building formats). Organisers can move either in the admin.
_FORMATS_LATER: tuple[tuple[str, str], ...] = (
    ("○×", "セレクト"), ("四択", "セレクト"), ("連想", "セレクト"), ("画像タッチ", "セレクト"),
    ("並べ替え", "パネル"), ("文字パネル", "パネル"), ("スロット", "パネル"), ("一方通行", "パネル"),
    ("タイピング", "キーボード"), ("エフェクト", "キーボード"), ("キューブ", "キーボード"),
    ("線結び", "マルチセレクト"), ("一問多答", "マルチセレクト"), ("順番当て", "マルチセレクト"),
    ("グループ分け", "マルチセレクト"), ("早い者勝ち", "マルチセレクト"),
)

_GROUPS: tuple[FormatGroup, ...] = (
    FormatGroup("セレクト"), FormatGroup("パネル"), FormatGroup("キーボード"),
    FormatGroup("マルチセレクト"), FormatGroup("サブジャンル", "subgenre"),
    FormatGroup("ランダム", "random"),
)


def _builtin(version: str, formats: Sequence[tuple[str, str]]) -> Catalog:
    return Catalog(
        version=version,
        genres=(Genre("ノンジャンル", nongenre=True),) + tuple(Genre(g) for g, _ in _GENRES),
        subgenres=tuple(SubGenre(s, g) for g, subs in _GENRES for s in subs),
        groups=_GROUPS,
        formats=tuple(Format(n, g) for n, g in formats) + (Format("ランダム", "ランダム"),),
        rank_bands=_RANK_BANDS,
    )


#: 2016-era versions (13 formats), as used by 九州杯IX and 堅田大会.
CATALOG_2016: Catalog = _builtin("qma-2016", _FORMATS_2016)
#: Later versions adding 画像タッチ, 一方通行, 早い者勝ち (group placement: see above).
CATALOG_LATER: Catalog = _builtin("qma-later", _FORMATS_LATER)

BUILTIN_CATALOGS: dict[str, Catalog] = {c.version: c for c in (CATALOG_2016, CATALOG_LATER)}
