"""Stand-ins for the board's hardware modules, so the firmware's own logic runs under CPython.

``firmware.fakes.machine`` behaves like MicroPython's ``machine`` for what the firmware uses
(Pin, ADC with RP2040-like 12-bit noisy readings, unique_id, reset, bootloader);
``firmware.fakes.pty_board`` runs the real firmware loop behind a pseudo-terminal, a serial
device the host opens like a real controller.
"""
