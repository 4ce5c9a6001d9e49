"""Questions about types and trees that several checks ask."""
