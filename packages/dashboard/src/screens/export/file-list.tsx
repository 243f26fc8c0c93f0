import { Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { FileActions } from './file-actions';
import {
  callingWindow,
  FileCount,
  FileCredits,
  FileError,
  type FileListProps,
  FileStatus,
  methodLabel,
  uploadedAt,
} from './file-status';

/** The file list at 600 px and wider. */
export function FileTable({ files, first, filter }: FileListProps) {
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped highlightOnHover data-testid="file-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>File name</Table.Th>
            <Table.Th>Uploaded at</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Total rows</Table.Th>
            <Table.Th>Duplicates</Table.Th>
            <Table.Th>Credits charged</Table.Th>
            <Table.Th>Calling window</Table.Th>
            <Table.Th>Output file</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file, index) => (
            <Table.Tr key={file.file_reference} data-testid="file-row">
              <Table.Td>{first + index}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {file.file_name}
                </Text>
                {file.file_method === 'upload' && (
                  <Text size="xs" c="dimmed">
                    {methodLabel(file)}
                  </Text>
                )}
                <FileError file={file} />
              </Table.Td>
              <Table.Td>{uploadedAt(file)}</Table.Td>
              <Table.Td>
                <FileStatus file={file} />
              </Table.Td>
              <Table.Td>
                <FileCount file={file} value={file.total_records} />
              </Table.Td>
              <Table.Td>
                <FileCount file={file} value={file.duplicates} />
              </Table.Td>
              <Table.Td>
                <FileCredits file={file} />
              </Table.Td>
              <Table.Td data-testid="calling-window-cell">{callingWindow(file)}</Table.Td>
              <Table.Td>
                <FileActions file={file} filter={filter} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The file list below 600 px: one card per file. */
export function FileCards({ files, first, filter }: FileListProps) {
  return (
    <Stack data-testid="file-cards">
      {files.map((file, index) => (
        <Paper key={file.file_reference} withBorder p="sm" data-testid="file-card">
          <Group justify="space-between" mb="xs">
            <Text fw={700}>
              {first + index}. {file.file_name}
              {file.file_method === 'upload' && ` (${methodLabel(file)})`}
            </Text>
            <FileStatus file={file} />
          </Group>
          <FileError file={file} mb="xs" />
          <SimpleGrid cols={2} spacing={4}>
            <Text size="sm" c="dimmed">
              Uploaded at
            </Text>
            <Text size="sm">{uploadedAt(file)}</Text>
            <Text size="sm" c="dimmed">
              Total rows
            </Text>
            <Text size="sm">
              <FileCount file={file} value={file.total_records} />
            </Text>
            <Text size="sm" c="dimmed">
              Duplicates
            </Text>
            <Text size="sm">
              <FileCount file={file} value={file.duplicates} />
            </Text>
            <Text size="sm" c="dimmed">
              Credits charged
            </Text>
            <Text size="sm">
              <FileCredits file={file} />
            </Text>
            <Text size="sm" c="dimmed">
              Calling window
            </Text>
            <Text size="sm">{callingWindow(file)}</Text>
          </SimpleGrid>
          <Group mt="sm">
            <FileActions file={file} filter={filter} />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
