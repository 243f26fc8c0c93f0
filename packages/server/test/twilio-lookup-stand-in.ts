import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stand-in answers for a number: Twilio's `line_type_intelligence`, or a failure. */
export type StandInAnswer =
  | {
      type: string | null;
      carrier_name?: string | null;
      mobile_country_code?: string | null;
      mobile_network_code?: string | null;
      error_code?: number | null;
    }
  | { fail: 'http_500' | 'hang' };

export const STAND_IN_SID = 'ACtest0000000000000000000000000000';
export const STAND_IN_TOKEN = 'test-auth-token';

/**
 * A local stand-in for Twilio Lookup v2, started by the test: `GET /v2/PhoneNumbers/{E.164}?Fields=line_type_intelligence`
 * with HTTP basic auth, answered in Twilio's documented shape from `answers` (a number it does not
 * know answers `type: null` with error 60600, as Twilio does for an unprovisioned lookup). Counts
 * the lookups it was asked.
 */
export async function startTwilioLookupStandIn(answers: Map<string, StandInAnswer>) {
  const asked: string[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const match = /^\/v2\/PhoneNumbers\/([^/]+)$/.exec(url.pathname);
    const expected = `Basic ${Buffer.from(`${STAND_IN_SID}:${STAND_IN_TOKEN}`).toString('base64')}`;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== expected) {
      return send(401, {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      });
    }
    if (!match || url.searchParams.get('Fields') !== 'line_type_intelligence') {
      return send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    }
    const e164 = decodeURIComponent(match[1]!);
    asked.push(e164);
    const answer = answers.get(e164) ?? { type: null, error_code: 60600 };
    if ('fail' in answer) {
      if (answer.fail === 'hang') {
        hanging.add(res);
        return;
      }
      return send(500, { code: 20500, message: 'Internal Server Error', status: 500 });
    }
    send(200, {
      calling_country_code: '1',
      country_code: 'US',
      phone_number: e164,
      national_format: `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`,
      valid: true,
      validation_errors: [],
      caller_name: null,
      sim_swap: null,
      call_forwarding: null,
      line_status: null,
      line_type_intelligence: {
        error_code: answer.error_code ?? null,
        mobile_country_code: answer.mobile_country_code ?? null,
        mobile_network_code: answer.mobile_network_code ?? null,
        carrier_name: answer.carrier_name ?? null,
        type: answer.type,
      },
      identity_match: null,
      reassigned_number: null,
      sms_pumping_risk: null,
      phone_number_quality_score: null,
      pre_fill: null,
      url: `https://lookups.twilio.com/v2/PhoneNumbers/${e164}`,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    async close() {
      for (const res of hanging) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
