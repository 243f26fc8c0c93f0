import { referenceDataVersions } from './area-codes.ts';
import {
  classificationOf,
  classifyCode,
  type ExchangeData,
  type LineType,
  type NumberInvalidReason,
} from './classify.ts';
import { type DataSource, type Datasets, dataSourceOf, datasetVersions } from './datasets.ts';
import { type ParseFailureReason, type ParseNote, parsePhone } from './parse-phone.ts';

/** Why a check answered `invalid`: the input could not be read, or the number does not exist. */
export type InvalidReason = ParseFailureReason | NumberInvalidReason;

export interface PhoneCheck {
  /** The input as given. */
  input: string;
  /** '+12015550123'; null when the input could not be read as a NANP number. */
  e164: string | null;
  lineType: LineType;
  invalidReason: InvalidReason | null;
  /** A sentence for people saying why the number is invalid; null when valid. */
  message: string | null;
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
}

function isExchangeData(data: ExchangeData | Datasets): data is ExchangeData {
  return typeof (data as Partial<ExchangeData>).lineTypeCode === 'function';
}

/**
 * Reads and classifies one input: what a single check (`/verify`) answers. Given a datasets
 * snapshot (`VersionedRef.current()`) rather than bare exchange data, the answer also says which
 * versions produced it and whether they are sample data.
 */
export function checkPhone(input: string, data?: ExchangeData | Datasets): PhoneCheck {
  if (data !== undefined && !isExchangeData(data)) {
    return {
      ...checkPhone(input, data.exchange),
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
      extension: null,
      notes: [],
    };
  }
  const { lineType, invalidReason, message } = classificationOf(
    classifyCode(parsed.number, exchangeData),
    parsed.number,
  );
  return {
    input,
    e164: parsed.e164,
    lineType,
    invalidReason,
    message,
    extension: parsed.extension ?? null,
    notes: parsed.notes,
  };
}
