#!/usr/bin/env bash
# Scrubs a lead list with the scrub CLI and fails the CI job when a row matches a condition.
#   SCRUB_API_KEY  the API key (a CI secret): the only credential the job needs
#   SCRUB_API_URL  the service's address (default: the CLI's, http://localhost:8787)
#   LEADS          the CSV to scrub (default: leads.csv)
#   PHONE_COLUMN   its phone column, by header text or number from 1 (default: Phone)
#   FAIL_ON        conditions that fail the job (default: dnc,unchecked,invalid)
#   RESULT         where the result CSV goes (default: scrubbed.csv)
# Exit codes are scrub's: 0 clean, 5 a row matched FAIL_ON (the result is still written),
# 3 bad or missing key, 4 not enough credits, 1 anything else.
set -euo pipefail

if [ -z "${SCRUB_API_KEY:-}" ]; then
  echo "scrub-leads: SCRUB_API_KEY is not set: add your Scrub API key as a CI secret" >&2
  exit 3
fi

# --no-input: a CI job never waits on a prompt. --wait: the result, then the --fail-on verdict.
scrub --no-input bulk "${LEADS:-leads.csv}" \
  --phone-col "${PHONE_COLUMN:-Phone}" \
  --name "$(basename "${LEADS:-leads.csv}")" \
  --wait \
  --fail-on "${FAIL_ON:-dnc,unchecked,invalid}" \
  -o "${RESULT:-scrubbed.csv}"
