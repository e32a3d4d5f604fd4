"""Speech from text with espeak-ng, streamed: the first samples come while the rest is synthesized.

``espeak-ng --stdout`` writes a WAV stream (a header whose length is left open, then 16-bit PCM) as
it speaks; :meth:`Espeak.start` runs it for one utterance and :class:`Synthesis` hands the samples
over in chunks, so the output can start playing after a few milliseconds. espeak-ng is a Debian and
Raspberry Pi OS package (``sudo apt install espeak-ng``); where it is missing, :meth:`Espeak.problem`
says so in the players' words, with the command that installs it.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from collections.abc import Iterator
from typing import IO, Any

from controller.i18n import N_, message

#: The espeak-ng voice of each language the table speaks.
VOICES = {"en": "en-gb", "fr": "fr-fr"}
#: The package that brings the program, as the install hint names it.
PACKAGE = "espeak-ng"
#: How many bytes of samples a chunk holds at most (about 90 ms at espeak-ng's 22050 Hz).
CHUNK = 4096

Message = dict[str, Any]


class SynthesisError(RuntimeError):
    """espeak-ng could not speak; ``words`` says why in the players' words."""

    def __init__(self, words: Message) -> None:
        from controller import i18n

        self.words = words
        super().__init__(i18n.said(words, i18n.SOURCE_LANGUAGE))


class Espeak:
    """Runs espeak-ng, ``program`` being its name on the ``PATH`` or a path to it."""

    def __init__(self, program: str = "espeak-ng", speed: int = 160) -> None:
        self.program = program
        self.speed = speed

    def path(self) -> str | None:
        """Where the program is, or ``None`` when it is not installed."""
        found = shutil.which(self.program)
        return found if found and os.access(found, os.X_OK) else None

    def problem(self) -> Message | None:
        """Why nothing can be spoken (the program is missing), with what to do; ``None`` when it can."""
        if self.path() is None:
            return message(N_("espeak-ng is not installed ({program} was not found), so the table's calls are "
                              "shown but not spoken; install it with `sudo apt install {package}`, then restart"),
                           program=self.program, package=PACKAGE)
        return None

    def command(self, text: str, lang: str) -> list[str]:
        """The command line that speaks ``text`` in ``lang`` to standard output, as a WAV stream."""
        return [self.path() or self.program, "--stdout", "-v", VOICES.get(lang, lang), "-s", str(self.speed),
                "-b", "1", "--", text]

    def start(self, text: str, lang: str) -> Synthesis:
        """Begin speaking ``text`` in ``lang``; the samples are read from the returned synthesis."""
        try:
            process = subprocess.Popen(self.command(text, lang), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, bufsize=0)
        except OSError as exc:
            raise SynthesisError(message(N_("espeak-ng could not be started ({reason}); install it with `sudo apt "
                                            "install {package}`"), reason=exc.strerror or str(exc),
                                         package=PACKAGE)) from None
        return Synthesis(process)


class Synthesis:
    """One utterance being synthesized: its sample format, then its samples in chunks."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        assert process.stdout is not None
        self._out: IO[bytes] = process.stdout
        self.rate, self.channels, self.width = self._header()

    def _read(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            part = self._out.read(count - len(data))
            if not part:
                break
            data += part
        return data

    def _failed(self) -> SynthesisError:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        stderr = self.process.stderr.read().decode("utf-8", "replace").strip() if self.process.stderr else ""
        self.stop()
        return SynthesisError(message(N_("espeak-ng gave no speech: {reason}"),
                                      reason=stderr.splitlines()[-1] if stderr else "no output"))

    def _header(self) -> tuple[int, int, int]:
        """Read the WAV header up to the samples: (rate, channels, bytes per sample)."""
        head = self._read(12)
        if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
            raise self._failed()
        fmt: tuple[int, int, int] | None = None
        while True:
            chunk = self._read(8)
            if len(chunk) < 8:
                raise self._failed()
            name, size = chunk[:4], struct.unpack("<I", chunk[4:])[0]
            if name == b"data":
                if fmt is None:
                    raise self._failed()
                return fmt
            body = self._read(size)
            if name == b"fmt ":
                _format, channels, rate, _bytes_per_s, _align, bits = struct.unpack("<HHIIHH", body[:16])
                fmt = (rate, channels, bits // 8)

    def chunks(self) -> Iterator[bytes]:
        """The samples as they come, in chunks of whole samples."""
        frame = self.channels * self.width
        rest = b""
        while True:
            data = self._out.read(CHUNK)
            if not data:
                break
            data = rest + data
            cut = len(data) - len(data) % frame
            rest = data[cut:]
            if cut:
                yield data[:cut]

    def stop(self) -> None:
        """End the synthesis now (an utterance cut); idempotent."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
