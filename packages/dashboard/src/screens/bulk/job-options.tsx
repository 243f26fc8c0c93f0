import { Checkbox, Paper, Stack, Title } from '@mantine/core';
import type { AccountLists, BulkJobCreateParams } from '@scrub/sdk';
import { useAccountLists } from '../../data/account';
import { useCarrierLookupOffer } from '../../data/service';

/**
 * What a customer chooses for one job beyond its columns: the operator lists its result flags
 * (null: the account's default lists, as account settings chose them) and a live carrier lookup.
 */
export interface JobChoices {
  lists: string[] | null;
  lookup: boolean;
}

export const NO_CHOICES: JobChoices = { lists: null, lookup: false };

/** The choices as the bulk job takes them: lists only once changed, lookup only when ticked. */
export const jobChoicesPayload = (choices: JobChoices): Pick<BulkJobCreateParams, 'lists' | 'lookup'> => ({
  ...(choices.lists === null ? {} : { lists: choices.lists }),
  ...(choices.lookup ? { lookup: 'carrier' } : {}),
});

/** Credits a carrier lookup adds to each record of the job: 0 unless asked and offered. */
export function useLookupPrice(choices: JobChoices): number {
  const offer = useCarrierLookupOffer();
  return choices.lookup && offer ? offer.credits : 0;
}

/** The job's options with what the service offers: nothing is shown when it offers neither. */
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
  if (available.length === 0 && lookup === null) return null;
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
      </Stack>
    </Paper>
  );
}
