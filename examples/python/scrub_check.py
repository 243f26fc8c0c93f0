"""Check phone numbers with the Scrub API over plain HTTP: Python's standard library only.

    SCRUB_API_KEY=... python3 scrub_check.py "(201) 234-5678" 800-555-1234

Prints one JSON line per number. SCRUB_API_URL defaults to a local service. Exit codes: 0 done,
1 a check failed, 2 usage.
"""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

API_URL = os.environ.get("SCRUB_API_URL", "http://localhost:8787").rstrip("/")


class ScrubError(Exception):
    """The API's error envelope: {"error": {"code": ..., "message": ...}}."""

    def __init__(self, status, code, message):
        super().__init__(f"{message} ({status} {code})")
        self.status = status
        self.code = code


def verify(phone, api_key):
    """GET /verify?p=...: line type and do-not-call status of one number (dnc None: not checked)."""
    url = f"{API_URL}/verify?{urllib.parse.urlencode({'p': phone})}"
    request = urllib.request.Request(url, headers={"x-api-key": api_key, "accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        try:
            body = json.load(error)["error"]
        except (ValueError, KeyError, TypeError):
            body = {"code": "http_error", "message": error.reason}
        raise ScrubError(error.code, body.get("code"), body.get("message")) from None


def dnc_word(result):
    """dnc 1 is 'dnc', 0 'clean'; None is 'unchecked' (no list covers it), never clean."""
    if result["dnc"] == 1:
        return "dnc"
    if result["dnc"] == 0:
        return "clean"
    return "not_a_number" if result["line_type"] == "invalid" else "unchecked"


def main(argv):
    api_key = os.environ.get("SCRUB_API_KEY")
    if not api_key or not argv:
        print('usage: SCRUB_API_KEY=... python3 scrub_check.py <phone> [<phone>...]', file=sys.stderr)
        return 2
    for phone in argv:
        try:
            result = verify(phone, api_key)
        except ScrubError as error:
            print(f"{phone}: {error}", file=sys.stderr)
            return 1
        except urllib.error.URLError as error:
            print(f"Could not reach {API_URL}: {error.reason}. Set SCRUB_API_URL.", file=sys.stderr)
            return 1
        line = {"input": phone, "phone_number": result["phone_number"], "line_type": result["line_type"],
                "dnc": dnc_word(result), "credits_remaining": result.get("credits_remaining")}
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
