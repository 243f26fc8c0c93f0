import {
  classificationOf,
  classifyCode,
  type ExchangeData,
  type LineType,
  type NumberInvalidReason,
} from './classify.ts';
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
}

/** Reads and classifies one input: what a single check (`/verify`) answers. */
export function checkPhone(input: string, exchangeData?: ExchangeData): PhoneCheck {
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
