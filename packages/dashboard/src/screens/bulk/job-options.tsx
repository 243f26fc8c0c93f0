import { Checkbox, Paper, Stack, Title } from '@mantine/core';
import type { AccountLists, BulkJobCreateParams } from '@scrub/sdk';
import { useAccountLists } from '../../data/account';
import { useCarrierLookupOffer } from '../../data/service';

/**
 * What a customer chooses for one job beyond its columns: the operator lists its result flags
 * (null: the account's default lists, as account settings chose them), a live carrier lookup, and
 * the calling window (the free Time Zone and Callable Now result columns, which Export filters on).
 */
export interface JobChoices {
  lists: string[] | null;
  lookup: boolean;
  callingWindow: boolean;
}

export const NO_CHOICES: JobChoices = { lists: null, lookup: false, callingWindow: false };

/** The choices as the bulk job takes them: lists only once changed, lookup and columns only when ticked. */
export const jobChoicesPayload = (
  choices: JobChoices,
): Pick<BulkJobCreateParams, 'lists' | 'lookup' | 'columns'> => ({
  ...(choices.lists === null ? {} : { lists: choices.lists }),
  ...(choices.lookup ? { lookup: 'carrier' } : {}),
  ...(choices.callingWindow ? { columns: ['timezone', 'callable_now'] } : {}),
});

/** Credits a carrier lookup adds to each record of the job: 0 unless asked and offered. */
export function useLookupPrice(choices: JobChoices): number {
  const offer = useCarrierLookupOffer();
  return choices.lookup && offer ? offer.credits : 0;
}

/** The job's options with what the service offers: the calling window always, lists and lookup where offered. */
export function JobOptions({ value, onChange }: { value: JobChoices; onChange(next: JobChoices): void }) {
  const lists = useAccountLists().data ?? null;
  const lookup = useCarrierLookupOffer();
  return <JobOptionsForm lists={lists} lookup={lookup} value={value} onChange={onChange} />;
}

export function JobOptionsForm({
  lists,
  lookup,
  value,
  onChange,
}: {
  lists: AccountLists | null;
  lookup: { credits: number } | null;
  value: JobChoices;
  onChange(next: JobChoices): void;
}) {
  const available = lists?.available ?? [];
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="job-options-title">
      <Title order={2} size="h4" id="job-options-title">
        Options
      </Title>
      <Stack gap="sm" mt="xs">
        {available.length > 0 && (
          <Checkbox.Group
            label="Flag lists for this file"
            description="A List column each; a flag is a risk to weigh, never a do-not-call listing. Your account's default lists are ticked."
            value={value.lists ?? lists?.lists ?? []}
            onChange={(chosen) => onChange({ ...value, lists: chosen })}
          >
            <Stack gap="xs" mt="xs">
              {available.map((list) => (
                <Checkbox
                  key={list.name}
                  value={list.name}
                  label={`${list.name}${list.released_on ? ` (released ${list.released_on})` : ''}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        {lookup !== null && (
          <Checkbox
            label={`Look each number up with its carrier (${lookup.credits.toLocaleString('en-US')} credit${lookup.credits === 1 ? '' : 's'} more a record, given back for numbers the carrier lookup does not answer)`}
            description="Adds Line Type Source and Ported columns: a line type from a live lookup rather than the exchange's carrier"
            checked={value.lookup}
            onChange={(event) => onChange({ ...value, lookup: event.currentTarget.checked })}
            data-testid="carrier-lookup"
          />
        )}
        <Checkbox
          label="Add the calling window (free)"
          description="Adds Time Zone and Callable Now columns: 1 when it is 8 am to 9 pm in every time zone of the number's area code as the file is scrubbed, 0 when not. Export can then keep only the callable rows."
          checked={value.callingWindow}
          onChange={(event) => onChange({ ...value, callingWindow: event.currentTarget.checked })}
          data-testid="calling-window"
        />
      </Stack>
    </Paper>
  );
}
