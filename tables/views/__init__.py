"""Server-rendered pages: the dealer tablet (`tablet.py`) and what it shows (`display.py`)."""
