"""Who may change the game: the table PIN, its rate limit, and protection against cross-site requests.

The scoreboard is open to everyone in the room (and anyone on the club's Wi-Fi), so control is guarded
three ways. The PIN is compared in constant time on fixed-length digests, so neither its letters nor its
length leak through timing. Wrong PINs from one client buy a growing wait (429 with Retry-After); the wait
is enforced before the PIN is even looked at. A per-client limit alone is not enough: 250 addresses on a
club's Wi-Fi (or 1,100 loopback ones) guessed 2,250 PINs in the first minute. So all sources together get a
budget of wrong PINs per window too; once it is spent, only browser sessions that have given the right PIN
before (the players' own phones) may still try, so an attacker who spends it never locks the players out.
Control requests must come from the page itself: a per-session token bound to the session cookie by an
HMAC, plus the browser's Origin and Sec-Fetch-Site headers when it sends them. A table without a PIN
has no control at all: there is no default PIN to guess.

Time comes from an injected `monotonic()`-style clock, so tests can step through the waits.

Both pages use these guards: the table's scoreboard (referee/web/, the table PIN) and the director's hall
(tournament/director/access.py, the director key), so they live here, in tournament/pagekit/, which the
referee may import and which imports nothing of the referee but its words layer (the refusals' words,
referee/words/guard.py).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets
import socket
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from game.errors import RefereeError
from referee.words import Phrase, say

Clock = Callable[[], float]


class PermissionDenied(RefereeError, ValueError):
    """A control request came without the PIN (or key), with a wrong one, or not from the page itself."""


class Refusal(PermissionDenied):
    """A guarded request refused: its words (referee/words/guard.py) as a code and fields, `str()` in English,
    `text(language)` in the language of the page that shows it."""

    def __init__(self, said: Phrase) -> None:
        super().__init__(say(said.catalogue, said.code, "en", **said.fields))
        self.said = said

    def text(self, language: str = "en") -> str:
        return say(self.said.catalogue, self.said.code, language, **self.said.fields)


class ControlDisabled(Refusal):
    """The table has no PIN configured, so nobody can use control from the page."""


class PinRequired(Refusal):
    """A control request came without a PIN."""


class WrongPin(Refusal):
    """A control request came with a PIN that is not the table's."""


class RateLimited(Refusal):
    """Too many wrong PINs from this client: it must wait `retry_after` seconds before the next try."""

    def __init__(self, said: Phrase, retry_after: float) -> None:
        super().__init__(said)
        self.retry_after = retry_after


class CrossSiteRequest(PermissionDenied):
    """A control request did not come from the scoreboard page (CSRF token, Origin or Sec-Fetch-Site)."""


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def client_key(remote: str | None) -> str:
    """Who is guessing: the IPv4 address, or the /64 network of an IPv6 one.

    One IPv6 host commonly owns a whole /64 and can change address at will, so counting per address would
    give it billions of fresh starts. An IPv4 address mapped into IPv6 counts as the IPv4 address.
    """
    if not remote:
        return "?"
    try:
        address = ipaddress.ip_address(remote.split("%", 1)[0])
    except ValueError:
        return remote
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass
class _Attempts:
    failures: int = 0
    blocked_until: float = 0.0


class PinGuard:
    """Checks PINs and slows down clients that keep guessing, one by one and all together.

    The first `free_attempts` wrong PINs cost nothing (people mistype); each further one makes the client
    wait `base_delay * 2**k` seconds (k = 0, 1, 2, ...), capped at `max_delay`. A right PIN clears the
    client's record. At most `max_clients` records are kept (oldest first out) so that a flood of
    addresses cannot fill the memory of a Pi.

    Across all clients at most `global_limit` wrong PINs count per `global_window` seconds. Past that, a
    try from a session that has not given the right PIN before is refused (429) without looking at the
    table PIN; a trusted session (at most `max_trusted` remembered, newest kept) is checked as usual. With
    the defaults (30 per 10 minutes) a six-digit PIN takes an attacker about 115 days on average.

    So that the guessing never locks out a new phone at the table (a player whose phone's battery died),
    a `director_pin` of 10 to 12 digits may be configured: it does all the table PIN does, and while the
    table PIN's budget is spent it alone is looked at, with no global budget (only each source's waits):
    nobody can lock it, and at those waits 1,100 guessing addresses need about 7 years for 10 digits.

    `noun` is what it guards, as its refusals name it: "pin" (a table's PIN) or "director_key" (the director's
    pages: tournament/director/access.py), in English and German (referee/words/guard.py).
    """

    def __init__(
        self,
        pin: str | None,
        clock: Clock,
        *,
        noun: str = "pin",
        director_pin: str | None = None,
        free_attempts: int = 3,
        base_delay: float = 1.0,
        max_delay: float = 300.0,
        max_clients: int = 1024,
        global_limit: int = 30,
        global_window: float = 600.0,
        max_trusted: int = 64,
    ) -> None:
        self._digest = _digest(pin) if pin else None
        # The director's code (web.director_pin, 10 to 12 digits): the table PIN's powers, and no global budget
        # at all, so no amount of guessing locks it; only each source's own waits slow its guessers.
        self._director = _digest(director_pin) if pin and director_pin else None
        self._clock = clock
        self.noun = noun
        self.free_attempts = free_attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._max_clients = max_clients
        self._clients: OrderedDict[str, _Attempts] = OrderedDict()
        self.global_limit = global_limit
        self.global_window = global_window
        self._failures: deque[float] = deque(maxlen=max(global_limit, 1))  # wrong PINs in the window, all clients
        self._max_trusted = max_trusted
        self._trusted: OrderedDict[str, None] = OrderedDict()

    @property
    def enabled(self) -> bool:
        """Whether control is possible at all (a PIN is configured)."""
        return self._digest is not None

    def check(self, client: str, attempt: str | None, session: str | None = None, *, exempt: bool = False) -> None:
        """Return if `attempt` is the table PIN; raise a `PermissionDenied` subclass saying why not.

        `session` is the browser session the try comes from: once it has given the right PIN it stays
        trusted, and the global limit does not apply to it. `exempt`: a try the global limit never applies
        to either (the director's own console on the machine itself), only its own source's waits."""
        if self._digest is None:
            raise ControlDisabled(self._said(f"control_disabled.{self.noun}"))
        now = self._clock()
        record = self._clients.get(client)
        if record is not None and now < record.blocked_until:
            wait = record.blocked_until - now
            raise RateLimited(self._said("rate_limited", wait=wait), wait)
        trusted = exempt or (session is not None and session in self._trusted)
        wait = self._global_wait(now, self._failures)
        locked = wait > 0 and not trusted  # the table PIN's budget is spent: only the director's code is looked at
        if locked and self._director is None:
            raise RateLimited(self._said(f"rate_limited_all.{self.noun}", wait=wait), wait)
        if not attempt:
            raise PinRequired(self._said("required"))
        given = _digest(attempt)
        right = not locked and hmac.compare_digest(given, self._digest)
        director = self._director is not None and hmac.compare_digest(given, self._director)
        if right or director:
            self._clients.pop(client, None)
            if session is not None:
                self._trusted.pop(session, None)
                self._trusted[session] = None
                while len(self._trusted) > self._max_trusted:
                    self._trusted.popitem(last=False)
            return
        if not locked:
            self._failures.append(now)
        record = self._record(client)
        record.failures += 1
        over = record.failures - self.free_attempts
        # while the budget is spent, only the director's code was looked at: that is what was wrong
        what: dict[str, object] = {"wrong": Phrase("guard", "not_director_code")} if locked else {}
        if over > 0:
            delay = min(self.base_delay * 2 ** (over - 1), self.max_delay)
            record.blocked_until = now + delay
            raise WrongPin(self._said("wrong_wait", delay=delay, **what))
        if locked:
            raise WrongPin(self._said("wrong", **what))
        left = self.free_attempts - record.failures
        raise WrongPin(self._said("wrong_left", left=left) if left else self._said("wrong_last"))

    def _said(self, code: str, **fields: object) -> Phrase:
        return Phrase("guard", code, {"noun": self.noun, **fields})

    def _global_wait(self, now: float, failures: deque[float]) -> float:
        """Seconds until a global budget of wrong PINs (`failures`) has room again (0: it has room now)."""
        while failures and failures[0] <= now - self.global_window:
            failures.popleft()
        if len(failures) < self.global_limit:
            return 0.0
        return failures[0] + self.global_window - now

    def guessing(self) -> tuple[int, bool] | None:
        """(wrong PINs in the window, whether the budget is spent) once a third of the budget is used up, else
        None: what the page's alert that someone is guessing says."""
        now = self._clock()
        spent = self._global_wait(now, self._failures) > 0
        wrong = len(self._failures)
        return (wrong, spent) if wrong >= max(1, self.global_limit // 3) else None

    @property
    def has_director_code(self) -> bool:
        return self._director is not None

    def _record(self, client: str) -> _Attempts:
        record = self._clients.pop(client, None) or _Attempts()
        self._clients[client] = record
        while len(self._clients) > self._max_clients:
            self._clients.popitem(last=False)
        return record


class CsrfGuard:
    """Binds a control token to the session cookie, and checks that control requests are same-origin.

    The token is HMAC(secret, session id): the page reads it from `/api/session` (a cross-site page
    cannot read that response) and sends it in a header, which a cross-site form cannot set. The secret
    lives only in memory, so a restart of the service invalidates every token and the page fetches a
    new one.
    """

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret or secrets.token_bytes(32)

    @staticmethod
    def new_session_id() -> str:
        return secrets.token_urlsafe(24)

    def token_for(self, session_id: str) -> str:
        return hmac.new(self._secret, session_id.encode("utf-8"), hashlib.sha256).hexdigest()

    def check(self, session_id: str | None, token: str | None, headers: Mapping[str, str], host: str) -> None:
        """Raise `CrossSiteRequest` unless the request carries this session's token and is same-origin."""
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise CrossSiteRequest(f"refused: a control request from another site ({site})")
        origin = headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != host:
            raise CrossSiteRequest(f"refused: a control request from another origin ({origin})")
        if not session_id or not token:
            raise CrossSiteRequest("refused: no session token; reload the page")
        if not hmac.compare_digest(self.token_for(session_id).encode(), token.encode("utf-8", "replace")):
            raise CrossSiteRequest("refused: the session token does not match; reload the page")


def own_names() -> set[str]:
    """The names this Pi answers to by itself: localhost, its host name, that name in `.local` (mDNS, what
    phones open), and its fully qualified name."""
    names = {"localhost"}
    host = socket.gethostname().strip().lower().rstrip(".")
    if host:
        names.update({host, f"{host.split('.')[0]}.local"})
    try:
        fqdn = socket.getfqdn().strip().lower().rstrip(".")
    except OSError:  # pragma: no cover - a resolver that fails outright
        fqdn = ""
    if fqdn:
        names.add(fqdn)
    return names


_PORT = re.compile(r":\d{1,5}$")


class HostGuard:
    """The `Host` a request names must be this Pi: one of its names, or an IP address.

    DNS rebinding: a page on `attacker.example` that re-points its own name at the Pi's address may read and
    drive the Pi's page from a player's browser, as same-origin (its Origin and Host agree, so the cross-site
    check passes). Its requests still say `Host: attacker.example`; the Pi's own names never do. An IP
    address in `Host` is always allowed: no page of another site has that origin, and the Pi's addresses
    change with the network (DHCP), so listing them would refuse its own after a move."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(n.strip().lower().rstrip(".") for n in names if n.strip())

    def allows(self, host: str | None) -> bool:
        if not host:  # HTTP/1.0 without Host: no browser sends that
            return True
        name = host.strip().lower()
        if name.startswith("["):  # [::1]:8080
            literal = name[1:].split("]", 1)[0]
        else:
            name = _PORT.sub("", name)
            literal = name
        try:
            ipaddress.ip_address(literal.split("%", 1)[0])
            return True
        except ValueError:
            pass
        return name.rstrip(".") in self.names
