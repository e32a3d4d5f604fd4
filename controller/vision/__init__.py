"""The table camera: sources, mat geometry, dice finding and reading, stillness, tracking."""
