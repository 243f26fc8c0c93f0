import { Stack, Stepper, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { LoadingAccount, NotAllowedYet } from '../../common/account-gate';
import { StepChooseFile } from '../../common/step-choose-file';
import type { ColumnMapping, WizardFile } from '../../common/wizard-state';
import { creditsLeft, isUnlimited } from '../../credits/format-credits';
import { useCredits } from '../../data/account';
import { readPendingUpload } from './pending-upload';
import { ResumeUpload } from './resume-upload';
import { StepMapping } from './step-mapping';
import { StepSummary } from './step-summary';
import { StepThankYou } from './step-thank-you';

/** Bulk Upload CSV File: choose a file, map its columns, check the summary, process. */
export default function BulkPage() {
  const credits = useCredits();
  const [step, setStep] = useState(0);
  const [chosen, setChosen] = useState<WizardFile | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  // Every line of the file with content, header included: counted once per file.
  const [lines, setLines] = useState<number | null>(null);
  // An upload a reload interrupted, offered to be finished on the first step.
  const [pending, setPending] = useState(readPendingUpload);
  // The submitted job, followed on the last step until its credits are final.
  const [submitted, setSubmitted] = useState<string | null>(null);
  const records = lines === null || !chosen ? null : Math.max(0, lines - (chosen.headerRow ? 1 : 0));

  // Seed 2: the screen scrolls to the top on every step change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the step is the trigger, not an input
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [step]);

  if (!credits.data) return <LoadingAccount />;
  const snapshot = credits.data;
  const paused = snapshot.user_plan.plan_status === 'paused';
  // A paused account cannot submit files, whatever its balance: it is asked to activate first.
  const allowed =
    !paused &&
    (snapshot.subscription_status === 'active' || isUnlimited(snapshot) || creditsLeft(snapshot) > 0);
  if (!allowed && step === 0) {
    return <NotAllowedYet title="Bulk Upload CSV File" remedy={paused ? 'activate' : 'buy'} />;
  }

  const restart = () => {
    setChosen(null);
    setMapping(null);
    setLines(null);
    setStep(0);
  };

  return (
    <Stack maw={1100}>
      <Title order={1}>Bulk Upload CSV File</Title>
      <Stepper active={step} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label="Upload" description="Choose a CSV">
          {pending && (
            <ResumeUpload
              pending={pending}
              onDone={(fileReference) => {
                setPending(null);
                setSubmitted(fileReference);
                setStep(3);
              }}
              onDiscard={() => setPending(null)}
            />
          )}
          <StepChooseFile
            initial={chosen?.file ?? null}
            onReady={(file) => {
              setChosen(file);
              setLines(null);
              setStep(1);
            }}
          />
        </Stepper.Step>
        <Stepper.Step label="Map" description="Columns">
          {chosen && (
            <StepMapping
              chosen={chosen}
              credits={snapshot}
              initial={mapping}
              records={records}
              onLines={setLines}
              onHeaderRowChange={(next) => setChosen(next)}
              onBack={restart}
              onDone={(next) => {
                setMapping(next);
                setStep(2);
              }}
            />
          )}
        </Stepper.Step>
        <Stepper.Step label="Summary" description="Check and process">
          {chosen && mapping && records !== null && (
            <StepSummary
              chosen={chosen}
              mapping={mapping}
              records={records}
              credits={snapshot}
              onBack={() => setStep(1)}
              onDone={(fileReference) => {
                setSubmitted(fileReference);
                setStep(3);
              }}
            />
          )}
        </Stepper.Step>
        <Stepper.Completed>{submitted && <StepThankYou fileReference={submitted} />}</Stepper.Completed>
      </Stepper>
    </Stack>
  );
}
