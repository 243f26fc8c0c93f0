import { routes } from '@scrub/contract';
import { deleteAccount } from '../account/account-deletion.js';
import { exportAccount } from '../account/account-export.js';
import type { ServerContext } from '../context.js';
import { identityAdminFor } from '../identity-admin/setup.js';

/** The account's data: all of it as one document, and the account's deletion. */
export function registerAccountData(context: ServerContext): void {
  const { registry, database, config, publicUrl } = context;
  const identity = identityAdminFor(config, context.identity);

  registry.add(routes.exportAccount, ({ principal }) =>
    exportAccount(database.db, principal.profileId, {
      publicUrl: publicUrl(),
      retentionDays: config.fileRetentionDays,
    }),
  );

  registry.add(routes.deleteAccount, async ({ principal, body, request }) => {
    // Checks answered a moment ago are still on their way to the phone log: they go too.
    await context.checkLog.settled();
    const { tombstone, cardsKept } = await deleteAccount(
      {
        db: database.db,
        blobStore: context.blobStore,
        identity,
        cards: context.payments.cards,
        logger: request.log,
      },
      principal.profileId,
      body.confirm_email,
    );
    context.apiKeyOwners.forget(principal.profileId);
    await context.suppressionLists.changed(principal.profileId);
    const cards =
      cardsKept > 0 ? ` ${cardsKept} saved card(s) could not be removed at the payment provider.` : '';
    return {
      message: `Your account was deleted. The ledger and audit rows stay under ${tombstone}, without your e-mail address.${cards}`,
      tombstone_id: tombstone,
    };
  });
}
