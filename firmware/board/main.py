"""Runs at power-up on the controller board: start the bitbox controller firmware (see app.py).

Ctrl-C goes off first. While main.py runs, MicroPython takes byte 0x03 from the USB port as
Ctrl-C, and every frame the host sends with a sequence number below 256 starts with 0x03. One
arriving while the modules compile (most of a second from .py source) used to stop the
firmware inside an import and leave the port to the REPL, which took later frames as keystrokes
(0x01: raw REPL) and never started the firmware again.

A Ctrl-C that still lands in the microseconds before kbd_intr(-1) takes effect is caught: the
board soft-resets and runs this file again. The REPL is reached on purpose as before: hold the
ready button while plugging the board in, or have the host send STOP; app.run() then returns,
this file ends and the REPL takes the port.

This file stays source on the board (MicroPython runs main.py by name); keep it short.
"""

try:
    import micropython

    micropython.kbd_intr(-1)
    import app

    app.run()
except KeyboardInterrupt:
    import machine

    print("bitbox: Ctrl-C during start-up, restarting")
    machine.soft_reset()
except Exception as exc:
    print("bitbox: the firmware could not start:", repr(exc))
    print("bitbox: flash it again with `bitbox firmware flash`")
