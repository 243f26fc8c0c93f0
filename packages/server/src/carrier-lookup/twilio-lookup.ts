import type { CarrierLookupSettings } from '../config/carrier-lookup-settings.js';

/** What Twilio's line type intelligence said about a number. */
export interface ProviderAnswer {
  providerType: string | null;
  carrierName: string | null;
  mobileCountryCode: string | null;
  mobileNetworkCode: string | null;
}

/** A lookup that gave no answer: the reason, for people. */
export class CarrierLookupFailed extends Error {}

interface LineTypeIntelligence {
  type?: string | null;
  carrier_name?: string | null;
  mobile_country_code?: string | null;
  mobile_network_code?: string | null;
  error_code?: number | null;
}

const textOrNull = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Twilio Lookup v2 with line type intelligence: `GET {base}/v2/PhoneNumbers/{E.164}?Fields=line_type_intelligence`,
 * HTTP basic auth with the account SID (or an API key's SID) and its token. Each call has the
 * settings' deadline, body included; any failure (time out, refused, a non-2xx, an `error_code`,
 * no `line_type_intelligence`) throws CarrierLookupFailed, never an answer made up.
 */
export class TwilioLookup {
  readonly provider = 'twilio';
  readonly #url: string;
  readonly #authorization: string;
  readonly #timeoutMs: number;

  constructor(twilio: NonNullable<CarrierLookupSettings['twilio']>, timeoutMs: number) {
    this.#url = twilio.baseUrl;
    this.#authorization = `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`;
    this.#timeoutMs = timeoutMs;
  }

  async lookUp(e164: string): Promise<ProviderAnswer> {
    const url = `${this.#url}/v2/PhoneNumbers/${encodeURIComponent(e164)}?Fields=line_type_intelligence`;
    let body: { line_type_intelligence?: LineTypeIntelligence | null };
    try {
      const response = await fetch(url, {
        headers: { authorization: this.#authorization, accept: 'application/json' },
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new CarrierLookupFailed(`Twilio Lookup answered HTTP ${response.status}`);
      }
      body = (await response.json()) as typeof body;
    } catch (error) {
      if (error instanceof CarrierLookupFailed) throw error;
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new CarrierLookupFailed(
        timedOut
          ? `Twilio Lookup did not answer within ${this.#timeoutMs} ms`
          : `Twilio Lookup could not be reached (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const found = body?.line_type_intelligence;
    if (!found || typeof found !== 'object') {
      throw new CarrierLookupFailed('Twilio Lookup answered without line type intelligence');
    }
    if (found.error_code !== null && found.error_code !== undefined) {
      throw new CarrierLookupFailed(`Twilio Lookup answered error ${found.error_code}`);
    }
    return {
      providerType: textOrNull(found.type),
      carrierName: textOrNull(found.carrier_name),
      mobileCountryCode: textOrNull(found.mobile_country_code),
      mobileNetworkCode: textOrNull(found.mobile_network_code),
    };
  }
}
