import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import type { DncListDate } from '@scrub/contract';
import { parsePhone } from '@scrub/engine/preview';
import type { VerifyResult } from '@scrub/sdk';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage } from '../../api/error-message';
import { DncListDates, DncListsPanel, listsNotice, STALE_COLOR } from '../../common/dnc-lists';
import { useVerifyNumber } from '../../data/verify';

/**
 * What is typed or pasted, read as `/verify` reads it ("(201) 234-5678", "+1 201-234-5678"): its ten
 * digits once it is a whole number, else its digits as typed so far (at most ten).
 */
export function phoneDigits(typed: string): string {
  const parsed = parsePhone(typed);
  return parsed.ok ? parsed.digits : typed.replace(/\D/g, '').slice(0, 10);
}

/** US only: ten digits, sent with +1 as the contract's `p`. */
const TestSchema = z.object({
  digits: z.string().regex(/^\d{10}$/, 'Enter a 10-digit phone number'),
});
type TestForm = z.infer<typeof TestSchema>;

const lineTypeColor: Record<string, string> = {
  mobile: 'blue.9',
  landline: 'grape.9',
  voip: 'cyan.9',
  toll_free: 'indigo.9',
  invalid: 'red.9',
};

/** DNC: listed, clean (checked and on no list), unchecked (no list covers it: never shown as clean), or nothing to call. */
function dncBadge(result: VerifyResult): { label: string; color: string } {
  if (result.dnc === 1) return { label: 'DNC', color: 'red.9' };
  if (result.dnc === 0) return { label: 'Clean', color: 'teal.9' };
  if (result.line_type === 'invalid') return { label: 'Not looked up', color: 'gray.8' };
  // A list covering it is loaded but too old to call it clean, or none covering it is loaded.
  const stale = result.dnc_lists?.some((date) => date.stale) ?? false;
  return {
    label: stale ? 'Unchecked: DNC list too old' : 'Unchecked: no DNC list loaded',
    color: STALE_COLOR,
  };
}

/**
 * Test a number: before the test, the shared do-not-call lists the check will consult (`lists`,
 * from `/config`; none shown while unknown); after it, the lists the answer rests on.
 */
export function TestNumberForm({ hasKey, lists }: { hasKey: boolean; lists?: DncListDate[] | undefined }) {
  const form = useForm<TestForm>({ resolver: zodResolver(TestSchema), defaultValues: { digits: '' } });
  const digits = form.watch('digits');
  const check = useVerifyNumber();

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="test-title">
      <Title order={2} size="h4" id="test-title">
        Test a number
      </Title>
      <form onSubmit={form.handleSubmit((values) => check.mutate(values.digits))} noValidate>
        <Group align="flex-end" mt="sm">
          <TextInput
            label="Phone number"
            leftSection={<Text size="sm">+1</Text>}
            inputMode="numeric"
            autoComplete="tel-national"
            description={hasKey ? 'Enter a 10-digit phone number' : 'Generate an API key first'}
            error={form.formState.errors.digits?.message}
            {...form.register('digits', {
              onChange: (event) => form.setValue('digits', phoneDigits(event.target.value)),
            })}
            data-testid="test-phone"
          />
          <Button type="submit" disabled={!hasKey || digits.length !== 10} loading={check.isPending}>
            Test
          </Button>
        </Group>
      </form>
      {lists && !check.data && (
        <DncListsPanel lists={lists} notice={listsNotice(lists)} title="Do-not-call lists a test consults" />
      )}
      {check.isError && (
        <Alert color="red" mt="md" title="Verification Failed" role="alert">
          {errorMessage(check.error, 'Failed to verify phone number')}
        </Alert>
      )}
      {check.data && <TestResult result={check.data} />}
    </Paper>
  );
}

function TestResult({ result }: { result: VerifyResult }) {
  return (
    <Alert color="teal" mt="md" title="Result" data-testid="test-result">
      <SimpleGrid cols={2} spacing={4} maw={420}>
        <Text size="sm">Phone</Text>
        <Text size="sm" fw={600}>
          {result.phone_number}
        </Text>
        <Text size="sm">Line type</Text>
        <div>
          <Badge color={lineTypeColor[result.line_type] ?? 'gray.8'}>
            {result.line_type.replace('_', ' ')}
          </Badge>
        </div>
        <Text size="sm">DNC</Text>
        <div>
          <Badge color={dncBadge(result).color}>{dncBadge(result).label}</Badge>
        </div>
        {result.dnc !== null && (
          <>
            <Text size="sm">Lists checked</Text>
            <Text size="sm">{result.dnc_lists_checked.join(', ')}</Text>
          </>
        )}
        {result.dnc_lists && result.dnc_lists.length > 0 && (
          <>
            <Text size="sm">Lists and dates</Text>
            <DncListDates lists={result.dnc_lists} testId="test-dnc-lists" />
          </>
        )}
        <Text size="sm">Cached</Text>
        <Text size="sm">{result.cached ? 'Yes' : 'No'}</Text>
        <Text size="sm">Credits used</Text>
        <Text size="sm" data-testid="test-credits-used">
          {result.credits_deducted ?? 0}
        </Text>
      </SimpleGrid>
      {result.invalid_message && (
        <Text size="sm" mt="xs">
          {result.invalid_message}
        </Text>
      )}
    </Alert>
  );
}
