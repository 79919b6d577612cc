"""The OpenAPI document is the truth: schemathesis sends what it allows (and what it does not), and finds
no server error, no undocumented status, no schema-valid request refused for its shape."""

from __future__ import annotations

import os
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from yukon.store import Store
from yukon.web import create_app

# The schema describes every field's shape; what it cannot say (a position that breaks the rules, a move
# in bad notation, a position and a deal number together) the engine refuses with a 400 that names it.
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2XX", 400, 403, 404, 409, 410]}}}
)
APP = create_app(Store(":memory:"), hint_time=0.05, winnable_time=0.05, hosts=["testserver", "localhost"])
SCHEMA = schemathesis.openapi.from_asgi("/api/openapi.json", APP, config=CONFIG)


@SCHEMA.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_api_keeps_its_schema(case: Any) -> None:
    case.call_and_validate()


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("YUKON_SLOW_TESTS"), reason="several minutes: set YUKON_SLOW_TESTS=1")
@SCHEMA.parametrize()
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema_thoroughly(case: Any) -> None:
    case.call_and_validate()


def test_every_operation_documents_its_errors() -> None:
    paths = APP.openapi()["paths"]
    for path, operations in paths.items():
        for method, op in operations.items():
            codes = set(op["responses"])
            assert "403" in codes, (method, path)  # the guard may refuse any request
            if method == "post":
                assert "413" in codes, (method, path)
            if "{game_id}" in path:
                assert {"404", "410"} <= codes, (method, path)
            if path != "/api/variants":  # (it reads no store)
                assert "503" in codes, (method, path)  # the store may be locked by another program


def test_a_method_not_allowed_says_which_are() -> None:
    with TestClient(APP, base_url="http://localhost") as c:
        for method, path, allowed in (("DELETE", "/api/games", "POST"), ("PUT", "/api/variants", "GET"),
                                      ("GET", "/api/games/x/moves", "POST")):
            r = c.request(method, path)
            assert r.status_code == 405 and r.json()["error"]
            assert allowed in r.headers["allow"], (method, path, r.headers)
