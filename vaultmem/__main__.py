"""``python -m vaultmem`` runs the command line."""

from .cli import main

main()
