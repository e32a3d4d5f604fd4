"""The error Wuxing duel raises for a refused action: a :class:`~controller.engines.RuleError` (so a
``ValueError``) whose rule names the rule broken and whose reason is a message of words.py, said in
English in the error's text and in any language through ``error.words``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.engines.core import IllegalActionError
from controller.engines.wuxing.words import ERRORS, worded


class WuxingRuleError(IllegalActionError):
    """An action the rules refuse: ``rule`` names the rule, ``words`` the reason as a message,
    ``state`` the board it was tried on."""


def refused(rule: str, args: Mapping[str, Any], state: str = "") -> WuxingRuleError:
    """The error for ``rule`` (a key of :data:`~controller.engines.wuxing.words.ERRORS`) with ``args``."""
    error = WuxingRuleError.said(rule, ERRORS[rule], state, **worded(args))
    assert isinstance(error, WuxingRuleError)
    return error
