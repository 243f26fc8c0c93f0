import { Code, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { CreditSnapshotSchema, routes, VerifyResultSchema } from '@scrub/contract';

/**
 * The examples' number: a real-looking one the service answers as valid (555-0100 to 555-0199 are
 * reserved for fiction and answer invalid).
 */
export const SAMPLE_NUMBER = '2012345678';

/** One endpoint's examples, written from the contract's route table so they never drift from the API. */
function examples(path: string, query: string) {
  const origin = window.location.origin;
  const url = `${origin}${path}?${query}`;
  return {
    curl: `curl "${url}"`,
    javascript: `const response = await fetch('${url}');\nconst answer = await response.json();\nconsole.log(answer);`,
    sdk: `import { Scrub } from '@scrub/sdk';\n\nconst scrub = new Scrub({ baseURL: '${origin}', apiKey: process.env.SCRUB_API_KEY });\n${
      path === routes.verify.path
        ? `console.log(await scrub.verify('+1${SAMPLE_NUMBER}'));`
        : 'console.log(await scrub.account.credits());'
    }`,
    python: `import requests\n\nanswer = requests.get("${origin}${path}", params={${query
      .split('&')
      .map((pair) => `"${pair.split('=')[0]}": "${pair.split('=')[1]}"`)
      .join(', ')}}).json()\nprint(answer)`,
  };
}

function Endpoint({
  title,
  path,
  query,
  takes,
  returns,
}: {
  title: string;
  path: string;
  query: string;
  takes: string;
  returns: string[];
}) {
  const code = examples(path, query);
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}: <Code>GET {path}</Code>
      </Title>
      <Text size="sm">Takes {takes}.</Text>
      <Text size="sm">Returns {returns.join(', ')}.</Text>
      <Tabs defaultValue="curl">
        <Tabs.List>
          <Tabs.Tab value="curl">curl</Tabs.Tab>
          <Tabs.Tab value="javascript">JavaScript (browser)</Tabs.Tab>
          <Tabs.Tab value="sdk">JavaScript (SDK)</Tabs.Tab>
          <Tabs.Tab value="python">Python</Tabs.Tab>
        </Tabs.List>
        {Object.entries(code).map(([name, text]) => (
          <Tabs.Panel key={name} value={name} pt="xs">
            <Code block>{text}</Code>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

export function ApiDocs({ apiKey }: { apiKey: string | null }) {
  const key = apiKey ?? 'YOUR_API_KEY';
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="docs-title">
      <Stack>
        <Title order={2} size="h4" id="docs-title">
          API documentation
        </Title>
        <Text size="sm">
          Send your key as <Code>k</Code> in the query, or as the <Code>x-api-key</Code> header. One check
          costs 1 credit; credits_deducted and credits_remaining are left out for unlimited plans.
        </Text>
        <Endpoint
          title="Number checker"
          path={routes.verify.path}
          query={`k=${key}&p=${SAMPLE_NUMBER}`}
          takes="k (your API key) and p (the phone number)"
          returns={Object.keys(VerifyResultSchema.shape)}
        />
        <Endpoint
          title="Credits"
          path={routes.getCredits.path}
          query={`k=${key}`}
          takes="k (your API key)"
          returns={Object.keys(CreditSnapshotSchema.shape)}
        />
      </Stack>
    </Paper>
  );
}
