"""How the interop clients compare what a client read with what they expect: one wording of a
mismatch ("<check> mismatch: expected E, got A", which run.sh's negative controls look for), one
notion of equal JSON, shared by py_client.py and inspector_client.py."""

from __future__ import annotations

import json
from typing import Any


def pick(obj: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: obj[k] for k in keys if k in obj}


def norm_content(block: dict[str, Any]) -> dict[str, Any]:
    """What the checks compare of a content block: its type and text (an embedded resource's too)."""
    return {"type": block.get("type"), **pick(block, "text"),
            **pick(block.get("resource") or {}, "uri", "mimeType", "text", "blob")}


def canon(value: Any) -> Any:
    """JSON value for comparison: 21 and 21.0 are one number (SDKs differ); True is not 1."""
    if isinstance(value, dict):
        return {k: canon(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canon(v) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return ("number", float(value))
    return value


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))  # as JSON.stringify and serde_json


def check(errors: list[str], what: str, expected: Any, actual: Any) -> None:
    if canon(expected) != canon(actual):
        errors.append(f"{what} mismatch: expected {compact(expected)}, got {compact(actual)}")


def check_metadata(errors: list[str], expected: dict[str, Any], seen: dict[str, Any]) -> None:
    """Compares what a client read of the server (`serverInfo`) and of each listed item
    (`tools`, `resources`, `resourceTemplates`, `prompts`, each by its key) with --expect-metadata,
    on the keys that gives."""
    for kind, want in expected.items():
        if kind == "serverInfo":
            got = seen.get("serverInfo")
            check(errors, "serverInfo", want, pick(got, *want) if isinstance(got, dict) else got)
            continue
        for key, fields in want.items():
            item = seen.get(kind, {}).get(key)
            check(errors, f"{kind} {key}", fields, pick(item, *fields) if item is not None else None)
