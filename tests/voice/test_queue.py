"""The order calls are spoken in: one at a time and in turn, the urgent first (cutting), the stale never.

The queue's clock is moved by hand, so each rule is checked without waiting."""

from __future__ import annotations

import threading

import pytest

from controller.games.spec import SpecError, VoiceCall
from controller.voice.queue import MAX_AGE, CallQueue, Utterance

CHATTER, CALL, IMPORTANT, URGENT = VoiceCall.CHATTER, VoiceCall.CALL, VoiceCall.IMPORTANT, VoiceCall.URGENT


def call(queue: CallQueue, text: str, priority: int = CALL, kind: str = "event", **kw) -> Utterance:
    return Utterance(text, "en", kind, priority, made=queue.clock(), **kw)


def drain(queue: CallQueue) -> list[str]:
    said = []
    while (next_call := queue.take(timeout=0)) is not None:
        said.append(next_call.text)
        queue.done(next_call, "spoken")
    return said


def test_calls_are_spoken_one_at_a_time_in_the_order_they_were_made(clock):
    queue = CallQueue(clock=clock)
    for text in ("one", "two", "three"):
        queue.put(call(queue, text))
    first = queue.take(timeout=0)
    assert first.text == "one" and queue.current is first
    queue.done(first, "spoken")
    assert drain(queue) == ["two", "three"]
    assert queue.tally.spoken == 3 and queue.idle()


def test_an_urgent_call_goes_first_and_cuts_the_call_being_spoken(clock):
    queue = CallQueue(clock=clock)
    queue.put(call(queue, "a long reveal"))
    long = queue.take(timeout=0)
    queue.put(call(queue, "the round is over", IMPORTANT))
    assert queue.put(call(queue, "time is up", URGENT)) is True
    assert long.cut
    queue.done(long, "cut")
    assert drain(queue) == ["time is up", "the round is over"]
    assert queue.tally.cut == 1 and queue.tally.spoken == 2


def test_an_urgent_call_makes_the_everyday_calls_waiting_stale(clock):
    queue = CallQueue(clock=clock)
    queue.put(call(queue, "someone flips", CHATTER))
    queue.put(call(queue, "an effect is drawn"))
    queue.put(call(queue, "the winner", IMPORTANT))
    queue.put(call(queue, "time is up", URGENT))
    assert drain(queue) == ["time is up", "the winner"]
    assert queue.tally.dropped == 2


def test_an_urgent_call_does_not_cut_another_urgent_one(clock):
    queue = CallQueue(clock=clock)
    queue.put(call(queue, "first alarm", URGENT))
    first = queue.take(timeout=0)
    assert queue.put(call(queue, "second alarm", URGENT)) is False
    assert not first.cut
    queue.done(first, "spoken")
    assert drain(queue) == ["second alarm"]


def test_urgent_calls_keep_their_own_order_before_the_others(clock):
    queue = CallQueue(clock=clock)
    queue.put(call(queue, "a", IMPORTANT))
    queue.put(call(queue, "alarm 1", URGENT))
    queue.put(call(queue, "b", IMPORTANT))
    queue.put(call(queue, "alarm 2", URGENT))
    assert drain(queue) == ["alarm 1", "alarm 2", "a", "b"]


def test_a_call_that_waited_too_long_is_dropped_rather_than_said_late(clock):
    queue = CallQueue(clock=clock)
    queue.put(call(queue, "stale chatter", CHATTER))
    queue.put(call(queue, "a result", IMPORTANT))
    clock.advance(MAX_AGE[CHATTER] + 0.5)
    assert drain(queue) == ["a result"]
    assert queue.tally.dropped == 1


def test_a_call_may_set_its_own_age_limit(clock):
    queue = CallQueue(clock=clock)
    queue.put(call(queue, "seven", IMPORTANT, max_age=1.0))
    clock.advance(0.9)
    queue.put(call(queue, "six", IMPORTANT, max_age=1.0))
    clock.advance(0.2)
    assert drain(queue) == ["six"]


def test_a_crowded_queue_drops_the_least_important_and_oldest_first(clock):
    queue = CallQueue(capacity=3, clock=clock)
    queue.put(call(queue, "old chatter", CHATTER))
    clock.advance(0.1)
    queue.put(call(queue, "new chatter", CHATTER))
    queue.put(call(queue, "a call"))
    queue.put(call(queue, "the winner", IMPORTANT))
    assert drain(queue) == ["new chatter", "a call", "the winner"]
    assert queue.tally.dropped == 1


def test_a_call_that_replaces_drops_the_waiting_one_of_its_kind(clock):
    queue = CallQueue(clock=clock)
    queue.put(call(queue, "7", IMPORTANT, kind="countdown", replaces=True))
    queue.put(call(queue, "someone flips", kind="flip"))
    queue.put(call(queue, "6", IMPORTANT, kind="countdown", replaces=True))
    assert drain(queue) == ["someone flips", "6"]
    assert queue.tally.dropped == 1


def test_clearing_drops_the_waiting_calls_and_cuts_the_current_one(clock):
    queue = CallQueue(clock=clock)
    queue.put(call(queue, "speaking"))
    current = queue.take(timeout=0)
    queue.put(call(queue, "waiting 1"))
    queue.put(call(queue, "waiting 2"))
    assert [c.text for c in queue.clear("muted")] == ["waiting 1", "waiting 2"]
    assert current.cut and queue.tally.muted == 2


def test_take_waits_for_a_call_and_close_releases_it(clock):
    queue = CallQueue(clock=clock)
    got: list[Utterance | None] = []
    taker = threading.Thread(target=lambda: got.append(queue.take()))
    taker.start()
    queue.put(call(queue, "hello"))
    taker.join(5)
    assert got and got[0] is not None and got[0].text == "hello"
    taker = threading.Thread(target=lambda: got.append(queue.take()))
    taker.start()
    queue.close()
    taker.join(5)
    assert not taker.is_alive() and got[-1] is None


@pytest.mark.parametrize("field, value", [("priority", 4), ("priority", -1), ("max_age", 0), ("max_age", -2.0)])
def test_a_voice_call_declared_out_of_range_is_refused_by_name(field, value):
    with pytest.raises(SpecError, match=field):
        VoiceCall(**{field: value})
