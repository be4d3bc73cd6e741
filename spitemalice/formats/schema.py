"""JSON Schemas (draft 2020-12) for the documents spitemalice writes and reads.

Five schemas ship with the package as data files (``spitemalice/formats/schemas/NAME.schema.json``),
so a program in another language can check a document before sending it:

* ``record``: a game record (:mod:`spitemalice.formats.records`, format ``spitemalice-record``);
* ``state``: a whole game state (:mod:`spitemalice.formats.serialize`, format
  ``spitemalice-state``);
* ``view``: one seat's view (:mod:`spitemalice.formats.serialize`, format ``spitemalice-view``);
* ``ruleset``: a custom rule-set file (:mod:`spitemalice.rules.custom`), as the table a TOML
  reader gives;
* ``message``: one message of the play server's protocol (:mod:`spitemalice.server.protocol`),
  either way: ``$defs/to-server`` what a client sends, ``$defs/to-client`` what it receives.
  Its views and records refer to the ``view`` and ``record`` schemas, which
  :func:`schema_text` bundles into it (in ``$defs``, each under its own ``$id``), so the text
  it gives stands alone.

Every document the library writes validates against its schema (``tests/formats/test_schemas.py``
checks the committed records and thousands of generated states and views).  A schema checks
form only: a document that validates may still break its rule set (a card the deck does not
hold, a move that is illegal at its point); the library's readers check that.
``spitemalice schema NAME`` prints a schema.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from spitemalice.errors import SpiteMaliceError

SCHEMA_NAMES: tuple[str, ...] = ("record", "state", "view", "ruleset", "message")
"""The names :func:`schema` and ``spitemalice schema NAME`` take."""


def schema_text(name: str) -> str:
    """The JSON text of schema ``name`` (one of :data:`SCHEMA_NAMES`), as shipped.

    Raises:
        SpiteMaliceError: ``name`` is not one of :data:`SCHEMA_NAMES`.
    """
    if name not in SCHEMA_NAMES:
        raise SpiteMaliceError(f"no schema named {name!r}; the schemas are "
                               f"{', '.join(SCHEMA_NAMES)}")
    text = _shipped(name)
    if name != "message":
        return text
    bundle = json.loads(text)
    for part in _BUNDLED:  # 2020-12 bundling: "view.schema.json" resolves to the $id inside
        bundle["$defs"][part] = json.loads(_shipped(part))
    return json.dumps(bundle, indent=2, ensure_ascii=False) + "\n"


_BUNDLED = ("view", "record")


def _shipped(name: str) -> str:
    return (resources.files("spitemalice.formats") / "schemas" / f"{name}.schema.json").read_text(
        encoding="utf-8")


def schema(name: str) -> dict[str, Any]:
    """Schema ``name`` (one of :data:`SCHEMA_NAMES`) as a dict, ready for a JSON Schema
    validator (draft 2020-12), e.g. ``jsonschema.Draft202012Validator(schema("record"))``.

    Raises:
        SpiteMaliceError: ``name`` is not one of :data:`SCHEMA_NAMES`.
    """
    loaded: dict[str, Any] = json.loads(schema_text(name))
    return loaded
