"""Work beside the requests (a switch being prepared, an accept's publication) steps aside while
other requests are in flight: it waits at its step boundaries until they end, a bounded time at
most, and not for its own request or for threads that wait themselves."""
from __future__ import annotations

import threading
import time

from flask import Flask, Response

from apptools import request_in_flight
from rules_index.readers_first import CountRequests, InFlight


def in_thread(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


def test_nothing_in_flight_means_no_wait():
    assert InFlight().step_aside(longest=5.0) == 0.0


def test_a_step_waits_until_the_other_request_ends():
    in_flight, began, done = InFlight(), threading.Event(), []

    def request():
        token = in_flight.begin()
        began.set()
        time.sleep(0.3)
        done.append(time.monotonic())
        in_flight.end(token)

    reader = in_thread(request)
    assert began.wait(5)
    waited = in_flight.step_aside(longest=5.0)
    stepped = time.monotonic()
    reader.join()
    assert done and stepped >= done[0]
    assert 0.2 < waited < 4.0


def test_a_step_waits_no_longer_than_it_is_allowed():
    in_flight = InFlight()
    with request_in_flight(in_flight):
        waited = in_flight.step_aside(longest=0.1)
    assert 0.09 <= waited < 2.0


def test_its_own_request_does_not_hold_a_step_back():
    in_flight = InFlight()
    token = in_flight.begin()
    assert in_flight.step_aside(longest=5.0) == 0.0
    in_flight.end(token)


def test_a_request_standing_by_for_background_work_does_not_hold_its_steps_back():
    in_flight, waited = InFlight(), []
    token = in_flight.begin()
    with in_flight.standing_by():  # this request waits for the work below
        worker = in_thread(lambda: waited.append(in_flight.step_aside(longest=5.0)))
        worker.join(10)
    assert waited and waited[0] < 1.0
    worker = in_thread(lambda: waited.append(in_flight.step_aside(longest=0.3)))  # no longer standing by
    worker.join(10)
    in_flight.end(token)
    assert waited[1] >= 0.29


def test_two_requests_that_step_aside_do_not_wait_for_each_other():
    in_flight, barrier, waited = InFlight(), threading.Barrier(2), []

    def request():
        token = in_flight.begin()
        barrier.wait(5)
        waited.append(in_flight.step_aside(longest=5.0))
        in_flight.end(token)

    threads = [in_thread(request) for _ in range(2)]
    for thread in threads:
        thread.join()
    assert len(waited) == 2 and max(waited) < 2.0


def test_a_request_is_in_flight_until_its_streamed_response_is_closed():
    in_flight = InFlight()
    app = Flask(__name__)

    @app.get("/stream")
    def stream():
        return Response(iter(["a", "b"]))

    @app.get("/boom")
    def boom():
        raise RuntimeError("boom")

    app.wsgi_app = CountRequests(app.wsgi_app, in_flight)
    opened, read, body = threading.Event(), threading.Event(), []

    def reader():
        response = app.test_client().get("/stream", buffered=False)
        opened.set()
        assert read.wait(5)
        body.append(response.get_data())
        response.close()

    thread = in_thread(reader)
    assert opened.wait(5)
    assert in_flight.others() == 1  # answered, still being sent
    read.set()
    thread.join()
    assert body == [b"ab"] and in_flight.others() == 0
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert app.test_client().get("/boom").status_code == 500
    assert in_flight.others() == 0


def test_a_response_let_go_of_unread_ends_its_request():
    """A test's client may neither read nor close a body: the request ends when the body is let
    go of (else every later step would wait its whole bound)."""
    in_flight = InFlight()
    counted = CountRequests(lambda environ, start_response: [b"hello"], in_flight)
    bodies = []

    def reader():
        bodies.append(counted({}, lambda status, headers: None))

    in_thread(reader).join()
    assert in_flight.others() == 1  # the body is held, unread
    bodies.clear()
    assert in_flight.others() == 0


def test_the_apps_requests_are_counted_until_their_response_is_closed(client):
    from rules_index.readers_first import IN_FLIGHT

    answered, closed, statuses = threading.Event(), threading.Event(), []

    def reader():
        response = client.get("/api/v1/games?lang=en", buffered=False)
        statuses.append(response.status_code)
        answered.set()
        assert closed.wait(5)
        response.close()

    thread = in_thread(reader)
    assert answered.wait(30)
    assert IN_FLIGHT.others() == 1
    closed.set()
    thread.join()
    assert statuses == [200] and IN_FLIGHT.others() == 0
