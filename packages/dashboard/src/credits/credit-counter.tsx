import { Badge, Loader } from '@mantine/core';
import { useCredits } from '../data/account';
import { formatCredits, isUnlimited, LOW_CREDITS } from './format-credits';

/** The header's balance: UNLIMITED, or thousands-separated and red under 5,000. */
export function CreditCounter() {
  const credits = useCredits();
  if (!credits.data) return credits.isPending ? <Loader size="xs" aria-label="Loading credits" /> : null;
  const low = !isUnlimited(credits.data) && Number(credits.data.credits_remaining) < LOW_CREDITS;
  return (
    <Badge
      size="lg"
      variant="filled"
      // Dark shades: white text on them passes WCAG AA contrast.
      color={low ? 'red.9' : 'teal.9'}
      data-testid="credit-counter"
      data-level={low ? 'low' : 'high'}
      aria-label={`Credits: ${formatCredits(credits.data)}`}
    >
      {formatCredits(credits.data)}
    </Badge>
  );
}
