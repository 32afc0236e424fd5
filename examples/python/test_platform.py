#!/usr/bin/env python3
"""A first test suite against the reference platform, written with Python's standard library alone
(urllib, json, unittest): read the demo data, reset the platform before each test, get an access
token, and read and write products and prices, including the answers that refuse a request.

Start the reference platform first (`npx -p subscription-platform-sdk platform-mock --port 4010`,
once the package is on npm; from a clone of the repository, `npm run platform-mock -- --port 4010`),
then:

    PLATFORM_URL=http://localhost:4010 python3 examples/python/test_platform.py

PLATFORM_URL defaults to http://localhost:4010. The client's id and secret are not written here:
they come from GET /__admin/demo, which lists the demo seed's clients, users and record ids.
Each test starts from the seed (POST /__admin/reset), which also forgets every token issued, so
each test asks for its own. The endpoints are in docs/endpoints.md, and their OpenAPI document is
served at {PLATFORM_URL}/openapi.json.
"""

from __future__ import annotations

import json
import os
import unittest
import urllib.error
import urllib.parse
import urllib.request

URL = os.environ.get("PLATFORM_URL", "http://localhost:4010").rstrip("/")

# The demo seed's client that holds every scope.
CLIENT_NAME = "Demo client"
PRODUCTS = "/external/api/v1/products"
PRICES = "/external/api/v1/prices"


def call(method: str, path: str, token: str | None = None, query: dict | None = None, body: dict | None = None):
    """Sends one request; answers (status, JSON body or None). A 4xx or 5xx answer is returned, not raised."""
    url = URL + path
    if query:
        url += "?" + urllib.parse.urlencode(query)
    headers = {"accept": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, text = answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        status, text = refused.code, refused.read()
    return status, (json.loads(text) if text else None)


class PlatformTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        try:
            status, demo = call("GET", "/__admin/demo")
        except urllib.error.URLError as error:
            hint = ("start it with `npx -p subscription-platform-sdk platform-mock --port 4010`"
                    " (from a clone of the repository: `npm run platform-mock -- --port 4010`)")
            raise RuntimeError(f"no platform at {URL} ({error.reason}): {hint}") from None
        assert status == 200, f"GET /__admin/demo answered {status}"
        cls.demo = demo
        cls.client = next(c for c in demo["clients"] if c["name"] == CLIENT_NAME)

    def setUp(self):
        status, _ = call("POST", "/__admin/reset")
        self.assertEqual(status, 204)

    def token(self, scopes: list[str]) -> str:
        """An access token of the demo client (client credentials: grant_type none) with these scopes."""
        status, answer = call("POST", "/api/authorization/access_token", body={
            "grant_type": "none",
            "client_id": self.client["client_id"],
            "client_secret": self.client["client_secret"],
            "scope": " ".join(scopes),
        })
        self.assertEqual(status, 200, answer)
        return answer["access_token"]

    def test_lists_the_packages_on_sale(self):
        status, answer = call("GET", PRODUCTS, self.token(["/external/product/r"]), query={"product_type": "packages"})
        self.assertEqual(status, 200, answer)
        self.assertEqual([p["product_code"] for p in answer["items"]], ["premium-digital", "basic-news"])

    def test_a_new_price_is_visible_to_the_next_read(self):
        token = self.token(["/external/price/w", "/external/product/r"])
        status, answer = call("POST", PRICES, token, body={
            "package_integration_code": "PREMIUM-DIGITAL",
            "price_periods": [
                {"subscription_type": "recurring", "payment_option": "creditcard", "type": "month", "length": 1,
                 "price": 9.9},
            ],
        })
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["id"], self.demo["ids"]["products"]["premium_digital"])

        status, answer = call("GET", PRODUCTS, token, query={"product_code": "premium-digital"})
        self.assertEqual(status, 200, answer)
        # A period's subscription_type in the write is its purchase_type in the read.
        creditcard = [p for p in answer["items"][0]["price_periods"] if p["payment_option"] == "creditcard"]
        self.assertEqual([p["price"] for p in creditcard], [9.9])

    def test_a_refused_request_names_the_field(self):
        status, answer = call("GET", PRODUCTS, self.token(["/external/product/r"]), query={"id": "xyz"})
        self.assertEqual(status, 400, answer)
        self.assertEqual((answer["code"], answer["field"]), ("invalid_parameter", "id"))

    def test_no_token_is_refused(self):
        status, answer = call("GET", PRODUCTS)
        self.assertEqual(status, 401, answer)
        self.assertEqual(answer["code"], "invalid_token")


if __name__ == "__main__":
    unittest.main()
