import { escapeHtml } from '../html.js';

// SERVICE_INVITE_ACCEPT_CONFIRM=1: the accept link's GET answers this page instead of accepting, so a
// mail scanner or link preview that follows the link cannot accept for the recipient. The button
// POSTs the token as a form field to the same path; nothing is read or written to render it.

/** Headers of the page: never cached, never framed (no clickjacked button), no token in a Referer. */
export const acceptPageHeaders: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
});

/** The confirmation page; `token` is whatever the link carried, escaped like everything else. */
export function renderAcceptPage(token: string): string {
  // The form's relative action resolves to this same path (.../{id}/accept) without the query string,
  // behind a proxy's path prefix too.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Accept invitation</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.2rem}</style>
</head>
<body>
<h1>Accept invitation</h1>
<p>Press the button to join the organization you were invited to.</p>
<form method="post" action="accept">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Accept invitation</button>
</form>
</body>
</html>
`;
}
