"""Smoke tests proving each loopback server fixture really works."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.servers.langsmith_capture import LangSmithCapture, wait_for
from tests.servers.materials_api import MaterialsApiServer
from tests.servers.optimade_server import OptimadeServer
from tests.servers.redis_server import RedisServer

pytestmark = pytest.mark.integration


# --------------------------------------------------------------------------- materials API


def test_materials_search_with_projection_is_recorded(materials_api: MaterialsApiServer) -> None:
    response = httpx.get(
        materials_api.search_url,
        params={"formula": "Si", "_fields": "material_id,band_gap", "_limit": 5},
    )
    assert response.status_code == 200
    body = response.json()
    assert body["data"] == [{"material_id": "mp-149", "band_gap": pytest.approx(0.61, abs=0.01)}]
    assert body["meta"]["total_doc"] == 1

    recorded = materials_api.requests.to("/materials/summary")
    assert len(recorded) == 1
    assert recorded[0].fields == ["material_id", "band_gap"]
    assert recorded[0].query["_limit"] == "5"


def test_materials_full_records_elements_filter_and_nulls(
    materials_api: MaterialsApiServer,
) -> None:
    body = httpx.get(materials_api.search_url, params={"elements": "Fe,O"}).json()
    by_formula = {doc["formula_pretty"]: doc for doc in body["data"]}
    assert set(by_formula) == {"Fe2O3", "LiFePO4"}
    assert by_formula["Fe2O3"]["bulk_modulus"] is None  # explicit null, not missing

    gaas = httpx.get(f"{materials_api.url}/materials/mp-2534").json()["data"][0]
    assert gaas["formula_pretty"] == "GaAs"
    assert set(gaas["bulk_modulus"]) == {"voigt", "reuss", "vrh"}
    assert httpx.get(f"{materials_api.url}/materials/mp-0").status_code == 404


def test_materials_create_is_mutating_and_reset(materials_api: MaterialsApiServer) -> None:
    new = {"material_id": "mp-9999999", "formula_pretty": "SiC", "band_gap": 2.3}
    created = httpx.post(f"{materials_api.url}/materials/", json=new)
    assert created.status_code == 201
    assert created.json()["band_gap"] == 2.3
    assert httpx.post(f"{materials_api.url}/materials/", json=new).status_code == 409
    assert "mp-9999999" in materials_api.store
    materials_api.reset()
    assert "mp-9999999" not in materials_api.store


def test_materials_openapi_document(materials_api: MaterialsApiServer) -> None:
    spec = httpx.get(materials_api.openapi_url).json()
    assert spec["openapi"].startswith("3.1")
    operation_ids = {op["operationId"] for path in spec["paths"].values() for op in path.values()}
    assert {"search", "get_material", "create_material"} <= operation_ids
    search = spec["paths"]["/materials/summary/"]["get"]
    assert {"formula", "elements", "_fields", "_limit"} <= {p["name"] for p in search["parameters"]}
    doc = spec["components"]["schemas"]["SummaryDoc"]["properties"]
    assert {"type": "null"} in doc["band_gap"]["anyOf"]
    assert {"$ref": "#/components/schemas/ElasticModuli"} in doc["bulk_modulus"]["anyOf"]


def test_materials_api_key(materials_api: MaterialsApiServer) -> None:
    materials_api.api_key = "secret-key"
    assert httpx.get(materials_api.search_url).status_code == 401
    ok = httpx.get(materials_api.search_url, headers={"x-api-key": "secret-key"})
    assert ok.status_code == 200
    assert httpx.get(materials_api.openapi_url).status_code == 200  # spec stays public
    sent = [r.headers.get("x-api-key") for r in materials_api.requests.to("/materials")]
    assert sent == [None, "secret-key"]


@pytest.mark.parametrize("kind", ["429", "503", "500", "404", "401"])
def test_materials_status_faults(materials_api: MaterialsApiServer, kind: str) -> None:
    materials_api.faults.fail_next(kind)
    faulted = httpx.get(materials_api.search_url)
    assert faulted.status_code == int(kind)
    if kind == "429":
        assert faulted.headers["retry-after"] == "1"
    assert httpx.get(materials_api.search_url).status_code == 200  # one-shot
    assert materials_api.faults.served == [(kind, "/materials/summary/")]
    assert materials_api.requests[0].fault == kind


def test_materials_body_faults(materials_api: MaterialsApiServer) -> None:
    materials_api.faults.fail_next("malformed_json")
    bad = httpx.get(materials_api.search_url)
    assert bad.status_code == 200
    assert bad.headers["content-type"].startswith("application/json")
    with pytest.raises(json.JSONDecodeError):
        bad.json()

    materials_api.faults.fail_next("oversized")
    big = httpx.get(materials_api.search_url)
    assert big.status_code == 200
    assert len(big.content) == materials_api.faults.oversized_bytes
    assert big.json()["data"][0]["material_id"] == "mp-149"

    materials_api.faults.fail_next("html")
    html = httpx.get(materials_api.search_url)
    assert html.status_code == 200
    assert html.headers["content-type"].startswith("text/html")


def test_materials_hang_always_and_clear(materials_api: MaterialsApiServer) -> None:
    materials_api.faults.fail_next("hang")
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(materials_api.search_url, timeout=0.3)

    materials_api.faults.always(503)
    assert httpx.get(materials_api.search_url).status_code == 503
    assert httpx.get(materials_api.search_url).status_code == 503
    assert httpx.get(materials_api.openapi_url).status_code == 200  # outside path_prefix
    materials_api.faults.clear()
    assert httpx.get(materials_api.search_url).status_code == 200

    materials_api.faults.fail_next("500", times=2)
    codes = [httpx.get(materials_api.search_url).status_code for _ in range(3)]
    assert codes == [500, 500, 200]


def test_refused_url(refused_url: str) -> None:
    with pytest.raises(httpx.ConnectError):
        httpx.get(refused_url, timeout=2)


# --------------------------------------------------------------------------- OPTIMADE


def test_optimade_info_lists_provider_fields(optimade_server: OptimadeServer) -> None:
    info = httpx.get(f"{optimade_server.v1_url}/info")
    assert info.status_code == 200
    assert info.json()["meta"]["provider"]["prefix"] == "oqmd"

    props = httpx.get(f"{optimade_server.v1_url}/info/structures").json()["data"]["properties"]
    for name in ("_oqmd_band_gap", "_oqmd_stability", "_oqmd_delta_e"):
        assert name in props
    assert props["_oqmd_band_gap"]["unit"] == "eV"
    assert "_mp_stability" not in props
    assert httpx.get(f"{optimade_server.url}/versions").status_code == 200


def test_optimade_filter_and_provider_field(optimade_server: OptimadeServer) -> None:
    response = httpx.get(
        f"{optimade_server.v1_url}/structures",
        params={
            "filter": 'chemical_formula_reduced="Si"',
            "response_fields": "chemical_formula_reduced,_oqmd_band_gap",
        },
    )
    assert response.status_code == 200
    (entry,) = response.json()["data"]
    assert entry["attributes"]["chemical_formula_reduced"] == "Si"
    assert entry["attributes"]["_oqmd_band_gap"] == pytest.approx(0.61, abs=0.02)

    gaas = httpx.get(
        f"{optimade_server.v1_url}/structures",
        params={"filter": 'elements HAS ALL "Ga","As"', "response_fields": "_oqmd_nonexistent"},
    )
    assert gaas.status_code == 200  # unknown provider field: null plus a warning, no error
    assert gaas.json()["data"][0]["attributes"]["_oqmd_nonexistent"] is None


def test_optimade_paging_and_bad_filter(optimade_server: OptimadeServer) -> None:
    url: str | None = f"{optimade_server.v1_url}/structures?page_limit=2"
    ids: list[str] = []
    pages = 0
    while url:
        body = httpx.get(url).json()
        assert len(body["data"]) <= 2
        ids += [entry["id"] for entry in body["data"]]
        nxt = body["links"].get("next")
        url = nxt["href"] if isinstance(nxt, dict) else nxt
        pages += 1
    assert len(ids) == len(set(ids)) == len(optimade_server.structures)
    assert pages >= 3

    bad = httpx.get(f"{optimade_server.v1_url}/structures", params={"filter": "band_gap >>> 1"})
    assert bad.status_code == 400
    error = bad.json()["errors"][0]
    assert error["status"] == "400"
    assert error["title"] == "Bad Request"


# --------------------------------------------------------------------------- Redis


@pytest.mark.redis
def test_redis_ping_stop_restart(redis_server: RedisServer) -> None:
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # no retries: redis-py's default retry policy would spend seconds on the outage below
    client = redis_server.client(decode_responses=True, retry=Retry(NoBackoff(), 0))
    assert client.ping() is True
    client.set("cooldown:mp", "1")
    assert client.get("cooldown:mp") == "1"

    port = redis_server.port
    redis_server.stop()
    with pytest.raises(redis.ConnectionError):
        client.ping()

    redis_server.restart()
    assert redis_server.port == port
    assert client.ping() is True  # same client reconnects
    assert client.get("cooldown:mp") is None  # no persistence


# --------------------------------------------------------------------------- LangSmith


@pytest.mark.parametrize("path", ["zstd-multipart", "multipart", "batch", "single"])
def test_langsmith_client_posts_runs_with_events(langsmith_capture: LangSmithCapture, path: str) -> None:
    from langsmith.run_trees import RunTree

    bic = langsmith_capture.info["batch_ingest_config"]
    flags = langsmith_capture.info["instance_flags"]
    flags["zstd_compression_enabled"] = path == "zstd-multipart"
    bic["use_multipart_endpoint"] = path != "batch"
    client = langsmith_capture.client(**({"auto_batch_tracing": False} if path == "single" else {}))

    root = RunTree(
        name="route_query",
        run_type="chain",
        inputs={"question": "band gap of Si"},
        extra={"metadata": {"provider": "materials_project"}},
        project_name="smoke",
        client=client,
    )
    root.post()
    child = root.create_child(name="fetch_mp", run_type="tool", inputs={"formula": "Si"})
    child.post()
    child.add_event({"name": "fallback", "message": "mp -> oqmd", "kwargs": {"status": 429}})
    child.end(outputs={"band_gap": 0.61})
    child.patch()
    root.end(outputs={"answer": 0.61})
    root.patch()
    client.flush()

    runs = langsmith_capture.wait_for_runs(2, timeout=10)
    root_run = langsmith_capture.run(root.id)
    child_run = langsmith_capture.run(child.id)
    assert root_run is not None and child_run is not None
    assert root_run["name"] == "route_query" and root_run["run_type"] == "chain"
    assert root_run["inputs"] == {"question": "band gap of Si"}
    assert root_run["outputs"] == {"answer": 0.61}
    assert root_run["metadata"]["provider"] == "materials_project"
    assert child_run["parent_run_id"] == str(root.id)
    assert child_run["outputs"] == {"band_gap": 0.61}
    assert [e["name"] for e in child_run["events"]] == ["fallback"]
    assert langsmith_capture.children_of(root.id) == [child_run]
    assert len(runs) == 2

    requests = langsmith_capture.requests
    assert all(r.headers.get("x-api-key") == "test-key" for r in requests)
    ingest = [r for r in requests if r.method in ("POST", "PATCH") and r.status == 202]
    assert ingest
    expected_path = {
        "zstd-multipart": "/runs/multipart",
        "multipart": "/runs/multipart",
        "batch": "/runs/batch",
        "single": "/runs",
    }[path]
    assert any(r.path == expected_path for r in ingest)
    if path == "zstd-multipart":
        assert any(r.headers.get("content-encoding") == "zstd" for r in ingest)


def test_wait_for_helper() -> None:
    state = {"n": 0}

    def bump() -> int:
        state["n"] += 1
        return state["n"] >= 3 and state["n"]

    assert wait_for(bump, timeout=2, interval=0.001) == 3
    with pytest.raises(TimeoutError):
        wait_for(lambda: False, timeout=0.05)
