import type { Tone } from '../view.js';

/** Colours for states: what is fine is green, what failed red, what needs a look yellow. */
export const toneColor: Record<Tone, string> = {
  good: 'green',
  bad: 'red',
  warn: 'yellow',
  muted: 'gray',
  accent: 'cyan',
};
