"""Caboose Companion: sees, computes and explains Loose Caboose, Rollecate and LOK'n'ROLL."""

__version__ = "0.1.0"
