"""Referees, one per table game: table snapshots in, engine actions and announcements out.

A referee asks the players to confirm instead of deciding when a call rests on a low-confidence
reading or on a distance within the measurement error of a line.
"""
