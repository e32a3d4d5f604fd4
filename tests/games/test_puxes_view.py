"""The PuXes table view says every word through the dashboard's gettext (``/static/i18n.js``): no
sentence is written into ``view.js`` outside a ``_()`` or ``ngettext()`` call, each one is in the
``puxes`` catalogue with its French, and players are named by name and colour."""

from __future__ import annotations

import re
from pathlib import Path

from controller import i18n

VIEW = Path(i18n.PACKAGE_DIR) / "games" / "puxes" / "view.js"
#: Text that reads as words (two words or more), not a CSS value, an attribute or an id.
SENTENCE = re.compile(r"[A-Za-z]{2,}[ ,:.'’]+[A-Za-z]{2,}")


def string_literals(source: str) -> list[tuple[int, str]]:
    """(offset, text) of every string literal of a JavaScript source, comments skipped; a template
    literal's text is its fixed parts."""
    found, i, n = [], 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif c in "\"'`":
            j, text = i + 1, []
            while source[j] != c:
                if source[j] == "\\":
                    text.append(source[j + 1])
                    j += 2
                    continue
                if c == "`" and source.startswith("${", j):
                    j = source.index("}", j) + 1
                    text.append(" ")
                    continue
                text.append(source[j])
                j += 1
            found.append((i, "".join(text)))
            i = j + 1
        else:
            i += 1
    return found


def _marked(source: str, offset: int) -> bool:
    """Whether the literal at ``offset`` is an argument of ``_()`` or ``ngettext()``."""
    before = source[:offset].rstrip()
    if re.search(r"\b(?:_|ngettext)\($", before):
        return True
    # ngettext's plural: the literal after its singular
    return bool(re.search(r"\bngettext\(\s*\"(?:[^\"\\]|\\.)*\"\s*,$", before))


def test_the_view_imports_the_dashboards_gettext() -> None:
    assert re.search(r'^import \{[^}]*\b_\b[^}]*\} from "/static/i18n\.js";', VIEW.read_text(encoding="utf-8"), re.M)


def test_no_sentence_of_the_view_is_left_out_of_gettext() -> None:
    source = VIEW.read_text(encoding="utf-8")
    literals = string_literals(source)
    assert len(literals) > 50
    left = [text for offset, text in literals if SENTENCE.search(text) and not _marked(source, offset)
            and not text.startswith("/static/")]
    assert left == [], f"words shown without _(): {left}"


def test_every_word_of_the_view_is_in_the_puxes_catalogue_in_french() -> None:
    marked = {msgid for msgid, filename, _line in i18n.extract("puxes") if filename.endswith("view.js")}
    assert len(marked) >= 20
    french = i18n.browser_catalogue("fr")
    for msgid in marked:
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        assert french.get(key), f"{key!r} has no French"
    assert {"{name} (red)", "{name} (blue)", "Red", "Players", "PuXes mat"} <= {
        m[0] if isinstance(m, tuple) else m for m in marked}
