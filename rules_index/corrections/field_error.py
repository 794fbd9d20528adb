"""The error of a request a field of which is wrong: the field, what is wrong, the HTTP status."""
from __future__ import annotations


class FieldError(ValueError):
    """``field: message``, answered with ``status`` (400 unless said otherwise)."""

    def __init__(self, field: str, message: str, status: int = 400):
        self.field = field
        self.message = message
        self.status = status
        super().__init__(f"{field}: {message}")
