#!/usr/bin/env python3
"""The SSO session service from Python's standard library alone: sign a request token (HS256 by
hand), call createsession, authenticate, sessionstatus and logout, and verify every answer.

Start the reference platform first (`npx -p subscription-platform-sdk platform-mock --port 4010`,
once the package is on npm; from a clone of the repository, `npm run platform-mock -- --port 4010`),
then:

    python3 examples/python/sso.py

Its settings come from the environment; the defaults are the demo seed's site and user:
PLATFORM_URL (http://127.0.0.1:4010), SSO_CLIENT_ID, SSO_CLIENT_SECRET, SSO_ORGANISATION_ID (the
`iss` of request tokens; platform-mock prints it at start-up), SSO_AUDIENCE, SSO_USER, SSO_PASSWORD.
The protocol is in docs/sso-protocol.md.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import time
import urllib.error
import urllib.request

URL = os.environ.get("PLATFORM_URL", "http://127.0.0.1:4010").rstrip("/")
CLIENT_ID = os.environ.get("SSO_CLIENT_ID", "demo-site")
CLIENT_SECRET = os.environ.get("SSO_CLIENT_SECRET", "demo-site-secret-0123456789abcdef0123456789abcdef")
ORGANISATION_ID = os.environ.get("SSO_ORGANISATION_ID", "0a0000000000000000000001")
AUDIENCE = os.environ.get("SSO_AUDIENCE", "sso.platform.test")
USER = os.environ.get("SSO_USER", "anna@example.com")
PASSWORD = os.environ.get("SSO_PASSWORD", "anna-demo-password")

# The user the site acts for: their address and browser, as the site saw them.
IP_ADDRESS = "203.0.113.7"
USER_AGENT = "sso.py (Python standard library)"
# A request token lives 10 seconds; public clients read answers with a leeway of 120 seconds.
LIFETIME_SECONDS = 10
LEEWAY_SECONDS = 120


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(claims: dict) -> str:
    """A request token: header alg HS256 and typ JWT, the claims every operation carries, HMAC-SHA256 with the secret."""
    now = int(time.time())
    payload = {"cid": CLIENT_ID, "iss": ORGANISATION_ID, "aud": AUDIENCE, "nbf": now, "iat": now,
               "exp": now + LIFETIME_SECONDS, **claims}
    header = {"alg": "HS256", "typ": "JWT"}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(payload).encode())
    signature = hmac.new(CLIENT_SECRET.encode(), signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def verify(token: str) -> dict:
    """A session token's claims, once its header, signature, issuer, audience and lifetime check out."""
    parts = token.split(".")
    if len(parts) != 3:
        raise ValueError("the answer is not a JWT")
    header = json.loads(b64url_decode(parts[0]))
    if header.get("alg") != "HS256" or header.get("typ") != "JWT":
        raise ValueError(f"unexpected header {header}")
    expected = hmac.new(CLIENT_SECRET.encode(), (parts[0] + "." + parts[1]).encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(expected, b64url_decode(parts[2])):
        raise ValueError("the answer's signature does not verify with the client secret")
    claims = json.loads(b64url_decode(parts[1]))
    if claims.get("iss") != AUDIENCE:
        raise ValueError(f"iss is {claims.get('iss')!r}, expected the SSO audience {AUDIENCE!r}")
    if claims.get("aud") != CLIENT_ID:
        raise ValueError(f"aud is {claims.get('aud')!r}, expected the client id {CLIENT_ID!r}")
    now = int(time.time())
    if not claims["exp"] + LEEWAY_SECONDS > now >= claims["nbf"] - LEEWAY_SECONDS:
        raise ValueError("the answer is expired or not yet valid")
    return claims


def call(operation: str, claims: dict) -> dict:
    """POST {"t": request token} to the operation; answers the verified claims of the session token."""
    body = json.dumps({"t": sign(claims)}).encode()
    request = urllib.request.Request(f"{URL}/{operation}", data=body, method="POST",
                                     headers={"content-type": "application/json", "accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return verify(json.loads(answer.read())["t"])


def expect(step: str, claims: dict, **wanted) -> None:
    for name, value in wanted.items():
        if claims.get(name) != value:
            sys.exit(f"{step}: {name} is {claims.get(name)!r}, expected {value!r} (err {claims.get('err')!r})")
    print(f"{step}: sts={claims['sts']} err={claims['err']}")


def main() -> None:
    device = {"ipa": IP_ADDRESS, "uas": USER_AGENT}
    created = call("createsession", {**device, "apn": "sso.py", "apv": "1.0", "osn": sys.platform, "osv": "1"})
    expect("createsession", created, sts="anon", err=None)
    sid = created["sid"]

    logged_in = call("authenticate", {**device, "sid": sid, "usr": USER, "pwd": PASSWORD})
    expect("authenticate", logged_in, sts="loggedin", err=None)
    if not logged_in["aid"] or not logged_in["at"]:
        sys.exit("authenticate: no account id or ticket in the answer")

    status = call("sessionstatus", {**device, "sid": sid, "lks": "anon"})
    expect("sessionstatus", status, sts="loggedin", aid=logged_in["aid"])

    ended = call("logout", {**device, "sid": sid})
    expect("logout", ended, sts="terminated")

    after = call("sessionstatus", {**device, "sid": sid, "lks": "loggedin"})
    expect("sessionstatus after logout", after, sts="terminated")
    print("ok")


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as refused:
        sys.exit(f"{refused.url} answered {refused.code}: {refused.read().decode(errors='replace')}")
    except urllib.error.URLError as error:
        sys.exit(f"no platform at {URL} ({error.reason}): "
                 "start it with `npx -p subscription-platform-sdk platform-mock --port 4010`"
                 " (from a clone of the repository: `npm run platform-mock -- --port 4010`)")
