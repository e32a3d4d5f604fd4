"""MicroPython firmware for the RP2040 (Raspberry Pi Pico) controller, and its host-side tools.

The modules in ``firmware/board/`` are copied onto the board; they are written in the subset of
Python that both MicroPython and CPython run, so the host imports the same framing code and the
tests run the firmware's own logic under CPython.
"""
