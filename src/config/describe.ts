import { optionSpecs, type Config, type ConfigSource, type OptionKey } from './schema.js';

/** One setting as the daemon runs with it, as `switchyard config show` prints it. */
export interface ConfigSetting {
  /** The environment variable (also the setting's key in a --config file). */
  name: string;
  /** The value in its environment form, null when unset; a secret masked. */
  value: string | null;
  source: ConfigSource;
  secret: boolean;
  flag: string | null;
}

const MASK = '********';

/** Secrets that are URLs: shown with only their password masked, so the host and user stay readable. */
const urlSecrets: ReadonlySet<OptionKey> = new Set(['databaseUrl', 'smtpUrl']);

function environmentForm(value: string | number | boolean | number[] | Record<string, number> | undefined): string | null {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.join(',');
  // name=value pairs (per-provider timeouts), as the variable takes them.
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([name, n]) => `${name}=${n}`)
      .join(',');
  return String(value);
}

function parseUrl(text: string): URL | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** A value as shown: a secret masked whole unless it is a URL; any URL's password masked (OLLAMA_HOST may carry one too). */
function shown(key: OptionKey, text: string, secret: boolean): string {
  if (secret && !urlSecrets.has(key)) return MASK;
  const url = parseUrl(text);
  if (url === undefined) return secret ? MASK : text;
  if (url.password === '') return text;
  url.password = MASK;
  return url.toString();
}

/** Every setting of `config` in the table's order, with its source; secrets masked. */
export function describeConfig(config: Config): ConfigSetting[] {
  return (Object.keys(optionSpecs) as OptionKey[]).map((key) => {
    const spec: { env: string; secret?: boolean; flag?: string } = optionSpecs[key];
    const text = environmentForm(config[key]);
    const secret = spec.secret === true;
    return {
      name: spec.env,
      value: text === null ? null : shown(key, text, secret),
      source: config.origins[key],
      secret,
      flag: spec.flag === undefined ? null : `--${spec.flag}`,
    };
  });
}
