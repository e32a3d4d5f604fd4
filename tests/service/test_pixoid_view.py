"""Pixoid's dashboard view in the reader's language: a phone set to French reads the board's panels,
the status line, the log and the revealed programs in French, players named by name and colour; the
same page switched to English redraws them in English."""

from __future__ import annotations

import re

import pytest

from .conftest import CONTROLLERS

NUMBERED = re.compile(r"\b(seat|piece|player) \d", re.IGNORECASE)


def _text(page, selector: str) -> str:
    return page.locator(selector).inner_text()


@pytest.mark.browser
def test_a_french_reader_reads_the_pixoid_view_in_french_then_in_english(table_factory, browser):
    table = table_factory(web=True)
    page = browser.new_context(locale="fr-FR").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(table.url + "/")
    page.wait_for_function("document.querySelector('#game-panels h2') && "
                           "document.querySelector('#game-panels h2').textContent === 'Joueurs'", timeout=15000)
    page.wait_for_function("document.getElementById('status').textContent.includes('manche 1 sur 1, tour 1')",
                           timeout=15000)
    assert "mise en place des cubes" in _text(page, "#status")
    assert page.get_attribute("#board", "aria-label") == "Plateau de Pixoid"
    page.wait_for_function("document.getElementById('players').textContent.includes('P0 (rouge)')", timeout=15000)
    players = _text(page, "#players")
    assert "P1 (bleu)" in players and "P3 (jaune)" in players and "Pixoid" in players and "Bug" in players
    assert _text(page, "#reserve").startswith("Réserve : il en reste 12 sur 12 · cubes de Pixoid : 0 de la réserve")

    table.place_all()
    page.wait_for_function("document.querySelectorAll('#board g.piece').length === 4", timeout=15000)
    assert page.locator("#piece-1 title").text_content() == "le Bug bleu"
    page.wait_for_function(
        "[...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith('P0 (rouge) place Pixoid "
        "sur le Pix de départ '))", timeout=15000)

    programs = []
    for piece, cid in enumerate(CONTROLLERS):
        direction, distance = table.legal_program(piece)
        programs.append((direction, distance))
        table.set_wheels(cid, direction, distance)
        table.press(cid)
    page.wait_for_function("document.querySelector('#turn-result').dataset.turn === 'r1-t1'", timeout=15000)
    result = _text(page, "#turn-result")
    assert result.startswith("Tour 1 de la manche 1 :")
    french = {"up": "haut", "right": "droite", "down": "bas", "left": "gauche"}
    direction, distance = programs[0]
    assert f"Pixoid : {french[direction]} {distance}" in result
    page.wait_for_function(
        "[...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith('programmations révélées : '))",
        timeout=15000)
    log = _text(page, "#log")
    assert "P0 (rouge) déplace Pixoid de " in log
    for text in (log, players, result, _text(page, "#status")):
        assert not NUMBERED.search(text), text

    page.select_option("#language", "en")
    page.wait_for_function("document.querySelector('#turn-result').textContent.startsWith('Turn 1 of round 1:')",
                           timeout=15000)
    assert f"Pixoid: {direction} {distance}" in _text(page, "#turn-result")
    assert page.locator("#game-panels h2").text_content() == "Players" and "P0 (red)" in _text(page, "#players")
    page.wait_for_function(
        "[...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith('programs revealed: '))",
        timeout=15000)
    assert errors == []
