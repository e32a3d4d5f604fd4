"""Every sentence the game says is in words.py, as an id with parameters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.engines.wuxing import words
from controller.engines.wuxing.errors import WuxingRuleError
from controller.engines.wuxing.words import ENGLISH, parameters, say

SOURCES = sorted((Path(words.__file__).parent).glob("*.py")) + sorted(
    (Path(words.__file__).parents[2] / "games" / "wuxing").glob("*.py"))


def test_every_message_id_the_code_names_is_in_the_catalogue() -> None:
    named = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        named |= set(re.findall(r'"((?:event|error|refusal|wheel)\.[a-z-]+)"', text))
        named |= {f"error.{m}" for m in re.findall(r'return "([a-z-]+)", \{', text)}
        named |= {f"error.{m}" for m in re.findall(r'return \("([a-z-]+)" if', text)}
    missing = sorted(m for m in named if m not in ENGLISH)
    assert not missing, missing
    assert len(named) > 40


def test_say_turns_term_keys_into_words() -> None:
    assert say("event.moved", player="Ada", pawn="A", start="c3", end="d3", from_element="water",
               to_element="wood", relation="engenders", colour="red") == \
        "Ada moves pawn A from c3 (Water) to d3 (Wood): Water engenders Wood, a red token"
    assert parameters("event.token-taken") == {"player", "colour", "other"}


def test_a_refusal_carries_its_message_id_and_arguments() -> None:
    error = WuxingRuleError("no-token", {"player": "Ada", "colour": "red"}, "the board")
    assert error.msg == "error.no-token" and error.msg_args == {"player": "Ada", "colour": "red"}
    assert error.reason == "Ada has no red token to pay for staying"
    assert isinstance(error, ValueError) and "the board" in str(error)


@pytest.mark.parametrize("msg", sorted(k for k in ENGLISH if k.startswith("event.")))
def test_every_event_sentence_formats(msg: str) -> None:
    args = {name: "wood" for name in parameters(msg)}
    assert "{" not in say(msg, **args)
