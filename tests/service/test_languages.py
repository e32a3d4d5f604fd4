"""Each phone reads the dashboard and its seat in its own language, chosen on the page.

The public state carries sentences as messages; the pages say them with the same gettext
catalogues as the service (``/api/i18n/LANG``), so two phones at one table may read French and
English at once, and the choice stays with the phone.
"""

from __future__ import annotations

import pytest

from controller import i18n

from .conftest import wait_for
from .test_phones import seats


def test_the_catalogue_a_page_reads_is_the_services_own(table_factory):
    table = table_factory(web=True)
    status, french = table.http("GET", "/api/i18n/fr")
    assert status == 200 and french["lang"] == "fr"
    assert french["catalogue"]["Controllers"] == i18n.gettext("Controllers", "fr") == "Manettes"
    assert french["languages"] == dict(i18n.LANGUAGE_NAMES)
    status, english = table.http("GET", "/api/i18n/en")
    assert status == 200 and english["catalogue"] == {}
    status, body = table.http("GET", "/api/i18n/de")
    assert status == 404 and "choose one of en, fr" in body["error"]


def test_the_log_carries_messages_said_alike_in_every_language(table_factory):
    table = table_factory()
    started = next(e for e in table.state["log"] if e["text"].startswith("game #"))
    assert i18n.said(started["message"], "en") == started["text"]
    assert i18n.said(started["message"], "fr").startswith("partie n° ")
    assert "P0, P1, P2 et P3" in i18n.said(started["message"], "fr")


@pytest.mark.browser
def test_a_french_phone_reads_french_and_an_english_one_english(table_factory, browser):
    table = table_factory(web=True, backend="phone")
    links = seats(table)
    french = browser.new_context(locale="fr-FR").new_page()
    english = browser.new_context(locale="en-GB").new_page()
    errors: list[str] = []
    for page in (french, english):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    french.goto(table.url + "/")
    english.goto(table.url + "/")
    french.wait_for_function("document.querySelector('#page-console h2').textContent === 'Manettes'", timeout=15000)
    english.wait_for_function("document.querySelector('#page-console h2').textContent === 'Controllers'", timeout=15000)
    french.wait_for_function("[...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith('partie n° '))",
                             timeout=15000)
    french.wait_for_function("document.getElementById('controllers').textContent.includes('débranchée')", timeout=15000)
    english.wait_for_function("document.getElementById('controllers').textContent.includes('unplugged')", timeout=15000)

    # The English reader switches to French on the page; the choice stays after a reload.
    english.select_option("#language", "fr")
    english.wait_for_function("document.querySelector('#page-console h2').textContent === 'Manettes'", timeout=15000)
    english.wait_for_function("[...document.querySelectorAll('#log li')].every(li => !li.textContent.startsWith('game #'))",
                              timeout=15000)
    english.reload()
    english.wait_for_function("document.documentElement.lang === 'fr'", timeout=15000)

    # A seat's page speaks its phone's language too.
    seat = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 844}).new_page()
    seat.on("pageerror", lambda exc: errors.append(str(exc)))
    seat.goto(table.url + links["red"])
    seat.wait_for_function("window.__bitbox.seat && window.__bitbox.seat.connected", timeout=15000)
    seat.wait_for_function("document.getElementById('ready').textContent === 'Prêt'", timeout=15000)
    assert seat.inner_text("#seat-name").startswith("rouge")
    wait_for(lambda: any(c["connected"] for c in table.state["controllers"]), what="red plugged in by its page")
    assert not errors, errors
