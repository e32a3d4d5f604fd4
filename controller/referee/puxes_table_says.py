"""What the scripted PuXes table says happened between two still moments, in the players' words.

The demo prints these sentences before the referee's calls (:mod:`controller.referee.demo.table` fills
them in); they are PuXes' words, so they live in its catalogue like the calls themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.i18n import N_, message

#: Each sentence (an msgid marked with ``N_``), by what happened.
SAYS: Mapping[str, str] = {
    "built": N_("The temples are built."),
    "set": N_("{player} sets {oracle} in the public garden."),
    "throw": N_("{player} throws the heroes: {faces}."),
    "wake": N_("{player} wakes {oracle} and sets it in the public garden, showing {face}."),
    "put-back": N_("{player} puts {oracles} back in the public garden."),
    "put-back-as-they-lie": N_("{player} puts {oracles} back in the public garden where they lie."),
    "turn-up": N_("{player} turns up {face} on the oracle of {owner} that Immunité saved."),
    "carried": N_("{oracle} is carried across the table."),
    "flick": N_("{player} flicks {oracle}: {what}."),
    "rebuilt": N_("The temple is rebuilt and the dice put back."),
    "put-back-dice": N_("The dice are put back."),
    "set-aside": N_("{oracle} is asleep and set aside."),
    "moved-a-little": N_("it moved a little"),
    "slides": N_("it slides to {where} and shows {face}"),
    "slides-off": N_("it slides off the mat"),
    "hits-out": N_("it hits {oracle} and pushes it out of the area"),
    "hits": N_("it hits {oracle} and pushes it to {where}"),
    "drives-into-temple": N_("it drives {oracle} into {temple}, whose top die falls"),
    "knocks-over-temple": N_("it knocks over {temple}"),
    "push-touches": N_("the push touches {oracle}"),
    "pushed-back": N_("it is pushed back to {where}"),
    "push": N_("{player} pushes {oracle} out of the sacred garden: {what}."),
}


def says(key: str, /, **args: Any) -> Mapping[str, Any]:
    """The sentence ``SAYS[key]`` filled with ``args``, as a message."""
    return message(SAYS[key], **args)
