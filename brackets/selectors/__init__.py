"""Reads for pages and documents, with a query count independent of the entrant count."""
