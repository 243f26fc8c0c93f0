import { Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** How much of the file has been sent, as a percentage and a bar; `children` go under the bar. */
export function UploadProgress({
  progress,
  testId,
  children,
}: {
  progress: number;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm">Uploading... {Math.floor(progress)}%</Text>
      <Progress value={progress} aria-label="Upload progress" data-testid={testId} />
      {children}
    </Stack>
  );
}
