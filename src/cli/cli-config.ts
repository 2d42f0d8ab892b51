import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from './client.js';

// The CLI's own settings (not the daemon's): a JSON file in the user's config directory, written by
// `switchyard config set`. For now it holds the admin socket to use when neither --socket nor the
// environment names one, so an operator whose daemon lives elsewhere sets it once.

export const cliSettings = ['socket'] as const;
export type CliSetting = (typeof cliSettings)[number];
export type CliConfig = Partial<Record<CliSetting, string>>;

/** `$XDG_CONFIG_HOME/switchyard/config.json`, by default `~/.config/switchyard/config.json`. */
export function cliConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  // The XDG spec ignores a relative XDG_CONFIG_HOME.
  const base = env.XDG_CONFIG_HOME !== undefined && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  return path.join(base ?? path.join(os.homedir(), '.config'), 'switchyard', 'config.json');
}

/** The settings in `file`; none when it does not exist. */
export function readCliConfig(file: string): CliConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw new CliError('invalid_request', `cannot read ${file}: ${code ?? (err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CliError('invalid_request', `${file} is not valid JSON (${(err as Error).message}): fix or delete it`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new CliError('invalid_request', `${file} must hold a JSON object: fix or delete it`);
  const config: CliConfig = {};
  for (const key of cliSettings) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') config[key] = value;
  }
  return config;
}

/** Writes the whole file at once (a rename), readable by its user only. */
export function writeCliConfig(file: string, config: CliConfig): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, file);
}
