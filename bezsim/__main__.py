"""``python -m bezsim`` runs the command line."""

from bezsim.cli import main

main()
