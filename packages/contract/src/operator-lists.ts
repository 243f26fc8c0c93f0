import { z } from 'zod';

/**
 * Operator lists: flag lists the operator imports beside the do-not-call lists (known TCPA
 * litigators, a vendor's list), each by a name of lowercase letters, digits and dashes
 * (`litigators`). A hit is a risk flag, not a do-not-call listing: it never changes `dnc`.
 */
export const LIST_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** The most operator lists one request, job or account may name. */
export const MAX_OPERATOR_LISTS = 32;

export const ListNameSchema = z
  .string()
  .max(64)
  .regex(LIST_NAME_PATTERN, 'a list name is lowercase letters, digits and dashes, such as litigators');

export const ListNamesSchema = z.array(ListNameSchema).max(MAX_OPERATOR_LISTS);

/** `lists=litigators,other` in a query: the names, comma-separated; empty for none. */
export const ListNamesQuerySchema = z
  .string()
  .max(2200)
  .transform((text) =>
    text
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  )
  .pipe(ListNamesSchema);

/**
 * One operator list's answer for a number. `listed`: true when the list holds the number, false
 * for a valid number it does not hold, null when not checked (an invalid number on no list).
 * `released_on`: the list's date as the operator recorded it at import (`YYYY-MM-DD`), or null.
 */
export const OperatorListAnswerSchema = z.object({
  name: z.string(),
  listed: z.boolean().nullable(),
  released_on: z.string().nullable(),
});
export type OperatorListAnswer = z.infer<typeof OperatorListAnswerSchema>;

/** A list the operator imported, as an account sees it. */
export const OperatorListSchema = z.object({
  name: z.string(),
  version: z.string(),
  released_on: z.string().nullable(),
  numbers: z.number().int().nonnegative(),
});
export type OperatorList = z.infer<typeof OperatorListSchema>;

/** `GET /user/lists`: the lists that count for the account's checks by default, and every list there is. */
export const AccountListsSchema = z
  .object({
    /** Checked on every /verify, batch and bulk job that does not name its own `lists`. */
    lists: z.array(z.string()),
    available: z.array(OperatorListSchema),
  })
  .meta({ id: 'AccountLists' });
export type AccountLists = z.infer<typeof AccountListsSchema>;

/** `PUT /user/lists`: the account's default lists; `[]` for none. */
export const UpdateAccountListsSchema = z.object({ lists: ListNamesSchema }).strict();
export type UpdateAccountLists = z.infer<typeof UpdateAccountListsSchema>;
