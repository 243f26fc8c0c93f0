import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { LOCAL_KEYS } from '../src/config/payment-settings.js';
import type { Database } from '../src/storage/schema.js';

/**
 * Saves one of Stripe's test cards (`pm_card_chargeCustomerFail`...) on the account's payment
 * customer straight at the built-in provider, as a finished card form would have, and answers its
 * id: `PUT /payment-method` picks only among saved cards. The account has set up a card before.
 */
export async function saveTestCard(
  app: FastifyInstance,
  db: Kysely<Database>,
  profileId: string,
  testPaymentMethod: string,
): Promise<string> {
  const { payment_customer_id } = await db
    .selectFrom('profiles')
    .select('payment_customer_id')
    .where('id', '=', profileId)
    .executeTakeFirstOrThrow();
  const res = await app.inject({
    method: 'POST',
    url: `/_stripe/v1/payment_methods/${testPaymentMethod}/attach`,
    headers: {
      authorization: `Bearer ${LOCAL_KEYS.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: `customer=${payment_customer_id}`,
  });
  if (res.statusCode !== 200)
    throw new Error(`attaching ${testPaymentMethod}: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}
