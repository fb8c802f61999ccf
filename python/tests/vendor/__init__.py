"""Third-party code copied into the tests unchanged (see each subfolder's __init__.py for its source and licence)."""
