"""The error Wuxing duel raises for a refused action: a :class:`~controller.engines.RuleError`
(so a ``ValueError``) whose rule is the message id's tail and whose text comes from words.py."""

from __future__ import annotations

from typing import Any

from controller.engines.core import IllegalActionError
from controller.engines.wuxing.words import say


class WuxingRuleError(IllegalActionError):
    """An action the rules refuse: ``rule`` names the rule, ``msg``/``msg_args`` the sentence's
    id and parameters (for another language), ``state`` the board it was tried on."""

    def __init__(self, rule: str, args: dict[str, Any], state: str = "", msg: str | None = None) -> None:
        self.msg = msg or f"error.{rule}"
        self.msg_args = dict(args)
        super().__init__(rule, say(self.msg, **args), state)
