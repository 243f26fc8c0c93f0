import { referenceDataVersions } from './area-codes.ts';
import {
  classificationOf,
  classifyCode,
  type ExchangeData,
  type LineType,
  type NumberInvalidReason,
  numberInvalidMessage,
} from './classify.ts';
import { type DataSource, type Datasets, dataSourceOf, datasetVersions } from './datasets.ts';
import type { DncSet } from './dnc/set.ts';
import { codeGivenListing, DncState, dncStateOf, dncValueOf } from './dnc/verdict.ts';
import { type LineTypeSource, lineTypeSourceOf } from './line-type-source.ts';
import { type ParseFailureReason, type ParseNote, parsePhone } from './parse-phone.ts';

/** Why a check answered `invalid`: the input could not be read, or the number does not exist. */
export type InvalidReason = ParseFailureReason | NumberInvalidReason;

export interface PhoneCheck {
  /** The input as given. */
  input: string;
  /** '+12015550123'; null when the input could not be read as a NANP number. */
  e164: string | null;
  lineType: LineType;
  /**
   * Why the number is invalid; null when valid. Also set on an `unknown_geographic` answer for a
   * number the exchange data calls not in service that a DNC list holds (`exchange_not_in_service`).
   */
  invalidReason: InvalidReason | null;
  /** A sentence for people saying why the number is invalid (or its line type unknown); null when valid. */
  message: string | null;
  /**
   * What the line type rests on (`LineTypeSource`): the exchange data's level that answered,
   * `sample` for generated data, `numbering_plan` for toll free; null when nothing gave the number a
   * line type (unreadable, or invalid by the numbering plan's rules, or no exchange data).
   */
  lineTypeSource: LineTypeSource | null;
  /** Digits of an extension after the number, reported and not part of the check. */
  extension: string | null;
  notes: ParseNote[];
  /**
   * Given datasets: the version of each dataset in the snapshot, and of the area-code table
   * (`nanpa_npa`), whether or not the answer needed them.
   */
  datasetVersions?: Record<string, string>;
  /** Given datasets: `sample` when any of them is generated sample data, else `imported`. */
  dataSource?: DataSource;
  /**
   * Given DNC lists: 1 on a list that counts, 0 valid and not on any list consulted, null when no
   * list covering the number was loaded (unchecked) or the number is invalid and on no list.
   */
  dnc?: 0 | 1 | null;
  /** Given DNC lists: the lists holding the number. */
  dncSources?: string[];
  /** Given DNC lists: the lists consulted for this number, holding it or covering it (`DncSet.covering`). */
  dncListsChecked?: string[];
  /**
   * Given DNC lists: the lists holding or covering the number, stale ones included (see
   * `DncSet.stale`): those whose dates the answer rests on. Empty for an invalid number on no list.
   */
  dncListsCovering?: string[];
}

/** The DNC lists a check consults: a set, and which of its lists count (bit i: `set.lists[i]`). */
export interface DncLookup {
  set: DncSet;
  /** Default: all. */
  mask?: number;
}

function isExchangeData(data: ExchangeData | Datasets): data is ExchangeData {
  return typeof (data as Partial<ExchangeData>).lineTypeCode === 'function';
}

/**
 * Reads and classifies one input: what a single check (`/verify`) answers. Given a datasets
 * snapshot (`VersionedRef.current()`) rather than bare exchange data, the answer also says which
 * versions produced it and whether they are sample data.
 */
export function checkPhone(input: string, data?: ExchangeData | Datasets, dnc?: DncLookup): PhoneCheck {
  if (data !== undefined && !isExchangeData(data)) {
    return {
      ...checkPhone(input, data.exchange, dnc),
      datasetVersions: { ...referenceDataVersions(), ...datasetVersions(data) },
      dataSource: dataSourceOf(data),
    };
  }
  const exchangeData = data;
  const parsed = parsePhone(input);
  if (!parsed.ok) {
    return {
      input,
      e164: null,
      lineType: 'invalid',
      invalidReason: parsed.reason,
      message: parsed.message,
      lineTypeSource: null,
      extension: null,
      notes: [],
      ...(dnc ? { dnc: null, dncSources: [], dncListsChecked: [], dncListsCovering: [] } : {}),
    };
  }
  const { number } = parsed;
  const exchangeCode = classifyCode(number, exchangeData);
  const answer = {
    input,
    e164: parsed.e164,
    ...classificationOf(exchangeCode, number),
    lineTypeSource: lineTypeSourceOf(exchangeCode, number, exchangeData),
    extension: parsed.extension ?? null,
    notes: parsed.notes,
  };
  if (!dnc) return answer;
  const counted = dnc.mask ?? -1;
  const listed = dnc.set.mask(number) & counted;
  const code = codeGivenListing(exchangeCode, listed);
  const covering = dnc.set.covering(number) & counted;
  const state = dncStateOf(code, listed, covering);
  const dncAnswer = {
    dnc: dncValueOf(state),
    dncSources: dnc.set.namesOf(listed),
    // Invalid numbers are looked up too (a listed one answers 1), but silence about one says nothing.
    dncListsChecked: dnc.set.namesOf(state === DncState.INVALID ? 0 : listed | covering),
    dncListsCovering: dnc.set.namesOf(
      state === DncState.INVALID ? listed : listed | (dnc.set.coveringAtAnyAge(number) & counted),
    ),
  };
  if (code === exchangeCode) return { ...answer, ...dncAnswer };
  return {
    ...answer,
    ...dncAnswer,
    lineType: 'unknown_geographic',
    message: `${numberInvalidMessage('exchange_not_in_service', number)} in the exchange data, but a do-not-call list holds the number, so it exists: its line type is unknown`,
  };
}
