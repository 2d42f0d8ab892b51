import type { DevBootstrap } from './dev-bootstrap.js';

// What `serve` says to the person who started a development daemon, on stderr, as a block between
// two rules: no log line (JSON or pretty) looks like it, and a log collector reading stdout never
// stores the key.

const WIDTH = 78;

/** The lines about `serve --dev`'s organization: its key on the first start, how to get one later. */
function devOrganizationLines(dev: DevBootstrap, httpUrl: string): string[] {
  const { organization, key } = dev;
  if (key !== null && organization !== undefined)
    return [
      `Development organization \`${organization.slug}\` (${organization.id}) is ready.`,
      'Its owner key, shown this once (it acts as the owner, with full access):',
      '',
      `  ${key.raw_key}`,
      '',
      'Try it:',
      '',
      `  curl -H "Authorization: Bearer ${key.raw_key}" ${httpUrl}/v1/organizations`,
    ];
  if (organization === undefined) return ['No organization `dev` here: its key was shown on the first start of this data dir.'];
  return [
    `Development organization \`${organization.slug}\` (${organization.id}); its key was shown on the first start only.`,
    'A new key for it:',
    '',
    `  switchyard key create --org ${organization.slug} --name my-key`,
  ];
}

/** The development banner: the X-Principal-Id warning, and with --dev the dev organization. */
export function devBanner(dev: DevBootstrap | null, httpUrl: string): string {
  const title = '== switchyard: development mode ';
  const lines = [
    'Any caller can act as any principal with the X-Principal-Id header.',
    'Set SERVICE_ENV=production to turn that off.',
    ...(dev === null ? [] : ['', ...devOrganizationLines(dev, httpUrl)]),
  ];
  return ['', title.padEnd(WIDTH, '='), ...lines, '='.repeat(WIDTH), '', ''].join('\n');
}
