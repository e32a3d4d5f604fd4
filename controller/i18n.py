"""What players read, in their language: gettext catalogues for French and English.

Every sentence a player reads is an English msgid marked in the source, with ``_()`` where it is
said at once and ``N_()`` where it is stored to be said later (an event, a refusal, a table of
texts). Babel extracts them into one catalogue per domain — ``dashboard`` for the live session and
its pages, ``bitbox`` for the commands and everything else, and one per game named for its package
(``pixoid``, ``puxes``, ...) — kept in
``controller/locale/<lang>/LC_MESSAGES/<domain>.po`` and compiled to ``.mo`` beside it. Lookups go
through every domain, the game's own first.

A sentence kept for later is a *message*: ``{"msg": template, "args": {...}}``, JSON as it is, so
the public state carries it and every phone says it in its own language. An argument is a plain
value, another message (said in the same language), or ``{"list": [...]}`` (said as a natural list,
"Ada, Brice and Chloé" or "Ada, Brice et Chloé")::

    >>> said(listing(["Ada", "Brice", "Chloé"]), lang="fr")
    'Ada, Brice et Chloé'

The language of the process is chosen by ``--lang``, the config's ``lang``, ``BITBOX_LANG`` or the
system's ``LANG``, in that order; English when none of them names a language we have. Keep the
catalogues current with ``python -m controller.i18n`` (extract, update, compile; needs Babel, in the
``dev`` extra).
"""

from __future__ import annotations

import functools
import gettext as _gettext
import html
import os
import re
import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

#: Languages with a complete catalogue, the first one being the language of the msgids.
LANGUAGES: tuple[str, ...] = ("en", "fr")
#: Their names in their own words, for a language menu.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "fr": "Français"}
SOURCE_LANGUAGE = "en"

LOCALE_DIR = Path(__file__).parent / "locale"
PACKAGE_DIR = Path(__file__).parent
#: The domain of everything that is not one game's own.
SHARED_DOMAIN = "bitbox"

#: The process's language once chosen (one per process: the service's threads all speak it).
_language: str | None = None


class LanguageError(ValueError):
    """A language we have no catalogue for."""


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction and return it unchanged: it is translated when said."""
    return msgid


@functools.lru_cache(maxsize=64)
def check_language(lang: str) -> str:
    """``lang`` normalised (``"FR"``, ``"fr_FR.UTF-8"`` → ``"fr"``), or :class:`LanguageError` naming the choices."""
    code = str(lang).strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    if code not in LANGUAGES:
        raise LanguageError(f"no catalogue for the language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return code


def system_language() -> str:
    """The language ``BITBOX_LANG`` or the system's locale asks for, when we have it; else English."""
    for variable in ("BITBOX_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value and value not in ("C", "POSIX"):
            try:
                return check_language(value)
            except LanguageError:
                if variable == "BITBOX_LANG":
                    raise
    return SOURCE_LANGUAGE


def set_language(lang: str | None) -> str:
    """Make ``lang`` the process's language (``None``: the system's); returns the code chosen."""
    global _language
    code = system_language() if lang is None else check_language(lang)
    _language = code
    return code


def language() -> str:
    """The language sentences are said in when no other is asked for."""
    return _language if _language is not None else system_language()


def domains() -> tuple[str, ...]:
    """Every domain with a template, the shared one last."""
    found = sorted(path.stem for path in LOCALE_DIR.glob("*.pot") if path.stem != SHARED_DOMAIN)
    return (*found, SHARED_DOMAIN)


@functools.cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogues of ``lang``, every domain chained; the source language translates nothing."""
    code = check_language(lang)
    chain: _gettext.NullTranslations = _gettext.NullTranslations()
    if code == SOURCE_LANGUAGE:
        return chain
    first: _gettext.NullTranslations | None = None
    for domain in domains():
        path = LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.mo"
        if not path.is_file():
            continue
        with path.open("rb") as handle:
            catalogue = _gettext.GNUTranslations(handle)
        if first is None:
            first = catalogue
        else:
            first.add_fallback(catalogue)
    return first if first is not None else chain


def gettext(msgid: str, lang: str | None = None) -> str:
    """``msgid`` in ``lang`` (default: :func:`language`)."""
    code = lang or language()
    if code == SOURCE_LANGUAGE:
        return msgid  # the msgids are the English: nothing to look up (events are made in English often)
    return translation(code).gettext(msgid)


_ = gettext


def ngettext(singular: str, plural: str, n: int, lang: str | None = None) -> str:
    """The singular or plural form of a sentence for ``n``, in ``lang``."""
    return translation(lang or language()).ngettext(singular, plural, n)


def message(msgid: str, **args: Any) -> dict[str, Any]:
    """A sentence kept to be said later, in whatever language: ``{"msg": msgid, "args": args}``."""
    return {"msg": msgid, "args": args}


def seat(number: int) -> dict[str, int]:
    """A player named by seat (counted from 0), said as that player's name where names are known
    (the service, the dashboard) and as "player 1" where they are not (a bare engine)."""
    return {"seat": int(number)}


def listing(items: Iterable[Any]) -> dict[str, Any]:
    """A list argument, said as "A, B and C" in the reader's language."""
    return {"list": list(items)}


def natural_list(words: list[str], lang: str | None = None) -> str:
    """``["Ada", "Brice", "Chloé"]`` → ``"Ada, Brice and Chloé"`` (``"Ada, Brice et Chloé"`` in French)."""
    if not words:
        return gettext("nobody", lang)
    if len(words) == 1:
        return words[0]
    return gettext("{head} and {last}", lang).format(head=", ".join(words[:-1]), last=words[-1])


def said(value: Any, lang: str | None = None, names: Sequence[str] | None = None) -> str:
    """An argument in ``lang``: a message is said, a list listed, a seat named (by ``names`` when
    given), anything else is its text."""
    kind = type(value)
    if kind is str:
        return value
    if kind is int or kind is float:
        return str(value)
    if kind is dict or isinstance(value, Mapping):
        if "msg" in value:
            return say(value["msg"], lang, names=names, **dict(value.get("args") or {}))
        if "list" in value:
            return natural_list([said(item, lang, names) for item in value["list"]], lang)
        if "seat" in value and len(value) == 1:
            number = value["seat"]
            if names is not None and isinstance(number, int) and 0 <= number < len(names):
                return str(names[number])
            return gettext(N_("player {number}"), lang).format(number=int(number) + 1)
    if isinstance(value, bool):
        return gettext("yes", lang) if value else gettext("no", lang)
    return str(value)


def say(msgid: str, lang: str | None = None, names: Sequence[str] | None = None, **args: Any) -> str:
    """``msgid`` translated into ``lang`` and filled with ``args``, each said in the same language
    (seats named by ``names``)."""
    template = gettext(msgid, lang)
    values = {name: said(value, lang, names) for name, value in args.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return msgid.format(**values)


def render(text: Any, lang: str | None = None, names: Sequence[str] | None = None) -> str:
    """A message (or a plain string, said as it is) in ``lang``."""
    return said(text, lang, names)


def placeholders(template: str) -> set[str]:
    """The names a template fills: ``"{player} wins {n}"`` → ``{"player", "n"}``."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def browser_catalogue(lang: str) -> dict[str, str | list[str]]:
    """Every msgid → its translation in ``lang`` (a plural's singular → its forms), for a page to say
    messages itself."""
    code = check_language(lang)
    merged: dict[str, str | list[str]] = {}
    if code == SOURCE_LANGUAGE:
        return merged
    for domain in reversed(domains()):
        path = LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.mo"
        if not path.is_file():
            continue
        with path.open("rb") as handle:
            entries = _gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
        for key, value in sorted(entries.items(), key=lambda item: str(item[0])):
            if isinstance(key, str) and key and value:
                merged[key] = value
            elif isinstance(key, tuple) and value:
                forms = merged.setdefault(key[0], [])
                if isinstance(forms, list):
                    forms.append(value)
    return merged


# ---- keeping the catalogues current (Babel; ``python -m controller.i18n``) --------------------------------


def domain_sources() -> dict[str, list[Path]]:
    """Which source files feed which domain: a game's own folders feed its domain, the rest ``bitbox``."""
    games = sorted(path.name for path in (PACKAGE_DIR / "engines").iterdir()
                   if path.is_dir() and (path / "__init__.py").is_file())
    sources: dict[str, list[Path]] = {game: [] for game in games}
    sources[DASHBOARD_DOMAIN] = []
    sources[SHARED_DOMAIN] = []
    roots = [PACKAGE_DIR, PACKAGE_DIR.parent / "firmware", PACKAGE_DIR.parent / "calibration"]
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".py", ".js", ".html") or "node_modules" in path.parts or "__pycache__" in path.parts:
                continue
            sources[_domain_of(path, games)].append(path)
    return sources


#: What the dashboard, the seat pages and the live session say: one domain, apart from the commands'.
DASHBOARD_SOURCES: tuple[str, ...] = (
    "service/web/", "service/session.py", "service/loop.py", "service/table.py", "service/table_runner.py",
    "service/seats.py", "service/choices.py", "games/choices.py", "games/wheels.py", "games/table.py", "games/spec.py", "games/__init__.py",
    "engines/core.py", "dials/backend.py", "dials/keyboard.py", "dials/keyboard_backend.py", "dials/phone_backend.py", "dials/mixed.py",
    "voice/",
)
DASHBOARD_DOMAIN = "dashboard"


def _domain_of(path: Path, games: list[str]) -> str:
    try:
        parts = path.relative_to(PACKAGE_DIR).parts
    except ValueError:
        return SHARED_DOMAIN
    if any("/".join(parts).startswith(prefix) for prefix in DASHBOARD_SOURCES):
        return DASHBOARD_DOMAIN
    if len(parts) > 2 and parts[0] in ("engines", "games") and parts[1] in games:
        return parts[1]
    if parts[0] == "referee":
        for game in games:
            if parts[-1].startswith(game):
                return game
    return SHARED_DOMAIN


#: How a page marks its fixed words: ``<h2 data-i18n="Players">Players</h2>`` (and ``data-i18n-title``).
HTML_MARK = re.compile(r'data-i18n(?:-[a-z]+)?="([^"]+)"')

#: Babel's options: a page's template literals (`${_("...")}`) are read too.
EXTRACT_OPTIONS = {"parse_template_string": True}

#: The calls that mark a sentence. ``say`` is left out on purpose: it says a sentence already marked.
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "message": None}


def extract(domain: str) -> Iterator[tuple[str | tuple[str, str], str, int]]:
    """``(msgid, file, line)`` for every marked sentence of ``domain``; a plural is ``(singular, plural)``."""
    from babel.messages.extract import extract_javascript, extract_python

    root = PACKAGE_DIR.parent
    for path in domain_sources()[domain]:
        if path.suffix == ".html":
            text = path.read_text(encoding="utf-8")
            for match in HTML_MARK.finditer(text):
                yield html.unescape(match.group(1)), str(path.relative_to(root)), text.count("\n", 0, match.start()) + 1
            continue
        extractor = extract_javascript if path.suffix == ".js" else extract_python
        with path.open("rb") as handle:
            for lineno, _func, msg, _comments in extractor(handle, KEYWORDS, [], EXTRACT_OPTIONS):
                if isinstance(msg, tuple):
                    msg = tuple(part for part in msg if part)
                    msg = msg[0] if len(msg) == 1 else msg[:2]
                if msg:
                    yield msg, str(path.relative_to(root)), lineno


def template(domain: str):
    """The catalogue template (a Babel ``Catalog``) of ``domain``, straight from the sources."""
    from babel.messages.catalog import Catalog

    catalogue = Catalog(project="bitbox-controller", domain=domain, fuzzy=False)
    for msgid, filename, lineno in extract(domain):
        brace = any("{" in part for part in ((msgid,) if isinstance(msgid, str) else msgid))
        catalogue.add(msgid, locations=[(filename, lineno)], flags=("python-brace-format",) if brace else ())
    return catalogue


def update(only: Iterable[str] = ()) -> None:
    """Extract each domain's template (every domain, or those in ``only``), merge it into each
    language's ``.po`` and compile the ``.mo``; translations already written are kept."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po, write_po

    LOCALE_DIR.mkdir(exist_ok=True)
    wanted = set(only)
    for domain, files in domain_sources().items():
        if wanted and domain not in wanted:
            continue
        pot = template(domain)
        if not len(pot) and not files:
            continue
        with (LOCALE_DIR / f"{domain}.pot").open("wb") as handle:
            write_po(handle, pot, omit_header=True, sort_output=True, width=100, include_lineno=False)
        for lang in LANGUAGES[1:]:
            po_path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
            po_path.parent.mkdir(parents=True, exist_ok=True)
            if po_path.is_file():
                with po_path.open("rb") as handle:
                    catalogue = read_po(handle, locale=lang)
            else:
                catalogue = Catalog(locale=lang, domain=domain, project="bitbox-controller")
            catalogue.update(pot, no_fuzzy_matching=True)
            catalogue.obsolete.clear()
            with po_path.open("wb") as handle:
                write_po(handle, catalogue, omit_header=True, sort_output=True, width=100, ignore_obsolete=True,
                         include_lineno=False)
            with po_path.with_suffix(".mo").open("wb") as handle:
                write_mo(handle, catalogue)
    translation.cache_clear()


def main(argv: list[str]) -> int:
    """``python -m controller.i18n [DOMAIN ...]``: update the catalogues and say what is left to translate."""
    update(argv)
    from babel.messages.pofile import read_po

    missing = 0
    for domain in argv or domains():
        for lang in LANGUAGES[1:]:
            with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
                catalogue = read_po(handle, locale=lang)
            todo = [m for m in catalogue if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else (m.string,)))]
            missing += len(todo)
            print(f"{domain} [{lang}]: {len(catalogue)} sentences, {len(todo)} to translate")
    return 1 if missing else 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
