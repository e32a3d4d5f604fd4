"""The live service: the game loop, the SQLite event store, the dashboard and the terminal view."""
