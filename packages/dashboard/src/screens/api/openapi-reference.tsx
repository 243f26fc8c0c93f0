import { Anchor, Badge, Code, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { errorMessage } from '../../api/error-message';
import { DataTable } from '../../common/data-table';
import { useOpenApi } from '../../data/service';

interface Operation {
  method: string;
  path: string;
  summary: string;
}

/** Every operation of the service's OpenAPI document, in the document's order. */
function operationsOf(paths: Record<string, unknown>): Operation[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries((item ?? {}) as Record<string, { summary?: string }>).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      summary: operation?.summary ?? '',
    })),
  );
}

/**
 * The whole API from the service's own OpenAPI 3.1 document (`GET /openapi.json`), which is written
 * from the contract: what the page lists is what the service serves, and the link is what an
 * integrator hands to a client generator in any language.
 */
export function OpenApiReference() {
  const document = useOpenApi();
  const url = `${window.location.origin}/openapi.json`;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="reference-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="reference-title">
          Every endpoint
        </Title>
        <Text size="sm">
          The API as an OpenAPI 3.1 document: <Anchor href={url}>{url}</Anchor>. Give it to a client generator
          (for example <Code>openapi-generator-cli generate -i {url} -g python</Code>) to call Scrub from any
          language.
        </Text>
        {document.isError && <Text c="red.8">{errorMessage(document.error)}</Text>}
        {document.data && (
          <DataTable testId="openapi-operations" headers={['Method', 'Path', 'What it does']}>
            {operationsOf(document.data.paths).map((operation) => (
              <Table.Tr key={`${operation.method} ${operation.path}`}>
                <Table.Td>
                  <Badge variant="light" color="gray" radius="sm">
                    {operation.method}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Code>{operation.path}</Code>
                </Table.Td>
                <Table.Td>{operation.summary}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </Stack>
    </Paper>
  );
}
