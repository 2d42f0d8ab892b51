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

function environmentForm(value: string | number | boolean | number[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(',') : String(value);
}

function mask(key: OptionKey, text: string): string {
  if (!urlSecrets.has(key)) return MASK;
  try {
    const url = new URL(text);
    if (url.password !== '') url.password = MASK;
    return url.toString();
  } catch {
    return MASK;
  }
}

/** Every setting of `config` in the table's order, with its source; secrets masked. */
export function describeConfig(config: Config): ConfigSetting[] {
  return (Object.keys(optionSpecs) as OptionKey[]).map((key) => {
    const spec: { env: string; secret?: boolean; flag?: string } = optionSpecs[key];
    const text = environmentForm(config[key]);
    const secret = spec.secret === true;
    return {
      name: spec.env,
      value: text !== null && secret ? mask(key, text) : text,
      source: config.origins[key],
      secret,
      flag: spec.flag === undefined ? null : `--${spec.flag}`,
    };
  });
}
