"""A PuXes game played by bots on a simulated table, seen through the real camera pipeline.

``table`` holds the scripted table: the true game (the engine fed with the bots' choices and with
what the simulated dice did) and where every die physically is, in millimetres. ``camera`` draws
that table as a camera above it would see it and builds the face library the camera reads DiXe
faces with. :mod:`controller.referee.puxes_demo` runs the frames through the vision pipeline into
the referee and compares the referee's game with the true one.
"""

from controller.referee.demo.table import Body, ScriptedTable, Transition

__all__ = ["Body", "ScriptedTable", "Transition"]
