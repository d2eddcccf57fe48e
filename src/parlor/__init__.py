"""Parlor: rules engines, bots and play for three modern card games."""

__version__ = "0.1.0"
