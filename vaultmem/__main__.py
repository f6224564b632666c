"""``python -m vaultmem`` runs the command line (by the vault's keeper when one runs)."""

from .launch import main

if __name__ == "__main__":  # never when a spawned parse worker imports the main module
    main()
