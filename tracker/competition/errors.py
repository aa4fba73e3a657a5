"""The one way a competition change is refused."""


class Refused(Exception):
    """A change that was not made; `status` is 409 for a stale form, 404 for a missing row, 422 otherwise."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status
