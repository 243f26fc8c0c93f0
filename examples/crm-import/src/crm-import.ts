import { readFile, writeFile } from 'node:fs/promises';
import { APIConnectionError, APIError, Scrub, type VerifyResult } from '@scrub/sdk';

/** A contact as the CRM exported it: any fields, the number in `phone`. */
export interface Contact {
  phone?: unknown;
  [field: string]: unknown;
}

/**
 * What is written back to each contact. `dnc` is `dnc` (on a list), `clean` (checked against at
 * least one list and on none), `unchecked` (no loaded list covers the number: never read as clean)
 * or `not_a_number`. `callable` is true only for a real number checked and clean.
 */
export interface ScrubFields {
  line_type: VerifyResult['line_type'] | null;
  dnc: 'dnc' | 'clean' | 'unchecked' | 'not_a_number' | null;
  callable: boolean;
  scrub_error: string | null;
}

function fieldsOf(result: VerifyResult): ScrubFields {
  const dnc =
    result.dnc === 1
      ? 'dnc'
      : result.dnc === 0
        ? 'clean'
        : result.line_type === 'invalid'
          ? 'not_a_number'
          : 'unchecked';
  return { line_type: result.line_type, dnc, callable: dnc === 'clean', scrub_error: null };
}

const notChecked = (why: string): ScrubFields => ({
  line_type: null,
  dnc: null,
  callable: false,
  scrub_error: why,
});

/**
 * Every contact, in order, with the scrub fields added. Numbers go to the API with
 * `scrub.verify.many` (a few at a time, each distinct number once); a contact without a number, or
 * whose check failed, says so in `scrub_error` and is not callable. An error that stops the run
 * (no credits, bad key, API unreachable) is thrown: nothing is written half-checked.
 */
export async function scrubContacts(scrub: Scrub, contacts: Contact[]): Promise<(Contact & ScrubFields)[]> {
  const numbers = [
    ...new Set(contacts.map((contact) => String(contact.phone ?? '').trim()).filter((phone) => phone !== '')),
  ];
  const answers = new Map<string, ScrubFields>();
  for await (const outcome of scrub.verify.many(numbers)) {
    answers.set(outcome.input, outcome.error ? notChecked(outcome.error.message) : fieldsOf(outcome.result));
  }
  return contacts.map((contact) => {
    const phone = String(contact.phone ?? '').trim();
    return { ...contact, ...(phone === '' ? notChecked('no phone number') : answers.get(phone)!) };
  });
}

async function main(args: string[]): Promise<number> {
  const [input, output] = args;
  if (!input || !output) {
    console.error('Usage: node src/crm-import.ts <contacts.json> <scrubbed.json>');
    return 2;
  }
  const contacts = JSON.parse(await readFile(input, 'utf8')) as unknown;
  if (!Array.isArray(contacts)) {
    console.error(`${input} must hold a JSON array of contacts, each with a "phone" field`);
    return 2;
  }
  // SCRUB_API_URL and SCRUB_API_KEY come from the environment.
  const scrub = new Scrub();
  try {
    const scrubbed = await scrubContacts(scrub, contacts as Contact[]);
    await writeFile(output, `${JSON.stringify(scrubbed, null, 2)}\n`);
    const callable = scrubbed.filter((contact) => contact.callable).length;
    const failed = scrubbed.filter((contact) => contact.scrub_error !== null).length;
    console.error(
      `${scrubbed.length} contacts: ${callable} callable, ${failed} not checked; written to ${output}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof APIConnectionError) {
      console.error(`${error.message}. Is the Scrub API running? Set SCRUB_API_URL to its address.`);
    } else if (error instanceof APIError) {
      console.error(`The Scrub API refused the run, nothing was written: ${error.message}`);
    } else {
      throw error;
    }
    return 1;
  }
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
