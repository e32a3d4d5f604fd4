"""Runs at power-up on the controller board: start the bitbox controller firmware (see app.py)."""

import app

app.run()
