import { Resolver } from 'node:dns/promises';
import type { Finding } from './commands/doctor.js';

/** How long doctor waits for one DNS answer; a resolver that does not answer leaves the checks out. */
const DNS_TIMEOUT_MS = 2000;

/** The domain of a From header: `Acme <noreply@mail.acme.com>` -> mail.acme.com. */
export function sendingDomain(from: string): string | undefined {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf('@');
  const domain =
    at < 0
      ? ''
      : address
          .slice(at + 1)
          .trim()
          .toLowerCase()
          .replace(/\.$/, '');
  return domain === '' ? undefined : domain;
}

/** Names that never resolve in public DNS (RFC 2606, 6761): nothing to check there. */
const privateSuffixes = ['.localhost', '.test', '.example', '.invalid', '.local', '.internal'];

type Txt = { records: string[] } | { none: true } | { error: string };

async function txt(resolver: Resolver, name: string): Promise<Txt> {
  try {
    return { records: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    // The name or its TXT records do not exist: DNS answered, and the answer is "none".
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { none: true };
    return { error: code };
  }
}

/**
 * SPF and DMARC of the domain invitation mail is sent from, as public DNS publishes them (spec: the
 * sending domain has DKIM, SPF and DMARC; DKIM needs the provider's selector, so docs/operations.md
 * covers it). `server` (`host` or `host:port`) asks that resolver instead of the system's. When DNS
 * does not answer, the checks say so and judge nothing.
 */
export async function mailDnsFindings(from: string, server?: string): Promise<Finding[]> {
  const domain = sendingDomain(from);
  if (domain === undefined) return [];
  if (privateSuffixes.some((s) => `.${domain}`.endsWith(s)))
    return [
      {
        check: 'mail DNS',
        status: 'OK',
        detail: `${domain} is not a public domain: SPF and DMARC not checked (set SERVICE_EMAIL_FROM to your sending address)`,
        fix: null,
      },
    ];
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 1 });
  if (server !== undefined) resolver.setServers([server]);
  const [spf, dmarc] = await Promise.all([txt(resolver, domain), txt(resolver, `_dmarc.${domain}`)]);
  const findings: Finding[] = [];
  const unanswered = (check: string, r: { error: string }): Finding => ({
    check,
    status: 'OK',
    detail: `not checked: DNS did not answer (${r.error})`,
    fix: null,
  });

  if ('error' in spf) findings.push(unanswered('SPF', spf));
  else {
    const records = 'records' in spf ? spf.records.filter((r) => /^v=spf1(\s|$)/i.test(r)) : [];
    const fix = `publish one TXT record at ${domain}: "v=spf1 include:<your mail provider's SPF domain> -all" (docs/operations.md)`;
    if (records.length === 0)
      findings.push({
        check: 'SPF',
        status: 'WARN',
        detail: `${domain} has no SPF record: receivers may reject or junk invitation mail`,
        fix,
      });
    else if (records.length > 1)
      findings.push({
        check: 'SPF',
        status: 'WARN',
        detail: `${domain} has ${records.length} SPF records: receivers treat that as an error`,
        fix,
      });
    else findings.push({ check: 'SPF', status: 'OK', detail: `${domain}: ${records[0]}`, fix: null });
  }

  if ('error' in dmarc) findings.push(unanswered('DMARC', dmarc));
  else {
    const record = 'records' in dmarc ? dmarc.records.find((r) => /^v=DMARC1(;|\s|$)/i.test(r)) : undefined;
    if (record === undefined)
      findings.push({
        check: 'DMARC',
        status: 'WARN',
        detail: `_dmarc.${domain} has no DMARC record`,
        fix: `publish a TXT record at _dmarc.${domain}: "v=DMARC1; p=quarantine; rua=mailto:dmarc@${domain}" (docs/operations.md)`,
      });
    else findings.push({ check: 'DMARC', status: 'OK', detail: `_dmarc.${domain}: ${record}`, fix: null });
  }
  return findings;
}
