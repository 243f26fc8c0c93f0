import { Box } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications, useNotifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { NOTIFICATIONS_POSITION } from './notify';

/** Phones: up to Mantine's `xs` breakpoint (576 px), where a floating toast spans the screen. */
const PHONE = '(max-width: 36em)';

/**
 * Where toasts show. Wide screens: floating at the bottom right (at the top they covered the
 * header's credit counter and menu). Phones: a floating toast is as wide as the screen, so wherever
 * it floats it covers a form, a table or a button (the Webhooks screen at 390 px). There they take
 * their own place at the top of the screen's content, in the flow, pushing it down instead of
 * covering it, and the page scrolls them into view (below the fixed header) when one comes.
 */
export function Toasts() {
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  if (!phone) return <Notifications position={NOTIFICATIONS_POSITION} />;
  return <InPageToasts />;
}

function InPageToasts() {
  const place = useRef<HTMLDivElement>(null);
  const shown = useNotifications().notifications.length;
  const before = useRef(shown);
  useEffect(() => {
    if (shown > before.current) place.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    before.current = shown;
  }, [shown]);
  return (
    // The header is fixed and 60 px high: scrolled to, the toasts stop below it.
    <Box ref={place} style={{ scrollMarginTop: 76 }} data-testid="toasts-in-page">
      <Notifications
        withinPortal={false}
        position="top-center"
        style={{ position: 'static', transform: 'none', width: '100%', maxWidth: 'none' }}
      />
    </Box>
  );
}
