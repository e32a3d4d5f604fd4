"""Calibration procedures (dials, camera, mat, dice faces) and where their profiles live."""
