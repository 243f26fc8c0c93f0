import {
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { showFailure } from '../../common/show-failure';
import { useAdjustCredits, useAdminPurchases, useAdminUser, useRefund } from '../../data/admin';
import { notifySuccess } from '../../shell/notify';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Seed 2: purchase history shows 5 at first, Show More adds 5, a new month starts again at 5. */
const PAGE = 5;

interface Refundable {
  purchase_id: string;
  plan_name: string;
  purchase_amount: number;
  refunded_amount: number;
}

/** Refund a purchase (Admins): all that is left by default, or part of it, with the reason the customer is mailed. */
function RefundForm({ userId, purchase, onDone }: { userId: string; purchase: Refundable; onDone(): void }) {
  const left = Math.round((purchase.purchase_amount - purchase.refunded_amount) * 100) / 100;
  const [amount, setAmount] = useState(left);
  const [reason, setReason] = useState('');
  const refund = useRefund(userId, {
    onSuccess: (result) => {
      notifySuccess(result.message);
      onDone();
    },
    onError: showFailure,
  });
  return (
    <Group align="flex-end" gap="sm" aria-label={`Refund ${purchase.plan_name}`} role="group">
      <NumberInput
        label="Refund ($)"
        min={0.01}
        max={left}
        step={1}
        decimalScale={2}
        w={120}
        value={amount}
        onChange={(value) => setAmount(Number(value) || 0)}
      />
      <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
      <Button
        color="red"
        onClick={() => refund.mutate({ purchaseId: purchase.purchase_id, amount, reason: reason.trim() })}
        disabled={amount <= 0 || amount > left || !reason.trim()}
        loading={refund.isPending}
      >
        Refund
      </Button>
      <Button variant="subtle" onClick={onDone}>
        Cancel
      </Button>
    </Group>
  );
}

function PurchaseHistory({ userId }: { userId: string }) {
  const [refunding, setRefunding] = useState<Refundable | null>(null);
  const year = new Date().getFullYear();
  const [month, setMonth] = useState<number | null>(null);
  const [perPage, setPerPage] = useState(PAGE);
  const purchases = useAdminPurchases(userId, year, month, perPage);
  const list = purchases.data?.purchases ?? [];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h5">
          Purchase history ({year})
        </Title>
        <Select
          aria-label="Month"
          placeholder="Every month"
          clearable
          w={150}
          data={MONTHS.map((label, i) => ({ value: String(i + 1), label }))}
          value={month ? String(month) : null}
          onChange={(value) => {
            setMonth(value ? Number(value) : null);
            setPerPage(PAGE);
          }}
        />
      </Group>
      {list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {purchases.isPending ? 'Loading…' : 'No purchases.'}
        </Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Plan</Table.Th>
              <Table.Th>Amount</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((purchase) => (
              <Table.Tr key={purchase.purchase_id}>
                <Table.Td>{purchase.purchase_date.slice(0, 10)}</Table.Td>
                <Table.Td>{purchase.plan_name}</Table.Td>
                <Table.Td>
                  ${purchase.purchase_amount.toFixed(2)}
                  {purchase.refunded_amount > 0 ? ` (refunded $${purchase.refunded_amount.toFixed(2)})` : ''}
                </Table.Td>
                <Table.Td>
                  {purchase.refunded_amount < purchase.purchase_amount && (
                    <Button variant="subtle" size="xs" onClick={() => setRefunding(purchase)}>
                      Refund
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {refunding && (
        <RefundForm
          key={refunding.purchase_id}
          userId={userId}
          purchase={refunding}
          onDone={() => setRefunding(null)}
        />
      )}
      {list.length === perPage && (
        <Button variant="subtle" size="xs" onClick={() => setPerPage(perPage + PAGE)}>
          Show More
        </Button>
      )}
    </Stack>
  );
}

/** Adjust credits (seed 2): a whole number, never below 0; Add is disabled at 0. */
function AdjustCredits({ userId }: { userId: string }) {
  const [amount, setAmount] = useState(0);
  const [reason, setReason] = useState('Added by an admin');
  const add = useAdjustCredits(userId, {
    onSuccess: (result) => {
      notifySuccess(result.message);
      setAmount(0);
    },
    onError: showFailure,
  });
  return (
    <Group align="flex-end" gap="sm">
      <NumberInput
        label="Credits to add"
        min={0}
        step={1}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="strict"
        w={150}
        value={amount}
        onChange={(value) => setAmount(Math.max(0, Math.floor(Number(value) || 0)))}
      />
      <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
      <Button
        onClick={() => add.mutate({ amount, reason: reason.trim() })}
        disabled={amount === 0 || !reason.trim()}
        loading={add.isPending}
      >
        Add
      </Button>
    </Group>
  );
}

/** User Information: the account, its purchase history and a credit adjustment. */
export function UserInfoModal({ userId, onClose }: { userId: string | null; onClose(): void }) {
  const user = useAdminUser(userId);
  const info = user.data;
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={userId !== null}
      onClose={onClose}
      title="User Information"
      size="lg"
      centered
    >
      {info && userId && (
        <Stack>
          <Table variant="vertical" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={160}>Email</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{info.email}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Role</Table.Th>
                <Table.Td>{info.role.name}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Status</Table.Th>
                <Table.Td>{info.status}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Plan</Table.Th>
                <Table.Td>
                  {info.user_plan.plan_name || 'Pay as you go'} ({info.user_plan_status})
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Credits</Table.Th>
                <Table.Td data-testid="user-info-credits">
                  {info.has_unlimited ? 'UNLIMITED' : info.total_credits_balance.toLocaleString('en-US')}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <AdjustCredits userId={userId} />
          <PurchaseHistory userId={userId} />
        </Stack>
      )}
    </Modal>
  );
}
