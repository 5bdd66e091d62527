"""Fill the English catalogue from a JSON file of translations, without extra packages.

Why: makemessages keeps adding Japanese msgids while pages are written; translating them by
hand-editing the .po is error-prone (escaping, plural forms, stale ``#, fuzzy`` guesses from
msgmerge that gettext then silently ignores). This tool lists what still needs a translation
and writes translations back, clearing the fuzzy flag of every entry it fills.

Usage (from the repository root)::

    python3 locale/tools/po_fill.py missing [PO] > /tmp/missing.json
    python3 locale/tools/po_fill.py apply TRANSLATIONS.json [PO]

``missing`` prints ``{msgid: {"plural": msgid_plural|null, "refs": [...], "fuzzy": old}}``
for every entry whose msgstr is empty or fuzzy. ``apply`` reads ``{msgid: "text"}`` or, for
plural entries, ``{msgid: ["singular", "plural"]}``, and only touches entries that need it
unless ``--force`` is given.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_PO = Path(__file__).resolve().parent.parent / "en" / "LC_MESSAGES" / "django.po"

_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r"}


def unquote(token: str) -> str:
    """The text of one quoted .po string literal."""
    body = token.strip()
    assert body.startswith('"') and body.endswith('"'), token
    body = body[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def quote(text: str) -> str:
    """A .po string literal; long or multi-line texts are split like msgmerge does."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    parts = escaped.split("\n")
    pieces = [p + "\\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    if len(pieces) <= 1 and len(escaped) < 70:
        return f'"{escaped.replace(chr(10), chr(92) + "n")}"'
    return '""\n' + "\n".join(f'"{p}"' for p in pieces)


@dataclass
class Entry:
    """One catalogue entry; ``comments`` keeps every ``#`` line in order."""

    comments: list[str] = field(default_factory=list)
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)

    @property
    def fuzzy(self) -> bool:
        return any(c.startswith("#,") and "fuzzy" in c for c in self.comments)

    @property
    def refs(self) -> list[str]:
        return [r for c in self.comments if c.startswith("#:") for r in c[2:].split()]

    def needs_translation(self) -> bool:
        if self.msgid == "":
            return False
        return self.fuzzy or not self.msgstr or any(v == "" for v in self.msgstr.values())

    def clear_fuzzy(self) -> None:
        kept: list[str] = []
        for c in self.comments:
            if c.startswith("#|"):
                continue  # msgmerge's "previous msgid": meaningless once translated
            if c.startswith("#,"):
                flags = [f.strip() for f in c[2:].split(",") if f.strip() and f.strip() != "fuzzy"]
                if not flags:
                    continue
                c = "#, " + ", ".join(flags)
            kept.append(c)
        self.comments = kept

    def render(self) -> str:
        out = list(self.comments)
        if self.msgctxt is not None:
            out.append("msgctxt " + quote(self.msgctxt))
        out.append("msgid " + quote(self.msgid))
        if self.msgid_plural is not None:
            out.append("msgid_plural " + quote(self.msgid_plural))
            for n in sorted(self.msgstr):
                out.append(f"msgstr[{n}] " + quote(self.msgstr[n]))
        else:
            out.append("msgstr " + quote(self.msgstr.get(0, "")))
        return "\n".join(out)


def parse(text: str) -> list[Entry]:
    """Entries of a .po file in order (obsolete ``#~`` entries are kept as comments)."""
    entries: list[Entry] = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        entry = Entry()
        current: tuple[str, int] | None = None
        for line in block.splitlines():
            if line.startswith("#"):
                entry.comments.append(line)
                continue
            m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")\s*$', line)
            if m:
                key, idx, lit = m.group(1), int(m.group(2) or 0), unquote(m.group(3))
                current = (key, idx)
            elif line.strip().startswith('"') and current is not None:
                key, idx, lit = current[0], current[1], unquote(line)
            else:
                raise ValueError(f"cannot parse .po line: {line!r}")
            if key == "msgctxt":
                entry.msgctxt = (entry.msgctxt or "") + lit
            elif key == "msgid":
                entry.msgid += lit
            elif key == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + lit
            else:
                entry.msgstr[idx] = entry.msgstr.get(idx, "") + lit
        entries.append(entry)
    return entries


def placeholders(text: str) -> list[str]:
    """``%(name)s``-style and ``{name}`` placeholders, sorted, for comparing msgid/msgstr."""
    return sorted(re.findall(r"%\(\w+\)[sdfi]|\{\w*\}", text))


HEADER_FIELDS = {
    "Project-Id-Version": "kyushu",
    "Last-Translator": "kyushu maintainers",
    "Language-Team": "English",
    "Language": "en",
    "PO-Revision-Date": "2026-11-30 00:00+0000",
}


PLACEHOLDER_VALUES = {
    "",
    "PACKAGE VERSION",
    "FULL NAME <EMAIL@ADDRESS>",
    "LANGUAGE <LL@li.org>",
    "YEAR-MO-DA HO:MI+ZONE",
}


def fix_header(entries: list[Entry]) -> None:
    """Give the header real values so msgfmt stops warning and never treats it as fuzzy."""
    for e in entries:
        if e.msgid != "" or e.msgctxt is not None:
            continue
        lines = e.msgstr.get(0, "").split("\n")
        for i, line in enumerate(lines):
            key, _, value = line.partition(":")
            if key in HEADER_FIELDS and value.strip() in PLACEHOLDER_VALUES:
                lines[i] = f"{key}: {HEADER_FIELDS[key]}"
        e.msgstr[0] = "\n".join(lines)
        e.clear_fuzzy()
        return


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"missing", "apply"}:
        print(__doc__)
        return 2
    force = "--force" in argv
    args = [a for a in argv[1:] if a != "--force"]
    if argv[0] == "missing":
        po = Path(args[0]) if args else DEFAULT_PO
        todo = {
            e.msgid: {
                "plural": e.msgid_plural,
                "refs": e.refs,
                "fuzzy": dict(e.msgstr) if e.fuzzy else None,
            }
            for e in parse(po.read_text(encoding="utf-8"))
            if e.needs_translation()
        }
        json.dump(todo, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    translations: dict[str, str | list[str]] = json.loads(Path(args[0]).read_text("utf-8"))
    po = Path(args[1]) if len(args) > 1 else DEFAULT_PO
    entries = parse(po.read_text(encoding="utf-8"))
    filled = 0
    problems: list[str] = []
    for e in entries:
        if e.msgid not in translations or not (force or e.needs_translation()):
            continue
        value = translations[e.msgid]
        forms = [value] if isinstance(value, str) else list(value)
        if e.msgid_plural is None:
            forms = forms[:1]
            sources = [e.msgid]
        else:
            if len(forms) == 1:
                forms = forms * 2
            sources = [e.msgid, e.msgid_plural]
        for form, source in zip(forms, sources):
            if not form.strip():
                problems.append(f"empty translation for {e.msgid!r}")
            if e.msgid_plural is None and placeholders(form) != placeholders(source):
                problems.append(f"placeholders differ: {source!r} -> {form!r}")
            if e.msgid_plural is not None and not set(placeholders(form)) <= set(
                placeholders(source) + placeholders(e.msgid)
            ):
                problems.append(f"unknown placeholder: {source!r} -> {form!r}")
        if any("differ" in p or "unknown" in p or "empty" in p for p in problems):
            continue
        e.msgstr = dict(enumerate(forms))
        e.clear_fuzzy()
        filled += 1
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    fix_header(entries)
    po.write_text("\n\n".join(e.render() for e in entries) + "\n", encoding="utf-8")
    if shutil.which("msgcat"):
        # Re-wrap like makemessages/msgmerge do, so the next pass does not churn the diff.
        subprocess.run(["msgcat", "-o", str(po), str(po)], check=True)
    left = sum(1 for e in entries if e.needs_translation())
    print(f"filled {filled}, still untranslated {left}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
