import { InvalidArgumentError } from 'commander';
import type { Role } from '../domain/identity/roles.js';
import type { Cell } from './output.js';

/** ISO time without the milliseconds, or a dash for none. */
export function shortTime(iso: string | null | undefined): string {
  return iso === null || iso === undefined || iso === '' ? '-' : iso.replace(/\.\d{3}Z$/, 'Z');
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * `30d`, `12h`, `90m`, `3600s`, `2w`, `1y` or `3600` (seconds) -> seconds from now; a commander
 * argument parser. Years are calendar years (1y ends on the same date next year, leap days
 * included), so a yearly key does not drift a day early.
 */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*([smhdwy]?)$/.exec(text.trim());
  if (match === null) throw new InvalidArgumentError('expected a duration such as 30d, 12h, 90m, 3600s, 2w or 1y');
  const n = Number(match[1]);
  if (match[2] !== 'y') return n * UNIT_SECONDS[match[2] === '' ? 's' : match[2]];
  const now = new Date();
  const later = new Date(now);
  later.setUTCFullYear(now.getUTCFullYear() + n);
  return Math.round((later.getTime() - now.getTime()) / 1000);
}

/** An integer option value; a commander argument parser (the daemon checks the range). */
export function parseInteger(text: string): number {
  if (!/^-?\d+$/.test(text.trim())) throw new InvalidArgumentError('expected an integer');
  return Number(text);
}

/** `1 grant`, `3 grants`: a count with its noun. */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.floor(seconds);
  const parts: Array<[number, string]> = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor((s % 86_400) / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'm'],
    [s % 60, 's'],
  ];
  const shown = parts.filter(([n]) => n > 0).slice(0, 2);
  return shown.length === 0 ? '0s' : shown.map(([n, unit]) => `${n}${unit}`).join(' ');
}

const roleTones: Record<Role, Cell['tone']> = { owner: 'accent', admin: 'warn', member: 'good', viewer: 'muted' };

export function roleCell(role: string): Cell {
  return { text: role, tone: roleTones[role as Role] };
}

/**
 * A principal (or organization) in a message, as the operator named it: the email or slug typed,
 * else the id the daemon answered with. An id typed is an id shown.
 */
export function asTyped(typed: string | undefined, id: string): string {
  return typed === undefined || typed.trim() === '' ? id : typed.trim();
}
