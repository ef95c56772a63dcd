"""The PIN guard and the cross-site guard on their own, with an injected clock."""

from __future__ import annotations

import pytest

from referee.sim.clock import ManualClock
from tournament.pagekit.guards import (
    ControlDisabled,
    CrossSiteRequest,
    CsrfGuard,
    PermissionDenied,
    PinGuard,
    PinRequired,
    RateLimited,
    WrongPin,
    client_key,
)


def test_no_pin_means_no_control_not_a_default_pin() -> None:
    guard = PinGuard(None, ManualClock(0.0))
    assert not guard.enabled
    for attempt in (None, "", "0000", "1234"):
        with pytest.raises(ControlDisabled, match="no PIN configured"):
            guard.check("a", attempt)


def test_the_right_pin_passes_and_errors_are_permission_denied() -> None:
    guard = PinGuard("390217", ManualClock(0.0))
    guard.check("a", "390217")
    with pytest.raises(PinRequired):
        guard.check("a", None)
    with pytest.raises(WrongPin) as info:
        guard.check("a", "471")  # a prefix is not the PIN
    assert isinstance(info.value, PermissionDenied) and isinstance(info.value, ValueError)


def test_waits_grow_per_client_and_are_capped() -> None:
    clock = ManualClock(0.0)
    guard = PinGuard("390217", clock, free_attempts=2, base_delay=1.0, max_delay=5.0)
    for _ in range(2):
        with pytest.raises(WrongPin):
            guard.check("a", "0000")
    waits = []
    for _ in range(5):
        with pytest.raises(WrongPin):
            guard.check("a", "0000")
        with pytest.raises(RateLimited) as info:
            guard.check("a", "390217")  # during the wait even the right PIN is not looked at
        waits.append(info.value.retry_after)
        clock.now += info.value.retry_after
    assert waits == [1.0, 2.0, 4.0, 5.0, 5.0]


def test_free_attempts_come_first_then_a_wait() -> None:
    clock = ManualClock(0.0)
    guard = PinGuard("390217", clock, free_attempts=2)
    with pytest.raises(WrongPin, match="1 more tries"):
        guard.check("a", "0")
    with pytest.raises(WrongPin, match="next wrong one"):
        guard.check("a", "0")
    with pytest.raises(WrongPin, match="wait 1 s"):
        guard.check("a", "0")
    with pytest.raises(RateLimited):
        guard.check("a", "390217")
    guard.check("b", "390217")  # another client is not held up by the first one's guesses
    clock.now += 1
    guard.check("a", "390217")
    with pytest.raises(WrongPin, match="1 more tries"):  # the record was cleared by the right PIN
        guard.check("a", "0")


def test_the_client_records_are_bounded() -> None:
    guard = PinGuard("390217", ManualClock(0.0), max_clients=10, global_limit=1000)
    for n in range(100):
        with pytest.raises(WrongPin):
            guard.check(f"10.0.0.{n}", "0")
    assert len(guard._clients) == 10


def test_many_sources_together_meet_a_global_limit_that_spares_the_players_sessions() -> None:
    clock = ManualClock(0.0)
    guard = PinGuard("390217", clock, global_limit=30, global_window=600.0)
    guard.check("192.168.1.20", "390217", session="players-phone")  # the players' phone, earlier in the game
    refused = 0
    for n in range(250):  # one guess from each of 250 addresses (each far below its own limit)
        try:
            guard.check(f"10.0.{n // 200}.{n % 200}", f"{n:06}", session=f"attacker-{n}")
        except RateLimited as exc:
            assert 0 < exc.retry_after <= 600
            refused += 1
        except WrongPin:
            pass
    assert refused == 250 - 30  # only the first 30 were even compared
    with pytest.raises(RateLimited, match="at this table"):
        guard.check("10.9.9.9", "390217", session="new-session")  # the right PIN, but not looked at
    guard.check("192.168.1.20", "390217", session="players-phone")  # the players still control their table
    with pytest.raises(WrongPin):
        guard.check("192.168.1.21", "111111", session="players-phone")  # and a typo of theirs is still a typo
    clock.now = 601.0
    guard.check("10.9.9.9", "390217", session="new-session")  # the window has passed


def test_csrf_token_is_bound_to_the_session_and_the_secret() -> None:
    guard = CsrfGuard(b"k" * 32)
    sid = guard.new_session_id()
    guard.check(sid, guard.token_for(sid), {}, "pi:8080")
    with pytest.raises(CrossSiteRequest, match="does not match"):
        guard.check(sid, CsrfGuard(b"x" * 32).token_for(sid), {}, "pi:8080")
    with pytest.raises(CrossSiteRequest, match="does not match"):
        guard.check(guard.new_session_id(), guard.token_for(sid), {}, "pi:8080")
    with pytest.raises(CrossSiteRequest, match="no session token"):
        guard.check(None, guard.token_for(sid), {}, "pi:8080")


@pytest.mark.parametrize(
    ("headers", "ok"),
    [
        ({"Origin": "http://pi:8080", "Sec-Fetch-Site": "same-origin"}, True),
        ({"Sec-Fetch-Site": "none"}, True),
        ({"Sec-Fetch-Site": "same-site"}, False),
        ({"Origin": "http://pi:8081"}, False),
        ({"Origin": "http://evil.example"}, False),
    ],
)
def test_origin_and_fetch_site_headers(headers: dict[str, str], ok: bool) -> None:
    guard = CsrfGuard()
    sid = guard.new_session_id()
    if ok:
        guard.check(sid, guard.token_for(sid), headers, "pi:8080")
    else:
        with pytest.raises(CrossSiteRequest):
            guard.check(sid, guard.token_for(sid), headers, "pi:8080")


@pytest.mark.parametrize(
    ("remote", "key"),
    [
        ("192.168.1.20", "192.168.1.20"),
        ("::ffff:192.168.1.20", "192.168.1.20"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:2::/64"),  # the same host under a new address
        ("fe80::1%eth0", "fe80::/64"),
        (None, "?"),
    ],
)
def test_clients_are_counted_per_ipv4_address_or_ipv6_network(remote: str | None, key: str) -> None:
    assert client_key(remote) == key


def _spend_the_budget(guard: PinGuard) -> None:
    for n in range(30):  # 30 wrong PINs from 30 addresses, none of them near its own limit
        with pytest.raises(WrongPin):
            guard.check(f"10.1.0.{n}", f"{n:06}", session=f"attacker-{n}")


def test_the_directors_code_lets_a_new_phone_in_while_someone_guesses_the_table_pin() -> None:
    clock = ManualClock(0.0)
    guard = PinGuard("390217", clock, director_pin="8046173529", global_limit=30, global_window=600.0)
    _spend_the_budget(guard)
    with pytest.raises(WrongPin, match="a phone that has not given it before needs the director's code"):
        guard.check("192.168.1.30", "390217", session="new-phone")  # the table PIN is not looked at now
    guard.check("192.168.1.30", "8046173529", session="new-phone")  # the director's code is
    guard.check("192.168.1.30", "390217", session="new-phone")  # and from then on the phone is trusted
    for n in range(200):  # the guessers go on: every try is refused, the table PIN's budget stays spent
        with pytest.raises(PermissionDenied):
            guard.check(f"10.2.0.{n}", f"{n:06}", session=f"more-{n}")
    guard.check("192.168.1.31", "8046173529", session="another-new-phone")  # still not locked out
    assert guard.guessing() == (30, True)


def test_nobody_locks_the_directors_code_each_source_is_slowed() -> None:
    clock = ManualClock(0.0)
    guard = PinGuard("390217", clock, director_pin="8046173529", global_limit=30, global_window=600.0)
    guard.check("192.168.1.20", "390217", session="players-phone")
    _spend_the_budget(guard)
    for n in range(1000):  # 1,000 addresses guess the director's code too: each is slowed, nobody locks it
        with pytest.raises(WrongPin, match="not the director's code"):
            guard.check(f"10.3.{n // 200}.{n % 200}", f"{n:010}", session=f"director-guess-{n}")
    guard.check("192.168.1.30", "8046173529", session="new-phone")
    guard.check("192.168.1.20", "390217", session="players-phone")  # the players' phone is never locked out
    for _ in range(3):  # one source that keeps guessing it waits longer and longer, as for the table PIN
        with pytest.raises(WrongPin):
            guard.check("10.4.0.1", "0000000000", session="one-guesser")
    with pytest.raises(WrongPin, match="wait 1 s"):
        guard.check("10.4.0.1", "0000000000", session="one-guesser")
    with pytest.raises(RateLimited):
        guard.check("10.4.0.1", "8046173529", session="one-guesser")


def test_no_alert_for_a_typo_or_two() -> None:
    guard = PinGuard("390217", ManualClock(0.0), global_limit=30)
    for n in range(9):
        with pytest.raises(WrongPin):
            guard.check(f"10.0.0.{n}", "111111")
    assert guard.guessing() is None
    with pytest.raises(WrongPin):
        guard.check("10.0.0.9", "111111")
    assert guard.guessing() == (10, False)
