const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The 3-D Secure test page a redirect (`next_action.redirect_to_url`) leads to, like Stripe's
 * test-mode page: two buttons, which post the customer's answer and return to `return_url`.
 */
export function authenticationPage(intentId: string, returnUrl: string | null): string {
  const action = (outcome: string) => {
    const query = new URLSearchParams({ outcome, ...(returnUrl ? { return_url: returnUrl } : {}) });
    return escapeHtml(`${encodeURIComponent(intentId)}?${query}`);
  };
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>3D Secure test payment page</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; text-align: center">
<h1 style="font-size: 1.25rem">3D Secure test payment page</h1>
<p>Scrub's built-in payment provider (local mode). No bank is involved: choose what the cardholder does.</p>
<form method="post" action="${action('complete')}" style="display: inline"><button type="submit">Complete authentication</button></form>
<form method="post" action="${action('fail')}" style="display: inline"><button type="submit">Fail authentication</button></form>
</body>
</html>
`;
}
