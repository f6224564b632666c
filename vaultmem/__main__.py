"""``python -m vaultmem`` runs the command line."""

from .cli import main

if __name__ == "__main__":  # never when a spawned parse worker imports the main module
    main()
