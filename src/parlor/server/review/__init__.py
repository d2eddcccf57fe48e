"""Game review and hints on the server: a feature beside the tables (docs/server.md)."""

from .service import ReviewService

__all__ = ["ReviewService"]
