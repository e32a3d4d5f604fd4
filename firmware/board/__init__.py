"""Modules copied onto the RP2040 controller board; each runs under MicroPython and CPython."""
