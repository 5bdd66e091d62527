"""The envelope of a tournament file, read before any record: JSON within the nesting
bound, the format, the version this app can read and the checksum. Each refusal says why
and what to do (:class:`TournamentFileError`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from brackets.engine import RuleRefusal, bounds
from brackets.exporters.tournament_file.layout import (
    FORMAT,
    VERSION,
    TournamentFileError,
    checksum,
)


def _too_deep() -> TournamentFileError:
    return TournamentFileError(gettext(
        "ファイルが壊れています（入れ子が{limit}段より深くなっています）。"
        "書き出し直したファイルを使ってください。").format(limit=bounds.JSON_DEPTH.high))


def load(data: bytes | str | Mapping[str, Any]) -> dict[str, Any]:
    """The file as a dict: from bytes or text (UTF-8, with or without BOM) or as given."""
    if isinstance(data, Mapping):
        try:
            bounds.json_depth(data)
        except RuleRefusal:
            raise _too_deep() from None
        return dict(data)
    try:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
        # Counted on the text first: Python's parser would run out of stack on a hostile
        # file nested 100,000 deep.
        bounds.text_depth(text)
        parsed = json.loads(text)
    except RuleRefusal:
        raise _too_deep() from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise TournamentFileError(gettext(
            "ファイルが壊れています（JSONとして読めません）。書き出し直したファイルを使ってください。"
        )) from None
    if not isinstance(parsed, dict):
        raise TournamentFileError(
            gettext("大会ファイルではありません（中身がJSONのオブジェクトではありません）。"))
    return parsed


def check_header(data: Mapping[str, Any]) -> int:
    """The file's version, after refusing other formats and newer versions."""
    if data.get("format") != FORMAT:
        raise TournamentFileError(
            gettext("大会ファイルではありません（format が {found} です。"
                    "{expected} のファイルを選んでください）。").format(
                found=repr(data.get("format")), expected=repr(FORMAT)))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise TournamentFileError(gettext("ファイルが壊れています（version が正しくありません）。"))
    if version > VERSION:
        raise TournamentFileError(
            gettext("このファイルは新しい版（version {version}）のアプリで書き出されています。"
                    "このアプリが読めるのは version {supported} までです。"
                    "アプリを更新してから読み込んでください。").format(
                version=version, supported=VERSION))
    if "checksum" in data and data["checksum"] != checksum(data):
        raise TournamentFileError(gettext(
            "ファイルが壊れています（チェックサムが一致しません。途中で切れたか、書き換えられています）。"))
    return version
