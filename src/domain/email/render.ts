import { escapeHtml } from '../../html.js';
import { headerText } from './address.js';
import type { InvitationMailData } from './types.js';

// The invitation mail (spec 4.2): organization display name and logo, the invited role, an
// "Accept Invitation" button and the expiry notice, as HTML and plain text. Every value that a user
// chose is HTML-escaped; header values go through headerText (no CR/LF).

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** `{public base}/v1/invitations/{id}/accept?token=<raw>`; the base may carry a path prefix. */
export function acceptLink(publicUrl: string, invitationId: string, rawToken: string): string {
  const base = new URL(publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  const url = new URL(`v1/invitations/${encodeURIComponent(invitationId)}/accept`, base);
  url.searchParams.set('token', rawToken);
  return url.toString();
}

/** "7 days", "2 hours", "1 minute": the lifetime as the notice says it. */
function describeDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  for (const [size, name] of units) {
    if (ms >= size) {
      const n = Math.round(ms / size);
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return 'less than a second';
}

function articleFor(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** The subject line: the organization's display name, on one header line. */
export function invitationSubject(data: InvitationMailData): string {
  return headerText(`You're invited to join ${headerText(data.organization_display_name)}`, 250);
}

export function renderInvitationMail(data: InvitationMailData, link: string): RenderedMail {
  const org = headerText(data.organization_display_name);
  const role = data.role;
  const lifetime = describeDuration(data.ttl_ms);
  const until = `${data.expires_at.slice(0, 16).replace('T', ' ')} UTC`;
  const subject = invitationSubject(data);
  const logo =
    data.logo_url === null
      ? ''
      : `<tr><td style="padding:24px 24px 0 24px"><img src="${escapeHtml(data.logo_url)}" alt="${escapeHtml(org)}" style="max-height:48px;max-width:200px;border:0"></td></tr>`;

  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#18181b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:8px">
${logo}
<tr><td style="padding:24px">
<h1 style="font-size:20px;margin:0 0 16px 0">Join ${escapeHtml(org)}</h1>
<p style="margin:0 0 16px 0;line-height:1.5">You have been invited to join <strong>${escapeHtml(org)}</strong> as ${articleFor(role)} <strong>${escapeHtml(role)}</strong>.</p>
<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;display:inline-block;font-weight:600">Accept Invitation</a></p>
<p style="margin:0 0 8px 0;font-size:13px;color:#52525b;line-height:1.5">This invitation expires in ${escapeHtml(lifetime)} (on ${escapeHtml(until)}). After that, ask for a new one.</p>
<p style="margin:0;font-size:13px;color:#52525b;line-height:1.5">If the button does not work, open this link: <a href="${escapeHtml(link)}" style="color:#2563eb;word-break:break-all">${escapeHtml(link)}</a></p>
</td></tr>
</table>
<p style="font-size:12px;color:#a1a1aa;margin:16px 0 0 0">If you did not expect this invitation, you can ignore this email.</p>
</td></tr>
</table>
</body>
</html>
`;

  const text = [
    `Join ${org}`,
    '',
    `You have been invited to join ${org} as ${articleFor(role)} ${role}.`,
    '',
    'Accept Invitation:',
    link,
    '',
    `This invitation expires in ${lifetime} (on ${until}). After that, ask for a new one.`,
    '',
    'If you did not expect this invitation, you can ignore this email.',
    '',
  ].join('\n');

  return { subject, html, text };
}
