"""Interaction fuzzing and the hidden-information leak scan (simcord)."""
