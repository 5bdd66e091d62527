"""Exports and imports (openpyxl, CSV). Every export follows the document contract
``render(...) -> (filename, content_type, bytes)`` so one download view can serve them all."""
