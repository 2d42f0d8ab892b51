// Mail header values: a display name or subject may hold user text, so line breaks and other control
// characters are replaced before they reach a header (no header injection, whatever the transport).

const CONTROL = /[\p{Cc}\u2028\u2029]+/gu;

/** One header line's worth of text: control characters become a space, runs of space collapse. */
export function headerText(value: string, max = 200): string {
  return value.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

export interface Mailbox {
  name: string;
  address: string;
}

/** Parses SERVICE_EMAIL_FROM: `Name <addr@host>`, `"Name" <addr@host>` or a bare `addr@host`. */
export function parseMailbox(value: string): Mailbox {
  const angled = /^\s*(?:"((?:[^"\\]|\\.)*)"|([^<]*?))\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (angled) return { name: headerText((angled[1] ?? angled[2] ?? '').replace(/\\(.)/g, '$1')), address: angled[3] };
  const bare = value.trim();
  if (/^[^\s<>"]+@[^\s<>"]+$/.test(bare)) return { name: '', address: bare };
  throw new TypeError(`not a mail address: ${value}`);
}

/** RFC 5322 `"Display Name" <address>`, the name quoted and escaped (the provider API's `from`). */
export function formatMailbox(mailbox: Mailbox): string {
  const name = headerText(mailbox.name);
  if (name === '') return mailbox.address;
  return `"${name.replace(/[\\"]/g, '\\$&')}" <${mailbox.address}>`;
}
