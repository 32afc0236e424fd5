"""Parallel test workers sharing one platform-mock, each in a namespace of its own.

Start the server (`npx -p subscription-platform-sdk platform-mock --port 4010`, once the package is
on npm; from a clone of the repository, `npm run platform-mock -- --port 4010`), then run

    python3 examples/python/parallel_workers.py [base_url] [workers]

Each worker talks to http://host:port/_ns/worker-<n>/... as if it had a server to itself: it
resets its namespace, gets a token with the demo client's credentials, sets its own price on
premium-digital and reads it back. The workers meet at barriers between those steps, so each
one's reset and write happen while the others hold theirs: if any worker saw another's, the run
fails. Python's standard library only (urllib, json, threading), as in a pytest-xdist worker.
"""

import json
import sys
import threading
import urllib.request

DEMO_CLIENT_ID = "demo-client"
DEMO_CLIENT_SECRET = "demo-secret-0123456789abcdef0123456789abcdef"
PRICES = "/external/api/v1/prices"
PRODUCTS = "/external/api/v1/products"
TOKEN = "/api/authorization/access_token"
SCOPES = "/external/price/w /external/product/r"


def call(url, method="GET", body=None, token=None):
    """One request; answers the status and the JSON body (None when there is none)."""
    headers = {"accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    if token is not None:
        headers["authorization"] = "Bearer " + token
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read().decode()
        return response.status, (json.loads(text) if text else None)


class Worker(threading.Thread):
    """A test worker: every URL it uses starts with its namespace's base."""

    def __init__(self, base_url, n, barrier):
        super().__init__(name="worker-%d" % n)
        self.base = "%s/_ns/worker-%d" % (base_url, n)
        self.price = 100 + n
        self.barrier = barrier
        self.error = None

    def creditcard_price(self, token):
        _, body = call(self.base + PRODUCTS + "?product_code=premium-digital", token=token)
        periods = body["items"][0]["price_periods"]
        return next(p["price"] for p in periods if p["payment_option"] == "creditcard")

    def token(self):
        """A server-to-server token of the namespace's demo client (a reset forgets the ones issued)."""
        _, grant = call(
            self.base + TOKEN,
            method="POST",
            body={
                "grant_type": "none",
                "client_id": DEMO_CLIENT_ID,
                "client_secret": DEMO_CLIENT_SECRET,
                "scope": SCOPES,
            },
        )
        return grant["access_token"]

    def run(self):
        try:
            # A fresh namespace: the demo seed, whatever a previous run left.
            call(self.base + "/__admin/reset", method="POST")
            token = self.token()
            seeded = self.creditcard_price(token)
            self.barrier.wait()
            call(
                self.base + PRICES,
                method="POST",
                token=token,
                body={
                    "package_integration_code": "PREMIUM-DIGITAL",
                    "price_periods": [
                        {
                            "subscription_type": "recurring",
                            "payment_option": "creditcard",
                            "type": "month",
                            "length": 1,
                            "price": self.price,
                        }
                    ],
                },
            )
            # Every worker has written: each still reads its own price.
            self.barrier.wait()
            seen = self.creditcard_price(token)
            if seen != self.price:
                raise AssertionError("%s read %s, not its own %s" % (self.name, seen, self.price))
            self.barrier.wait()
            # One worker resets its namespace: the others keep their writes.
            if self.name == "worker-0":
                call(self.base + "/__admin/reset", method="POST")
                token = self.token()
            self.barrier.wait()
            expected = seeded if self.name == "worker-0" else self.price
            seen = self.creditcard_price(token)
            if seen != expected:
                raise AssertionError("%s read %s after worker-0's reset, not %s" % (self.name, seen, expected))
            print("%s: price %s written and read back, untouched by the others" % (self.name, self.price))
        except Exception as error:  # noqa: BLE001 - reported by the main thread
            self.error = error
            self.barrier.abort()


def main():
    base_url = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:4010").rstrip("/")
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    barrier = threading.Barrier(count, timeout=120)
    workers = [Worker(base_url, n, barrier) for n in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    failures = [w for w in workers if w.error is not None and not isinstance(w.error, threading.BrokenBarrierError)]
    failures = failures or [w for w in workers if w.error is not None]
    for worker in failures:
        print("%s failed: %r" % (worker.name, worker.error), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
