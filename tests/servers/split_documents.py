"""A sample archive whose OpenAPI document is split across files, served over loopback HTTP.

``SplitDocumentServer().start()`` serves, under ``/spec/``:

* ``openapi.yaml``: paths in other files (``./paths/samples.yaml``, ``paths/lineage.yaml``);
* ``paths/samples.yaml``: the listing, its parameter from ``../common.yaml#/components/...``
  (a pointer fragment) and its records from ``../schemas/sample.yaml`` beside messages;
* ``schemas/sample.yaml`` and ``schemas/lineage.yaml``: two files that refer to each other
  (a sample has a lineage whose ancestors are samples);
* ``broken.yaml``: a document naming ``./paths/absent.yaml``, which is not there;
* ``foreign.yaml``: a document naming a schema at ``foreign_origin`` (set before reading it).

``GET /samples?material=...`` answers ``{"samples": [...], "messages": [...]}``. ``requests``
lists every path asked for, in order.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from cookbook.services.uvicorn_thread import UvicornThread

SAMPLES = [
    {"sample_id": "s-1", "material": "Si", "mass_mg": 12.5, "lineage": {"generation": 1, "ancestors": []}},
    {"sample_id": "s-2", "material": "GaAs", "mass_mg": 3.0, "lineage": {"generation": 2, "ancestors": []}},
]

FILES = {
    "openapi.yaml": """
openapi: 3.1.0
info: {title: Sample archive, version: "1"}
paths:
  /samples:
    $ref: './paths/samples.yaml'
  /samples/{sample_id}/lineage:
    $ref: 'paths/lineage.yaml'
""",
    "paths/samples.yaml": """
get:
  operationId: listSamples
  summary: List the samples of the archive
  parameters:
    - $ref: '../common.yaml#/components/parameters/Material'
  responses:
    '200':
      description: The samples
      content:
        application/json:
          schema:
            type: object
            properties:
              samples:
                type: array
                items: {$ref: '../schemas/sample.yaml'}
              messages:
                type: array
                items: {$ref: '../common.yaml#/components/schemas/Message'}
""",
    "paths/lineage.yaml": """
get:
  operationId: getLineage
  parameters:
    - {name: sample_id, in: path, required: true, schema: {type: string}}
  responses:
    '200':
      description: The lineage of one sample
      content:
        application/json:
          schema: {$ref: '../schemas/lineage.yaml'}
""",
    "common.yaml": """
components:
  parameters:
    Material:
      name: material
      in: query
      description: The sample's material, a chemical formula
      schema: {type: string}
  schemas:
    Message:
      type: object
      properties:
        level: {type: string}
        text: {type: string}
""",
    "schemas/sample.yaml": """
type: object
properties:
  sample_id: {type: string, description: The archive's id of the sample}
  material: {type: string, description: Chemical formula of the sample's material}
  mass_mg: {type: number, description: Mass in milligrams}
  lineage: {$ref: './lineage.yaml'}
""",
    "schemas/lineage.yaml": """
type: object
properties:
  generation: {type: integer}
  ancestors:
    type: array
    items: {$ref: 'sample.yaml'}
""",
    "broken.yaml": """
openapi: 3.1.0
info: {title: Broken archive, version: "1"}
paths:
  /samples:
    $ref: './paths/absent.yaml'
""",
}

FOREIGN = """
openapi: 3.1.0
info: {title: Archive with a schema elsewhere, version: "1"}
paths:
  /samples:
    get:
      operationId: listSamples
      responses:
        '200':
          description: The samples
          content:
            application/json:
              schema:
                type: object
                properties:
                  samples: {type: array, items: {$ref: '%s/spec/schemas/sample.yaml'}}
"""


class SplitDocumentServer:
    """The archive on a loopback port (see the module docstring)."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.foreign_origin = "http://127.0.0.1:9"
        self._thread: UvicornThread | None = None
        self.url = ""

    @property
    def document_url(self) -> str:
        return f"{self.url}/spec/openapi.yaml"

    def app(self) -> Starlette:
        async def spec(request: Request) -> Response:
            path = request.path_params["path"]
            self.requests.append(f"/spec/{path}")
            if path == "foreign.yaml":
                return PlainTextResponse(FOREIGN % self.foreign_origin, media_type="application/yaml")
            text = FILES.get(path)
            if text is None:
                return JSONResponse({"detail": "no such file"}, status_code=404)
            return PlainTextResponse(text, media_type="application/yaml")

        async def samples(request: Request) -> Response:
            self.requests.append("/samples")
            material = request.query_params.get("material")
            found: list[dict[str, Any]] = [s for s in SAMPLES if material in (None, s["material"])]
            messages = [{"level": "info", "text": f"{len(found)} samples"}]
            return JSONResponse({"samples": found, "messages": messages})

        return Starlette(routes=[Route("/spec/{path:path}", spec), Route("/samples", samples)])

    def start(self) -> SplitDocumentServer:
        self._thread = UvicornThread(self.app()).start()
        self.url = self._thread.url
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
