import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { FileActions } from './file-actions';
import {
  FileCount,
  FileCredits,
  FileError,
  type FileListProps,
  FileStatus,
  methodLabel,
  uploadedAt,
} from './file-status';

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
          </SimpleGrid>
          <Group mt="sm">
            <FileActions file={file} filter={filter} />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
