"""A share, its replay and a refused key, through the client openapi-python-client generated from openapi.json.

usage: client_test.py BASE_URL TOKEN   (the generated package `baton_partner_backend_client` on PYTHONPATH)
Prints one line per case and ends with "N passed, N failed"; exits 1 on a failure.
"""
import sys
import uuid
from datetime import UTC, datetime

from baton_partner_backend_client import AuthenticatedClient
from baton_partner_backend_client.api.catalog import create_handoff_session, get_catalog
from baton_partner_backend_client.models import (
    HandoffSession,
    HandoffSessionRequest,
    Problem,
    ShareOrNeutralHandoff,
)

base, token = sys.argv[1], sys.argv[2]
client = AuthenticatedClient(base_url=base, token=token, raise_on_unexpected_status=True)
results = []


def case(name, check):
    try:
        check()
        results.append(True)
        print(f"pass  {name}")
    except Exception as error:  # noqa: BLE001 -- a failed assertion or a client error: either way the case failed
        results.append(False)
        print(f"FAIL  {name}: {type(error).__name__}: {error}")


catalog = get_catalog.sync(client=client)
offered = [card for card in catalog.items if isinstance(card.handoff, ShareOrNeutralHandoff)]
assert offered, "the sandbox catalog offers no share_or_neutral card"
card = offered[0]
body = HandoffSessionRequest(
    catalog_item_id=card.id,
    disclosure_version=card.handoff.primary.disclosure_version,
    affirmed=True,
    affirmed_at=datetime.now(UTC).replace(microsecond=0),
)
key = str(uuid.uuid4())
first = {}


def share():
    response = create_handoff_session.sync_detailed(client=client, body=body, idempotency_key=key)
    assert response.status_code == 201, response.status_code
    assert isinstance(response.parsed, HandoffSession), type(response.parsed)
    assert response.headers.get("cache-control") == "no-store"
    first["url"] = response.parsed.url


def replay():
    response = create_handoff_session.sync_detailed(client=client, body=body, idempotency_key=key)
    assert response.status_code == 201, response.status_code
    assert response.headers.get("idempotent-replayed") == "true"
    assert isinstance(response.parsed, HandoffSession) and response.parsed.url == first.get("url"), "another URL"


def refused_key():
    response = create_handoff_session.sync_detailed(client=client, body=body, idempotency_key="not-a-uuid")
    assert response.status_code == 400, response.status_code
    assert isinstance(response.parsed, Problem), type(response.parsed)
    assert response.parsed.code == "idempotency_key_invalid", response.parsed.code
    assert response.parsed.status == 400


case("a share: 201 HandoffSession, no-store", share)
case("its replay: the same URL, Idempotent-Replayed: true", replay)
case("a refused key: 400 Problem idempotency_key_invalid", refused_key)
print(f"{results.count(True)} passed, {results.count(False)} failed")
sys.exit(0 if all(results) else 1)
