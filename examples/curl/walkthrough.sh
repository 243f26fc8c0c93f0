#!/usr/bin/env bash
# The Scrub API with curl alone: the service, your credits, one number, then a small CSV as a bulk
# job, waited for and downloaded. Needs SCRUB_API_KEY; SCRUB_API_URL defaults to a local service.
set -euo pipefail

API="${SCRUB_API_URL:-http://localhost:8787}"
if [ -z "${SCRUB_API_KEY:-}" ]; then
  echo "walkthrough: set SCRUB_API_KEY to your API key (the API page of the dashboard)" >&2
  exit 2
fi

# --fail-with-body: a 4xx or 5xx answer fails the script, and its JSON error is still printed.
call() { curl --silent --show-error --fail-with-body -H "x-api-key: $SCRUB_API_KEY" "$@"; }
# One string field of a JSON answer, without jq: "job_id":"..." -> ...
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }

echo "== GET /health (no key needed)"
curl --silent --show-error --fail-with-body "$API/health"
echo

echo "== GET /credits"
call "$API/credits"
echo

echo "== GET /verify?p=... (one credit; invalid numbers are free)"
call --get "$API/verify" --data-urlencode "p=(201) 234-5678"
echo

echo "== POST /bulk/jobs (a small CSV sent inline as csv_content)"
# JSON's \n is a line break: the file is Name,Phone then three rows.
body='{"file_name":"walkthrough.csv","phone_col":"Phone","header_row":1,
       "csv_content":"Name,Phone\nAnn,(201) 234-5678\nCid,800-555-1234\nDee,123-456-7890\n"}'
job=$(call -X POST "$API/bulk/jobs" -H 'content-type: application/json' --data "$body")
job_id=$(printf '%s' "$job" | field job_id)
echo "job $job_id"

echo "== POST /bulk/jobs/$job_id/submit (charges one credit per row; duplicates and invalid numbers are given back)"
call -X POST "$API/bulk/jobs/$job_id/submit" >/dev/null
echo "submitted"

echo "== GET /bulk/jobs/$job_id?wait=25 (answered as soon as the job ends)"
while :; do
  job=$(call "$API/bulk/jobs/$job_id?wait=25")
  status=$(printf '%s' "$job" | field status)
  echo "status $status"
  case "$status" in
    completed) break ;;
    failed) echo "walkthrough: the job failed: $job" >&2; exit 1 ;;
  esac
done
reference=$(printf '%s' "$job" | field file_reference)

echo "== GET /files/$reference/result (every row, plus Line Type and DNC)"
call "$API/files/$reference/result"
