"""Printers: each walks the derivation tree of a Result and nothing else."""
