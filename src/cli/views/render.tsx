import { render } from 'ink';
import type { View } from '../view.js';
import { ErrorMessage } from './error-message.js';
import { Screen } from './screen.js';
import { Task } from './task.js';

// The ink entry points, imported lazily by output.ts for terminals only.

/** Spinner, then the result's views; rejects with the task's error once ink has let go of the terminal. */
export async function renderTask<T>(label: string, promise: Promise<T>, toViews: (value: T) => View[]): Promise<void> {
  const instance = render(
    <Task promise={promise} label={label}>
      {(value) => <Screen views={toViews(value)} />}
    </Task>,
  );
  await instance.waitUntilExit();
}

export async function renderError(line: string): Promise<void> {
  const instance = render(<ErrorMessage line={line} />, { stdout: process.stderr });
  instance.unmount();
  await instance.waitUntilExit();
}
