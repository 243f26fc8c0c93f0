import { Badge, Table } from '@mantine/core';
import type { CheckLogEntry } from '@scrub/sdk';

const SOURCES: Record<CheckLogEntry['source'], string> = {
  api_key: 'API key',
  token: 'Signed in',
  act_as: 'Admin acting',
};

const KINDS: Record<CheckLogEntry['kind'], string> = {
  single: 'Single check',
  batch: 'Batch',
  test: 'API page test',
};

function DncCell({ dnc }: { dnc: CheckLogEntry['dnc'] }) {
  if (dnc === null) return <Badge color="gray">Unchecked</Badge>;
  return dnc === 1 ? <Badge color="red">DNC</Badge> : <Badge color="green">Clean</Badge>;
}

/** A page of the phone log: one check a row, newest first. */
export function ChecksTable({ checks }: { checks: CheckLogEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped withTableBorder data-testid="checks-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Checked at</Table.Th>
            <Table.Th>Number</Table.Th>
            <Table.Th>Line type</Table.Th>
            <Table.Th>DNC</Table.Th>
            <Table.Th>Credits</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>Kind</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {checks.map((check) => (
            <Table.Tr key={check.id}>
              <Table.Td>{new Date(check.checked_at).toLocaleString()}</Table.Td>
              <Table.Td>{check.line_type === 'invalid' ? check.input : check.phone_number}</Table.Td>
              <Table.Td>{check.line_type}</Table.Td>
              <Table.Td>
                <DncCell dnc={check.dnc} />
              </Table.Td>
              <Table.Td>
                {check.credits}
                {check.cached ? ' (cached)' : ''}
              </Table.Td>
              <Table.Td>{SOURCES[check.source]}</Table.Td>
              <Table.Td>{KINDS[check.kind]}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
