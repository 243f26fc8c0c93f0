import type { CarrierLookup } from '@scrub/contract';
import type { Kysely } from 'kysely';
import { insufficientCredits } from '../account/ledger.js';
import type { CheckCharger } from '../checks/check-charger.js';
import type { CarrierLookupSettings } from '../config/carrier-lookup-settings.js';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';
import { lineTypeOfTwilioType } from './twilio-line-types.js';
import { CarrierLookupFailed, type ProviderAnswer, TwilioLookup } from './twilio-lookup.js';

/** How long a provider's answer is reused before the number is looked up again. */
export const CARRIER_LOOKUP_DAYS = 30;
const DAY_MS = 86_400_000;

/** The provider a lookup asks: TwilioLookup, or a test's. */
export interface CarrierProvider {
  readonly provider: string;
  lookUp(e164: string): Promise<ProviderAnswer>;
}

/**
 * Live carrier lookups, asked only when a customer asks (`lookup=carrier`). A provider's answer is
 * kept in `carrier_lookups` and reused for 30 days by every account (one paid query per number a
 * month); a failure is never kept, and answers `failed` with the reason.
 */
export class CarrierLookups {
  /** Credits one answered lookup costs, beside the check's. */
  readonly credits: number;
  readonly #db: Kysely<Database>;
  readonly #provider: CarrierProvider;
  readonly #now: () => Date;

  constructor(
    db: Kysely<Database>,
    provider: CarrierProvider,
    credits: number,
    now: () => Date = () => new Date(),
  ) {
    this.#db = db;
    this.#provider = provider;
    this.credits = credits;
    this.#now = now;
  }

  /** Who answers: `twilio`, or a test's provider. */
  get provider(): string {
    return this.#provider.provider;
  }

  /** The service's lookups, or null when the operator set none (SCRUB_TWILIO_ACCOUNT_SID...). */
  static fromSettings(db: Kysely<Database>, settings: CarrierLookupSettings): CarrierLookups | null {
    if (settings.twilio === null) return null;
    return new CarrierLookups(db, new TwilioLookup(settings.twilio, settings.timeoutMs), settings.credits);
  }

  /** The lookup of a valid number (E.164): from the last 30 days' answers, else from the provider. */
  async lookUp(e164: string): Promise<CarrierLookup> {
    const now = this.#now();
    const kept = await this.#db
      .selectFrom('carrier_lookups')
      .selectAll()
      .where('phone_number', '=', e164)
      .where('looked_up_at', '>', new Date(now.getTime() - CARRIER_LOOKUP_DAYS * DAY_MS))
      .executeTakeFirst();
    if (kept) {
      return lookupOf(kept.provider, kept.provider_type, kept.carrier_name, kept.looked_up_at);
    }
    let answer: ProviderAnswer;
    try {
      answer = await this.#provider.lookUp(e164);
    } catch (error) {
      if (!(error instanceof CarrierLookupFailed)) throw error;
      return {
        status: 'failed',
        provider: this.#provider.provider,
        provider_type: null,
        carrier_name: null,
        looked_up_at: null,
        message: `${error.message}: the line type is the tables'`,
      };
    }
    const row = {
      phone_number: e164,
      provider: this.#provider.provider,
      provider_type: answer.providerType,
      carrier_name: answer.carrierName,
      mobile_country_code: answer.mobileCountryCode,
      mobile_network_code: answer.mobileNetworkCode,
      looked_up_at: now,
    };
    await this.#db
      .insertInto('carrier_lookups')
      .values(row)
      .onConflict((conflict) => conflict.column('phone_number').doUpdateSet(row))
      .execute();
    return lookupOf(row.provider, row.provider_type, row.carrier_name, now);
  }

  /**
   * Refuses, before anything is asked of the provider, an account whose balance cannot pay for
   * `checks` checks with their lookups (a paused plan is refused too); unlimited plans pass.
   */
  async refuseUnaffordable(charger: CheckCharger, profileId: string, checks: number, reference: string) {
    const balance = await charger.charge(profileId, 0, reference);
    const needed = checks * (1 + this.credits);
    if (!balance.unlimited && balance.remaining < needed)
      throw insufficientCredits(needed, balance.remaining);
  }
}

function lookupOf(provider: string, type: string | null, carrier: string | null, at: Date): CarrierLookup {
  const answered = lineTypeOfTwilioType(type) !== null;
  return {
    status: answered ? 'answered' : 'no_line_type',
    provider,
    provider_type: type,
    carrier_name: carrier,
    looked_up_at: at.toISOString(),
    message: answered
      ? null
      : `The provider's type (${type ?? 'none'}) is no Scrub line type: the line type is the tables'`,
  };
}

/** The service's lookups, or a 400 saying that this service offers none. */
export function carrierLookupsOrRefuse(lookups: CarrierLookups | null): CarrierLookups {
  if (lookups === null) {
    throw new ApiError(
      'bad_request',
      'Carrier lookups are not offered by this service (its operator has not set Twilio Lookup up): ask without lookup=carrier',
    );
  }
  return lookups;
}
