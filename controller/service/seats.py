"""Which phone holds which seat's controller: join codes, device cookies and take-overs.

Each controller played on a phone has a join code (derived from the referee's token, so it stays the
same across restarts while the token does). The dashboard shows it as a QR code while the seat is
free; opening the join link binds that phone to the seat with a cookie of its own (HttpOnly,
SameSite=Strict), signed with the token, and the phone's page then reads and drives that seat only.

A second phone that opens the same join link takes the seat over only when the first has gone (its
page closed, asleep or off the network) or the referee frees the seat; the first phone's cookie
stops working then. A phone that took a seat over does not learn the wheel positions the previous
phone locked: they stay hidden until the reveal, like everyone else's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from controller.i18n import N_, SOURCE_LANGUAGE, listing, message, said

#: Seconds a seat's phone may be gone (a screen locking, the Wi-Fi dropping) before another phone
#: may take the seat over without the referee.
TAKE_OVER_AFTER = 20.0

#: A controller id a cookie can be named after.
_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class SeatError(Exception):
    """A seat request refused; ``status`` is the HTTP status that says why, ``words`` the reason as a
    message the phone says in its own language."""

    def __init__(self, status: int, msgid: str, **args: Any) -> None:
        self.words = message(msgid, **args)
        super().__init__(said(self.words, SOURCE_LANGUAGE))
        self.status = status


@dataclasses.dataclass
class Seat:
    """One controller's page: the phone holding it and its open connections."""

    controller_id: str
    holder: str | None = None
    streams: int = 0
    #: The phone whose wheel turns set the controller's current positions.
    author: str | None = None
    #: When the holder's last page closed (the clock's time).
    left_at: float = float("-inf")
    #: Played by a bot, which holds the controller itself: no phone may join it.
    bot: bool = False


def cookie_name(controller_id: str) -> str:
    """The cookie that binds a phone to ``controller_id``'s seat (one per seat, so a phone may hold two)."""
    return f"bitbox_seat_{controller_id}"


class SeatRegistry:
    """The seats of the controllers played on phones, bound by codes derived from ``token``."""

    def __init__(self, token: str, controllers: Sequence[str], clock: Callable[[], float] = time.monotonic) -> None:
        bad = [cid for cid in controllers if not _SAFE_ID.match(cid)]
        if bad:
            raise ValueError(f"controller id(s) {', '.join(map(repr, bad))} cannot be played on phones: "
                             "use letters, digits, '-' or '_' (up to 32)")
        self._key = hashlib.sha256(b"bitbox seats\0" + token.encode()).digest()
        self._seats = {cid: Seat(cid) for cid in controllers}
        self._lock = threading.Lock()
        self.clock = clock

    # ---- codes and cookies --------------------------------------------------------------------

    def _sign(self, text: str) -> str:
        return hmac.new(self._key, text.encode(), hashlib.sha256).hexdigest()[:32]

    def join_code(self, controller_id: str) -> str:
        """The code in the seat's join link (and QR code)."""
        self._seat(controller_id)
        return self._sign(f"join:{controller_id}")[:16]

    def join_path(self, controller_id: str) -> str:
        return f"/join/{controller_id}/{self.join_code(controller_id)}"

    def _cookie(self, controller_id: str, device: str) -> str:
        return f"{device}.{self._sign(f'device:{controller_id}:{device}')}"

    def _device_of(self, controller_id: str, cookie: str | None) -> str | None:
        """The device a cookie names, if the registry signed it for that seat."""
        if not cookie or "." not in cookie:
            return None
        device, _, signature = cookie.partition(".")
        expected = self._sign(f"device:{controller_id}:{device}")
        return device if hmac.compare_digest(signature.encode(), expected.encode()) else None

    def _seat(self, controller_id: str) -> Seat:
        try:
            return self._seats[controller_id]
        except KeyError:
            raise SeatError(404, N_("there is no seat {seat} played on a phone; seats: {seats}"),
                            seat=repr(controller_id), seats=listing(self._seats)) from None

    # ---- joining --------------------------------------------------------------------------------

    def join(self, controller_id: str, code: str, cookie: str | None = None) -> str:
        """Bind the phone opening the join link to the seat; the cookie value to give it.

        The phone already holding the seat keeps it (a reload); another phone takes it only when the
        holder has no page open."""
        seat = self._seat(controller_id)
        if not hmac.compare_digest(code.encode(), self.join_code(controller_id).encode()):
            raise SeatError(403, N_("this is not the join code of seat {seat}: scan the code the dashboard "
                                    "shows for it"), seat=message(controller_id))
        device = self._device_of(controller_id, cookie)
        with self._lock:
            if seat.bot:
                raise SeatError(409, N_("a bot plays seat {seat}; ask the referee for a seat of your own"),
                                seat=message(controller_id))
            if device is not None and device == seat.holder:
                return self._cookie(controller_id, device)
            if seat.holder is not None and not self._free(seat):
                raise SeatError(409, N_("another phone holds seat {seat}: it can be taken over {seconds} s after "
                                        "that phone has left, or when the referee frees the seat"),
                                seat=message(controller_id), seconds=f"{TAKE_OVER_AFTER:g}")
            device = secrets.token_hex(8)
            seat.holder, seat.streams = device, 0
            return self._cookie(controller_id, device)

    def device(self, controller_id: str, cookie: str | None) -> str:
        """The phone a request comes from, if it holds the seat; :class:`SeatError` otherwise."""
        seat = self._seat(controller_id)
        device = self._device_of(controller_id, cookie)
        if device is None:
            raise SeatError(401, N_("this page is not bound to seat {seat}: scan the seat's code on the "
                                    "dashboard"), seat=message(controller_id))
        with self._lock:
            if device != seat.holder:
                raise SeatError(403, N_("another phone has taken seat {seat} over; scan its code again once that "
                                        "phone has left, or ask the referee"), seat=message(controller_id))
        return device

    def free(self, controller_id: str) -> None:
        """The referee frees the seat: its phone's cookie stops working, the next join takes it."""
        seat = self._seat(controller_id)
        with self._lock:
            seat.holder, seat.streams, seat.left_at = None, 0, float("-inf")

    def set_bot(self, controller_id: str, bot: bool) -> None:
        """Whether a bot plays the seat (then no phone may join it, and its code is not shown)."""
        with self._lock:
            self._seat(controller_id).bot = bot

    def _free(self, seat: Seat) -> bool:
        """Whether a phone may join ``seat`` now: nobody holds it, or its phone has been gone a while."""
        if seat.bot:
            return False
        return seat.holder is None or (seat.streams == 0 and self.clock() - seat.left_at >= TAKE_OVER_AFTER)

    def joinable(self, controller_id: str) -> bool:
        """Whether the seat's code may be shown: a phone could join it now."""
        with self._lock:
            return self._free(self._seat(controller_id))

    def holds(self, controller_id: str, device: str) -> bool:
        """Whether ``device`` still holds the seat (the referee may have freed it since)."""
        with self._lock:
            return self._seat(controller_id).holder == device

    # ---- connections ------------------------------------------------------------------------------

    def opened(self, controller_id: str, device: str) -> bool:
        """A page of the holding phone opened its stream; whether the seat was unattended before."""
        seat = self._seat(controller_id)
        with self._lock:
            if device != seat.holder:
                raise SeatError(403, N_("another phone has taken seat {seat} over"), seat=message(controller_id))
            seat.streams += 1
            return seat.streams == 1

    def closed(self, controller_id: str, device: str) -> bool:
        """A page's stream closed; whether the seat is now unattended (its controller unplugged)."""
        seat = self._seat(controller_id)
        with self._lock:
            if device != seat.holder:
                return False
            seat.streams = max(0, seat.streams - 1)
            if seat.streams == 0:
                seat.left_at = self.clock()
            return seat.streams == 0 and not seat.bot

    def attended(self, controller_id: str) -> bool:
        with self._lock:
            return self._seat(controller_id).streams > 0

    def turned_by(self, controller_id: str, device: str) -> None:
        """``device`` set the controller's wheels: it may read their positions back."""
        with self._lock:
            self._seat(controller_id).author = device

    def may_read_wheels(self, controller_id: str, device: str) -> bool:
        """Whether ``device`` set the wheels it would read (a phone that took the seat over did not)."""
        with self._lock:
            return self._seat(controller_id).author == device

    def seats(self) -> list[str]:
        return list(self._seats)

    def set_seats(self, controllers: Sequence[str]) -> None:
        """The seats played now (a new game with another number of players): a seat kept keeps its
        phone, a new one waits for its phone, one no longer played can no longer be joined."""
        bad = [cid for cid in controllers if not _SAFE_ID.match(cid)]
        if bad:
            raise ValueError(f"controller id(s) {', '.join(map(repr, bad))} cannot be played on phones: "
                             "use letters, digits, '-' or '_' (up to 32)")
        with self._lock:
            self._seats = {cid: self._seats.get(cid) or Seat(cid) for cid in controllers}
