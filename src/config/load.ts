import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configSchema, optionSpecs, type Config, type ConfigSource, type OptionKey } from './schema.js';

/** A configuration problem, reported as one line naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = 'ConfigError';
  }
}

export interface ConfigSources {
  /** Values from command-line flags, keyed by option key (commander's camelCase of the flag). */
  flags?: Partial<Record<OptionKey, string | number | boolean>>;
  env?: NodeJS.ProcessEnv;
  /** Path of a JSON file whose keys are the environment variable names. */
  configFile?: string;
}

const keys = Object.keys(optionSpecs) as OptionKey[];
const keyByEnv = new Map(keys.map((k) => [optionSpecs[k].env, k]));

function readConfigFile(file: string): Partial<Record<OptionKey, unknown>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(
      '--config',
      `${file}: ${code === 'ENOENT' ? 'file not found' : `cannot be read (${code ?? (err as Error).message})`}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError('--config', `${file}: not valid JSON (${(err as Error).message})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError('--config', `${file}: expected a JSON object keyed by variable name`);
  }
  const out: Partial<Record<OptionKey, unknown>> = {};
  for (const [name, value] of Object.entries(raw)) {
    const key = keyByEnv.get(name);
    if (key === undefined) throw new ConfigError(name, `unknown setting in ${file}`);
    out[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  return out;
}

/**
 * The value each option is given, by the highest layer that sets it: flags > environment > config
 * file; and where each option's value comes from (`default` for those no layer sets).
 */
function layeredInput(sources: ConfigSources): {
  input: Partial<Record<OptionKey, unknown>>;
  origins: Record<OptionKey, ConfigSource>;
} {
  const env = sources.env ?? process.env;
  const file = sources.configFile === undefined ? {} : readConfigFile(sources.configFile);
  const input: Partial<Record<OptionKey, unknown>> = {};
  const origins = {} as Record<OptionKey, ConfigSource>;
  for (const key of keys) {
    const fromFlag = sources.flags?.[key];
    const fromEnv = env[optionSpecs[key].env];
    origins[key] = 'default';
    if (fromFlag !== undefined) {
      input[key] = typeof fromFlag === 'boolean' ? fromFlag : String(fromFlag);
      origins[key] = 'flag';
    } else if (fromEnv !== undefined && fromEnv !== '') {
      input[key] = fromEnv;
      origins[key] = 'env';
    } else if (file[key] !== undefined) {
      input[key] = file[key];
      origins[key] = 'file';
    }
  }
  return { input, origins };
}

/** Layers defaults < config file < environment < flags, then validates the whole with one schema. */
export function loadConfig(sources: ConfigSources = {}): Config {
  const { input, origins } = layeredInput(sources);
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue.path[0] as OptionKey | undefined;
    const variable = key !== undefined && key in optionSpecs ? optionSpecs[key].env : 'configuration';
    throw new ConfigError(variable, issue.message);
  }
  const c = parsed.data;
  const dataDir = path.resolve(c.dataDir);
  return { ...c, dataDir, grpcSocket: path.resolve(c.grpcSocket ?? path.join(dataDir, 'admin.sock')), origins };
}

/**
 * The variables that `sources` set (flag, environment or config file) for features not built yet, in
 * table order: the daemon ignores them, and `serve` says so once at start-up.
 */
export function plannedSettingsSet(sources: ConfigSources = {}): string[] {
  const { input } = layeredInput(sources);
  return keys.filter((key) => optionSpecs[key].planned !== undefined && key in input).map((key) => optionSpecs[key].env);
}
