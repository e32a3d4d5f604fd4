"""bitbox-controller: referee live 8Bit Box and DiXe table games from a Raspberry Pi.

Packages:
    engines   the games' rules, pure (no I/O, no clock, no hardware)
    dials     reading the wheel controllers (GPIO, USB serial, simulated)
    vision    the table camera: mat geometry, dice finding and reading
    referee   observations -> engine actions, one module per game
    service   the live loop, the event store, the dashboard
"""

__version__ = "0.1.0"
