"""``bitbox say``: the table's voice says a sentence, to test the speaker before a game.

    bitbox say --lang fr "Le temple de Ada est renversé !"
    bitbox say --volume 40 --device hw:1 "Ten seconds left"
    bitbox say --wav call.wav "Pixoid is caught"

It goes the way every call goes (espeak-ng, the queue, the output), so what it says is what the
table will sound like; where espeak-ng or the audio output is missing it says what to install.
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Any

from controller import i18n
from controller.i18n import N_, _
from controller.voice.output import Output, WavOutput, output_for
from controller.voice.settings import DEFAULT_SPEED, DEFAULT_VOLUME, SPEEDS, VoiceSettings

#: ``bitbox demo --voice``'s help.
DEMO_HELP = N_("say every call aloud (espeak-ng, in the language of --lang; docs/voice.md)")
#: How long the command waits for a sentence to be said, at most (seconds).
LONGEST = 120.0


def register(subparsers: Any) -> None:
    say = subparsers.add_parser(
        "say",
        help=_("say a sentence aloud with the table's voice, to test the speaker"),
        description=_("Say a sentence aloud with the table's voice (espeak-ng), in the language of --lang, "
                      "through the audio output the service uses, or into a WAV file. docs/voice.md says how "
                      "to set the voice up."),
    )
    say.add_argument("text", nargs="+", metavar=_("TEXT"), help=_("what to say"))
    say.add_argument("--volume", type=int, default=DEFAULT_VOLUME, metavar="0-100",
                     help=_("the volume, from 0 to 100 (default {volume})").format(volume=DEFAULT_VOLUME))
    say.add_argument("--speed", type=int, default=DEFAULT_SPEED, metavar=_("WPM"),
                     help=_("words per minute (default {speed})").format(speed=DEFAULT_SPEED))
    say.add_argument("--device", default=None, metavar=_("OUTPUT"),
                     help=_("the audio output (default: the system's; `aplay -L` lists them)"))
    say.add_argument("--wav", type=Path, default=None, metavar=_("FILE"),
                     help=_("write the speech to this WAV file instead of playing it"))
    say.set_defaults(handler=cmd_say)


def cmd_say(args: argparse.Namespace) -> int:
    from controller.cli import CommandError
    from controller.voice.voice import Voice

    if not 0 <= args.volume <= 100:
        raise CommandError(_("--volume {volume} is outside 0 to 100: give for example --volume {default}").format(
            volume=args.volume, default=DEFAULT_VOLUME))
    if args.speed not in SPEEDS:
        raise CommandError(_("--speed {speed} is outside {low} to {high} words per minute: give for example "
                             "--speed {default}").format(speed=args.speed, low=SPEEDS.start, high=SPEEDS.stop - 1,
                                                         default=DEFAULT_SPEED))
    text = " ".join(args.text).strip()
    if not text:
        raise CommandError(_("there is nothing to say: give the sentence, such as bitbox say \"Ten seconds left\""))
    lang = i18n.language()
    if not args.verbose:
        logging.getLogger("controller.voice").setLevel(logging.ERROR)  # what is missing is this command's error
    output: Output = WavOutput(timeline=args.wav, speed=float("inf")) if args.wav else output_for(args.device)
    voice = Voice(VoiceSettings(lang=lang, volume=args.volume, speed=args.speed), output=output)
    try:
        problem = voice.speaker.problem()
        if problem is not None:
            raise CommandError(i18n.said(problem, lang))
        started = time.monotonic()
        voice.say(text)
        if not voice.wait_idle(LONGEST):
            raise CommandError(_("the sentence was not said within {seconds} s; check the audio output with "
                                 "`aplay -l`").format(seconds=int(LONGEST)))
        tally = voice.queue.tally
        problem = voice.speaker.problem()
        if tally.spoken != 1 or problem is not None:
            raise CommandError(i18n.said(problem, lang) if problem is not None else
                               _("the sentence could not be said; run with -v to see why"))
        took = time.monotonic() - started
        language = i18n.LANGUAGE_NAMES.get(lang, lang)
        if args.wav:
            voice.close()
            print(_("Said in {language} into {path}.").format(language=language, path=args.wav))
        else:
            print(_("Said in {language} on the output {output} ({seconds} s).").format(
                language=language, output=output.name, seconds=f"{took:.1f}"))
        return 0
    finally:
        voice.close()
