"""Referees, one per table game: table snapshots in, engine actions and announcements out.

A referee decides what the rules and the table settle, and asks the players instead when a call
rests on a reading the camera is not sure of or on a distance within the measurement error of a
line, and at once when the table no longer fits the game it follows.
"""
