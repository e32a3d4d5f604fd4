"""The catalogues are complete: every marked sentence is translated, with the same placeholders.

A sentence added to the code without a French translation, a translation that drops or renames a
``{placeholder}``, or a ``.mo`` left behind its ``.po`` fails here; ``python -m controller.i18n``
says what is left to do.
"""

from __future__ import annotations

import gettext
import io

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from controller import i18n

DOMAINS = i18n.domains()
TRANSLATED = i18n.LANGUAGES[1:]


def catalogue(domain: str, lang: str):
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def forms(value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_template_holds_every_sentence_the_code_marks(domain: str) -> None:
    in_code = {m.id for m in i18n.template(domain) if m.id}
    with (i18n.LOCALE_DIR / f"{domain}.pot").open("rb") as handle:
        in_template = {m.id for m in read_po(handle) if m.id}
    assert in_code == in_template, (
        f"{domain}.pot is out of date; run python -m controller.i18n {domain}: "
        f"new {sorted(map(str, in_code - in_template))[:5]}, gone {sorted(map(str, in_template - in_code))[:5]}"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_sentence_is_translated_with_the_same_placeholders(domain: str, lang: str) -> None:
    in_code = {m.id for m in i18n.template(domain) if m.id}
    translated = catalogue(domain, lang)
    problems = []
    for msgid in in_code:
        entry = translated.get(msgid)
        if entry is None or entry.fuzzy or not all(forms(entry.string)):
            problems.append(f"not translated: {msgid!r}")
            continue
        wanted = set().union(*(i18n.placeholders(part) for part in forms(msgid)))
        for text in forms(entry.string):
            if i18n.placeholders(text) != wanted:
                problems.append(f"placeholders differ: {msgid!r} -> {text!r}")
    assert not problems, f"{domain} [{lang}]:\n" + "\n".join(sorted(problems))


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_matches_its_source(domain: str, lang: str) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(domain, lang))
    buffer.seek(0)
    expected = {k: v for k, v in gettext.GNUTranslations(buffer)._catalog.items() if k != ""}
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as handle:
        compiled = {k: v for k, v in gettext.GNUTranslations(handle)._catalog.items() if k != ""}
    assert compiled == expected, f"{domain}.mo [{lang}] is stale; run python -m controller.i18n {domain}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_sentence_shared_by_two_domains_is_said_one_way(lang: str) -> None:
    seen: dict[str, tuple[str, str]] = {}
    clashes = []
    for domain in DOMAINS:
        for entry in catalogue(domain, lang):
            if not entry.id or isinstance(entry.id, tuple):
                continue
            if entry.id in seen and seen[entry.id][1] != entry.string:
                clashes.append(f"{entry.id!r}: {seen[entry.id][0]} says {seen[entry.id][1]!r}, {domain} {entry.string!r}")
            seen.setdefault(entry.id, (domain, entry.string))
    assert not clashes, "\n".join(clashes)


def test_lists_read_naturally_in_each_language() -> None:
    names = i18n.listing(["Ada", "Brice", "Chloé"])
    assert i18n.said(names, "en") == "Ada, Brice and Chloé"
    assert i18n.said(names, "fr") == "Ada, Brice et Chloé"
    assert i18n.said(i18n.listing(["Ada"]), "fr") == "Ada"
    assert i18n.said(i18n.listing([]), "fr") == "personne"


def test_a_message_is_said_in_the_language_asked_and_nested_ones_too() -> None:
    inner = i18n.message("yes")
    assert i18n.said(i18n.message("{head} and {last}", head="A", last=inner), "fr") == "A et oui"
    assert i18n.said(i18n.message("{head} and {last}", head="A", last=inner), "en") == "A and yes"


@pytest.mark.parametrize("given, code", [("fr", "fr"), ("FR", "fr"), ("fr_FR.UTF-8", "fr"), ("en-GB", "en")])
def test_a_language_is_named_loosely(given: str, code: str) -> None:
    assert i18n.check_language(given) == code


def test_an_unknown_language_says_which_there_are() -> None:
    with pytest.raises(i18n.LanguageError, match="choose one of en, fr"):
        i18n.check_language("de")


def test_the_system_locale_chooses_when_nothing_else_does(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("BITBOX_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.system_language() == "fr"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.system_language() == "en"
    monkeypatch.setenv("BITBOX_LANG", "fr")
    assert i18n.system_language() == "fr"
