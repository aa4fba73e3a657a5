"""Another phone's request sent at the moment this one has just decided, for the race tests (test_sharing_races,
test_lock_races, test_name_races): from its own thread, as another phone's would be; before a fix it landed between
the decision and the write.

    meanwhile(lambda: phone.post(url, data))   # sent now, given time to commit or to wait for this one's lock
    settled()                                  # every such request answered (the autouse fixture does it too)
"""

import threading

import pytest
from django.db import connections

SENT: list[threading.Thread] = []
ANSWERS: list = []
"""What the other phones' requests answered, or raised (an exception is an answer the test looks at)."""


def meanwhile(send) -> None:
    """Another phone's request, sent now from its own thread: given time to commit, or to wait for the lock this
    request holds (then it goes on once this one's transaction ends)."""
    def other_phone():
        try:
            ANSWERS.append(send())
        except Exception as error:
            ANSWERS.append(error)
        finally:
            connections.close_all()
    thread = threading.Thread(target=other_phone)
    SENT.append(thread)
    thread.start()
    thread.join(0.5)


def settled() -> None:
    """Every other phone's request answered."""
    while SENT:
        SENT.pop().join(30)


@pytest.fixture(autouse=True)
def other_phones_done():
    yield
    settled()
