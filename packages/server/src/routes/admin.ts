import { adminMessages, routes } from '@scrub/contract';
import { listAudit } from '../admin/audit-log.js';
import { type AdminCall, UserAdmin } from '../admin/user-admin.js';
import { adminUserInfo, findAccount, listUsers } from '../admin/user-directory.js';
import { clientScope } from '../auth/access.js';
import type { Principal } from '../auth/principal.js';
import type { ServerContext } from '../context.js';
import { idempotencyKeyOf } from '../http/idempotency-key.js';
import type { RouteHandler } from '../http/route-registry.js';
import { identityAdminFor } from '../identity-admin/setup.js';
import { listPurchases } from '../payments/purchase-ledger.js';

const call = (principal: Principal, request: { id: string }): AdminCall => ({
  actor: principal,
  requestId: request.id,
});

/** The account named in the path, if the caller may see it (404 otherwise). */
const target = ({ database }: ServerContext, principal: Principal, params: { user_id: string }) =>
  findAccount(database.db, params.user_id, clientScope(principal));

/**
 * The admin area: users, their credits and passwords, acting as them, and the audit log. An
 * Agency reaches the routes open to it (the access table's `agency` row) for its own clients only:
 * every account is looked up within the caller's scope.
 */
export function registerAdmin(context: ServerContext): void {
  const { registry, database, config, identity, apiKeyOwners, actAsTokens } = context;
  const { db } = database;
  const admin = new UserAdmin({
    db,
    identity: identityAdminFor(config, identity),
    apiKeyOwners,
    actAsTokens,
    onJobEnd: context.bulk.onJobEnd,
    jobEnded: (jobId) => context.bulk.signals.ended(jobId),
  });

  registry.add(routes.adminListUsers, async ({ principal, query }) =>
    listUsers(db, query, clientScope(principal)),
  );

  registry.add(routes.adminGetUser, async ({ principal, params }) =>
    adminUserInfo(db, await target(context, principal, params)),
  );

  registry.add(routes.adminCreateUser, async ({ principal, request, body }) =>
    admin.create(call(principal, request), { ...body, ut: body.ut ?? 'user' }),
  );

  registry.add(routes.adminUpdateUser, async ({ principal, request, params, body }) => {
    await admin.update(call(principal, request), await target(context, principal, params), body);
    return { message: adminMessages.userUpdated };
  });

  registry.add(routes.adminDeleteUser, async ({ principal, request, params }) => {
    await admin.disable(call(principal, request), await target(context, principal, params));
    return { message: adminMessages.userDisabled };
  });

  registry.add(routes.adminEnableUser, async ({ principal, request, params }) => {
    await admin.enable(call(principal, request), await target(context, principal, params));
    return { message: adminMessages.userEnabled };
  });

  registry.add(routes.adminResetPassword, async ({ principal, request, params, body }) => {
    await admin.resetPassword(
      call(principal, request),
      await target(context, principal, params),
      body.password,
    );
    return { message: adminMessages.passwordReset };
  });

  registry.add(routes.adminSignOutUser, async ({ principal, request, params }) => {
    await admin.signOut(call(principal, request), await target(context, principal, params));
    return { message: adminMessages.signedOut };
  });

  registry.add(routes.adminAdjustCredits, async ({ principal, request, params, body }) => {
    const credits = await admin.adjustCredits(
      call(principal, request),
      await target(context, principal, params),
      body,
    );
    return { message: `Credits adjusted by ${body.plan_credits}: the balance is ${credits}.`, credits };
  });

  registry.add(routes.adminActAsUser, async ({ principal, request, params }) =>
    admin.actAs(call(principal, request), await target(context, principal, params)),
  );

  registry.add(routes.adminListPurchases, async ({ principal, params, query }) => ({
    purchases: await listPurchases(db, (await target(context, principal, params)).id, query),
  }));

  registry.add(routes.adminRefundPurchase, adminRefundPurchase(context));

  registry.add(routes.adminListAudit, async ({ query }) => listAudit(db, query));
}

function adminRefundPurchase(context: ServerContext): RouteHandler<typeof routes.adminRefundPurchase> {
  return async ({ principal, request, params, body }) => {
    const refund = await context.payments.refunds.refund(
      call(principal, request),
      await target(context, principal, params),
      params.purchase_id,
      body,
      idempotencyKeyOf(request),
    );
    const amount = refund.amountCents / 100;
    const shortfall =
      refund.creditsShortfall > 0 ? ` (${refund.creditsShortfall} more were already spent)` : '';
    const pass = !refund.pass
      ? ''
      : refund.pass.ended
        ? ' The unlimited pass it paid for has ended.'
        : ` Its ${refund.pass.days} days came off the unlimited pass.`;
    return {
      message: `Refunded $${amount.toFixed(2)}: ${refund.creditsTaken} credits taken back${shortfall}; the balance is ${refund.balance}.${pass}`,
      refund_id: refund.refundId,
      purchase_id: params.purchase_id,
      amount,
      refunded_amount: refund.refundedCents / 100,
      credits_taken: refund.creditsTaken,
      credits_shortfall: refund.creditsShortfall,
      credits: refund.balance,
    };
  };
}
