"""Shape functions by operator family; importing this package registers them all."""

