"""The one way a competition change is refused."""


class Refused(Exception):
    """A change that was not made; `status` is 409 for a stale form, 404 for a missing row, 422 otherwise.
    `spent`: the work was done before it was refused (a pairing searched for), so a limit counts it."""

    def __init__(self, message: str, status: int = 422, spent: bool = False) -> None:
        super().__init__(message)
        self.status, self.spent = status, spent
