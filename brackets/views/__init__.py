"""Thin views, one module per area; they call services to write and selectors to read."""
