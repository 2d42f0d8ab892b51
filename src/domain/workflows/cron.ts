// Cron expressions of workflow schedules (contract 12), through croner: five fields, or six with
// seconds first; fire times in an IANA time zone. docs/workflows.md, "Schedules".

import { Cron } from 'croner';

/** Five fields (minute first) or six (second first); nicknames such as `@hourly` too. */
const MODE = '5-or-6-parts';

function cronOf(expression: string, timezone: string): Cron {
  return new Cron(expression, { paused: true, mode: MODE, timezone });
}

/** Why `expression` is not a cron expression, or undefined when it is one. */
export function cronProblem(expression: string): string | undefined {
  try {
    cronOf(expression, 'UTC');
    return undefined;
  } catch (err) {
    return (err as Error).message.replace(/^CronPattern: /, '');
  }
}

/** Whether `name` is a time zone both Intl and croner know (IANA names such as `Europe/Paris`, and `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name }).format(0);
    cronOf('* * * * *', name).nextRun(new Date(0));
    return true;
  } catch {
    return false;
  }
}

/** The first fire time strictly after `after`, or null when the expression never fires again. */
export function nextFire(expression: string, timezone: string, after: Date): Date | null {
  return cronOf(expression, timezone).nextRun(after);
}
